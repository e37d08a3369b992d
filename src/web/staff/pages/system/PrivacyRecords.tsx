/**
 * Two tabs of 个人信息保护 (pi:admin):
 * - 保留期限: 试运行 lists what the retention job would erase now (per entity: the period, the
 *   action, the aged records and recycle-bin entries with their ids), 立即执行 runs it after a
 *   confirmation and shows the report; below, the runs (the daily job's and those started here),
 *   newest first, with the counts per entity.
 * - 处理活动记录: the records of processing generated from the schemas and the roles (personal
 *   fields, purpose, retention, erasure, the roles reading them in full), exportable as Markdown.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import { request } from '../../../common/http.ts';
import { ScrollX } from '../../../components/ScrollX.tsx';
import { TablePager } from '../../../components/TablePager.tsx';
import { saveBlob } from '../../schema/exportFile.ts';
import { ConfirmDialog, getJson, TableState, useLoad, type Page } from './common.tsx';

interface RetentionLine {
  resource: string;
  title: string;
  action: string;
  rule: string;
  records: number;
  binEntries: number;
  ids: number[];
  binIds: number[];
  count: number;
  left: number;
  revisionsRemoved: number;
  pinyinKeys: number;
  files: number;
}
interface Retention {
  dryRun: boolean;
  time: string;
  lines: RetentionLine[];
  logLines: number;
  count: number;
  left: number;
}
interface RunRow {
  id: number;
  status: string;
  resultCount: number;
  username: string | null;
  createTime: string;
  detail: { lines?: Array<{ title: string; action: string; count: number }>; left?: number; error?: string } | null;
}

/** At most this many ids shown per entity in a cell; the rest as a count. */
const IDS_SHOWN = 30;
const idsText = (ids: number[], total: number) =>
  ids.length ? `${ids.slice(0, IDS_SHOWN).join(', ')}${total > IDS_SHOWN ? ` 等 ${total} 条` : ''}` : '-';

function RetentionTable({ report }: { report: Retention }) {
  return (
    <ScrollX>
      <Table size="small" aria-label={report.dryRun ? '到期记录' : '清理报告'}>
        <TableHead>
          <TableRow>
            <TableCell>数据</TableCell>
            <TableCell>保存期限</TableCell>
            <TableCell>处理</TableCell>
            <TableCell align="right">到期记录</TableCell>
            <TableCell align="right">回收站</TableCell>
            <TableCell>记录ID</TableCell>
            <TableCell>回收站记录ID</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {report.lines.map((l) => (
            <TableRow key={l.resource}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{l.title}</TableCell>
              <TableCell>{l.rule}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{l.action}</TableCell>
              <TableCell align="right">{l.records}</TableCell>
              <TableCell align="right">{l.binEntries}</TableCell>
              <TableCell>{idsText(l.ids, l.records)}</TableCell>
              <TableCell>{idsText(l.binIds, l.binEntries)}</TableCell>
            </TableRow>
          ))}
          <TableState loading={false} failed={false} empty={report.lines.length === 0} columns={7} hint="没有设置保存期限的数据" />
        </TableBody>
      </Table>
    </ScrollX>
  );
}

const runSummary = (r: RunRow) => {
  if (r.detail?.error) return r.detail.error;
  const parts = (r.detail?.lines ?? []).filter((l) => l.count).map((l) => `${l.title}${l.action} ${l.count} 条`);
  const left = r.detail?.left ? `；${r.detail.left} 条留待下次` : '';
  return parts.length ? `${parts.join('，')}${left}` : '没有到期的记录';
};

export function RetentionTab() {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Retention | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [page, setPage] = useState(0);
  const runs = useLoad(() => getJson<Page<RunRow>>('/api/privacy/requests', { kind: 'retention', page, size: 10 }), [page]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // the HTTP client shows the server's message
    } finally {
      setBusy(false);
    }
  };
  const dryRun = () =>
    run(async () => {
      setReport(await getJson<Retention>('/api/privacy/retention'));
    });
  const runNow = () =>
    run(async () => {
      setConfirming(false);
      const { data } = await request<Retention>('/api/privacy/retention/run', { method: 'POST' });
      setReport(data);
      notify(`已按保留期限处理 ${data.count} 条记录`, { type: 'success' });
      runs.reload();
    });

  return (
    <Box>
      <Alert severity="info" sx={{ mb: 1 }}>
        每天 3:30
        的定时任务“个人信息到期清理”按各数据的保存期限删除或匿名化到期的记录（含历史版本、回收站、拼音索引和上传文件），并通知管理员。试运行只列出到期的记录，不做修改。
      </Alert>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Button variant="contained" size="small" disabled={busy} onClick={() => void dryRun()}>
          试运行
        </Button>
        <Button variant="outlined" size="small" color="error" disabled={busy} onClick={() => setConfirming(true)}>
          立即执行
        </Button>
      </Box>
      {busy && !report ? <Typography role="status">正在处理…</Typography> : null}
      {report ? (
        <>
          <Typography variant="subtitle2" sx={{ mt: 1 }} role="status">
            {report.dryRun
              ? `试运行（${report.time}）：到期 ${report.count} 条，未做修改`
              : `已执行（${report.time}）：处理 ${report.count} 条`}
            {report.left ? `；超过单次上限的 ${report.left} 条留待下次` : ''}
            {!report.dryRun && report.logLines ? `；操作日志 ${report.logLines} 条中的号码已脱敏` : ''}
          </Typography>
          <RetentionTable report={report} />
        </>
      ) : null}
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        执行记录
      </Typography>
      <ScrollX>
        <Table size="small" aria-label="执行记录">
          <TableHead>
            <TableRow>
              <TableCell>时间</TableCell>
              <TableCell>执行人</TableCell>
              <TableCell>状态</TableCell>
              <TableCell align="right">处理数</TableCell>
              <TableCell>明细</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(runs.data?.content ?? []).map((r) => (
              <TableRow key={r.id} hover>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createTime}</TableCell>
                <TableCell>{r.username ?? '定时任务'}</TableCell>
                <TableCell>{r.status}</TableCell>
                <TableCell align="right">{r.resultCount}</TableCell>
                <TableCell>{runSummary(r)}</TableCell>
              </TableRow>
            ))}
            <TableState
              loading={runs.loading && !runs.data}
              failed={runs.failed}
              empty={!!runs.data && runs.data.content.length === 0}
              columns={5}
              hint="到期清理每天执行一次；也可点“立即执行”"
            />
          </TableBody>
        </Table>
      </ScrollX>
      <TablePager count={runs.data?.totalElements ?? 0} page={page} size={10} onPageChange={setPage} />
      <ConfirmDialog
        open={confirming}
        busy={busy}
        content="将按各数据的保存期限删除或匿名化全部到期的记录及其历史版本、回收站数据、拼音索引和上传文件，不能恢复。确定立即执行吗？"
        onConfirm={() => void runNow()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

interface ProcessingRecord {
  resource: string;
  title: string;
  table: string;
  source: string;
  fields: Array<{ name: string; title: string; kindTitle: string }>;
  purpose: string;
  retention: string;
  erase: string;
  fullKey: string | null;
  roles: string[];
}
interface Processing {
  generatedAt: string;
  everything: string;
  records: ProcessingRecord[];
}

/** Cells marked `wrap` wrap their long text within their width (ScrollX keeps cells on one line). */
const WRAP = { '& td.wrap': { whiteSpace: 'normal', wordBreak: 'break-word' } } as const;

export function ProcessingTab() {
  const [busy, setBusy] = useState(false);
  const processing = useLoad(() => getJson<Processing>('/api/privacy/processing'), []);
  const download = async () => {
    setBusy(true);
    try {
      const res = await request<Blob>('/api/privacy/processing/markdown', { responseType: 'blob' });
      saveBlob(res.data, '个人信息处理活动记录.md');
    } catch {
      // the HTTP client shows the server's message
    } finally {
      setBusy(false);
    }
  };
  const records = processing.data?.records ?? [];
  return (
    <Box>
      <Alert severity="info" sx={{ mb: 1 }}>
        由各数据的定义（个人信息字段、处理目的、保存期限、删除方式）和当前的角色权限生成；新增数据或调整角色权限后即随之更新。
        {processing.data ? `${processing.data.everything}。` : ''}
      </Alert>
      <Box sx={{ display: 'flex', gap: 1, mb: 1 }}>
        <Button variant="outlined" size="small" disabled={busy} onClick={() => void download()} sx={{ textTransform: 'none' }}>
          导出 Markdown
        </Button>
      </Box>
      <ScrollX>
        <Table size="small" aria-label="个人信息处理活动记录" sx={WRAP}>
          <TableHead>
            <TableRow>
              <TableCell>数据</TableCell>
              <TableCell>个人信息字段</TableCell>
              <TableCell>处理目的</TableCell>
              <TableCell>保存期限</TableCell>
              <TableCell>删除方式</TableCell>
              <TableCell>可查看完整信息的角色</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((r) => (
              <TableRow key={r.resource}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {r.title}
                  <Typography variant="caption" display="block" color="text.secondary">
                    {r.source}
                  </Typography>
                </TableCell>
                <TableCell className="wrap" sx={{ minWidth: 180, maxWidth: 280 }}>
                  {r.fields.map((f) => (f.title === f.name ? f.kindTitle : `${f.title}（${f.kindTitle}）`)).join('、')}
                </TableCell>
                <TableCell className="wrap" sx={{ minWidth: 160, maxWidth: 260 }}>
                  {r.purpose}
                </TableCell>
                <TableCell className="wrap" sx={{ minWidth: 140, maxWidth: 220 }}>
                  {r.retention}
                </TableCell>
                <TableCell className="wrap" sx={{ minWidth: 140, maxWidth: 240 }}>
                  {r.erase}
                </TableCell>
                <TableCell className="wrap" sx={{ minWidth: 120, maxWidth: 200 }}>
                  {r.roles.length ? r.roles.join('、') : '无（仅管理员账号）'}
                </TableCell>
              </TableRow>
            ))}
            <TableState
              loading={processing.loading && !processing.data}
              failed={processing.failed}
              empty={!!processing.data && records.length === 0}
              columns={6}
            />
          </TableBody>
        </Table>
      </ScrollX>
    </Box>
  );
}
