/**
 * Generic content page: `#/content?src=api/...&field=...&title=...` reads server-supplied HTML
 * from one of the console's own API calls and shows it sanitised (DOMPurify). A menu can point
 * at it to publish a notice, rules or a help text that an administrator keeps in a table.
 *
 * - `src` must be an API path of this server (`api/...`), never another site;
 * - the answer may be text, a record, a list or a page (`{content: [...]}`): the first record is used;
 * - `field` names the property holding the HTML; without it the first of content, pageRemark,
 *   html, msg, remark that the record has.
 */
import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { Title, useNotify } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { SafeHtml } from '../../components/SafeHtml.tsx';
import { exportElementToPdf } from '../../components/pdfExport.ts';
import { request } from '../../common/http.ts';

const SOURCE = /^\/?api\/[A-Za-z0-9_\-/]+(\?[^#]*)?$/;
const HTML_FIELDS = ['content', 'pageRemark', 'html', 'msg', 'remark'];

/** The API URL of a `src` parameter, or null when it is not a path of this server's API. */
export function contentSource(src: string | null): string | null {
  if (!src || !SOURCE.test(src) || src.includes('..')) return null;
  return src.startsWith('/') ? src : `/${src}`;
}

/** The HTML in an answer: text as it is, else the field of the first record. */
export function htmlOf(answer: unknown, field?: string | null): string {
  if (typeof answer === 'string') return answer;
  let record: unknown = answer;
  if (record && typeof record === 'object' && Array.isArray((record as { content?: unknown }).content)) {
    record = (record as { content: unknown[] }).content[0];
  }
  if (Array.isArray(record)) record = record[0];
  if (!record || typeof record !== 'object') return '';
  const r = record as Record<string, unknown>;
  const names = field ? [field] : HTML_FIELDS;
  for (const name of names) if (typeof r[name] === 'string') return r[name];
  return '';
}

type State = { kind: 'loading' } | { kind: 'ready'; html: string } | { kind: 'error'; message: string };

export function ContentPage() {
  const [params] = useSearchParams();
  const source = contentSource(params.get('src'));
  const field = params.get('field');
  const title = params.get('title') || '内容';
  const [loaded, setLoaded] = useState<State>({ kind: 'loading' });
  // another source or field: loading again until its answer comes
  const [loadedFor, setLoadedFor] = useState({ source, field });
  if (loadedFor.source !== source || loadedFor.field !== field) {
    setLoadedFor({ source, field });
    setLoaded({ kind: 'loading' });
  }
  const state: State = source ? loaded : { kind: 'error', message: '页面地址不正确：缺少内容来源' };
  const [exporting, setExporting] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const notify = useNotify();

  useEffect(() => {
    if (!source) return;
    let live = true;
    request<unknown>(source, { quiet: true })
      .then(({ data }) => live && setLoaded({ kind: 'ready', html: htmlOf(data, field) }))
      .catch((e: Error) => live && setLoaded({ kind: 'error', message: e.message || '内容加载失败' }));
    return () => {
      live = false;
    };
  }, [source, field]);

  const exportPdf = async () => {
    if (!body.current || exporting) return;
    setExporting(true);
    try {
      await exportElementToPdf(body.current, title);
    } catch (e) {
      notify((e as Error).message || '导出PDF失败', { type: 'error' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box sx={{ mt: 1 }}>
      <Title title={title} />
      <Card>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', mb: 2 }}>
            <Typography variant="h6" sx={{ flex: 1 }}>
              {title}
            </Typography>
            {state.kind === 'ready' && state.html ? (
              <Button size="small" variant="outlined" onClick={() => void exportPdf()} disabled={exporting}>
                {exporting ? '正在导出...' : '导出PDF'}
              </Button>
            ) : null}
          </Box>
          {state.kind === 'loading' ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
              <CircularProgress size={18} /> 正在加载...
            </Box>
          ) : state.kind === 'error' ? (
            <Typography color="error">{state.message}</Typography>
          ) : state.html ? (
            <div ref={body}>
              <SafeHtml html={state.html} testId="content-html" />
            </div>
          ) : (
            <Typography color="text.secondary">暂无内容</Typography>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
