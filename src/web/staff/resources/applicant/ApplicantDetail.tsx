/**
 * #/applicant/:id/show — one applicant on a long page with the scroll-tab layout: 基本信息,
 * 应聘岗位, 教育信息, 培训信息, 工作信息. 办理入职 (with staff:add) moves the applicant into the
 * staff roster (POST /api/staffjlk/staffJoin) after a confirmation that asks the entry date.
 * Region names come from the region tables, loaded only when this page opens.
 */
import { DateField } from '../../../components/DateFields.tsx';
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Title, useNotify, usePermissions } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { resourceByName } from '../../../../generated/resources.ts';
import { mask } from '../../../../shared/masks.ts';
import { listFields, optionLabel, type FieldSpec, type ResourceSpec } from '../../../../shared/resource-spec.ts';
import { ScrollTabLayout, type ScrollSection } from '../../../components/ScrollTabLayout.tsx';
import { request } from '../../../common/http.ts';
import { hasPermission } from '../../../common/session.ts';
import { SUCCESS_NOTICE_MS } from '../../schema/notices.ts';
import { textOf } from '../../../common/text.ts';

type Row = Record<string, unknown>;
const APPLICANT = resourceByName.applicant;
const ENTRIES = ['staffunEducation', 'staffunPx', 'staffunWork'] as const;
const REGION_FIELDS = new Set(['cardProvince', 'cardCity', 'cardCounty', 'nowProvince', 'nowCity', 'nowCounty']);
const HIDDEN = new Set(['id', 'openid', 'unid', 'nickname', 'img', 'roleId', 'staffunZpId', ...REGION_FIELDS]);

function shown(field: FieldSpec, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const label = optionLabel(field, value);
  if (label) return label;
  if (field.mask) return mask(field.mask, value);
  return textOf(value);
}

function EntryTable({ spec, rows }: { spec: ResourceSpec; rows: Row[] }) {
  const fields = listFields(spec).filter((f) => f.name !== 'staffunId');
  const remark = spec.fields.find((f) => f.name === 'remark');
  if (rows.length === 0) return <Typography sx={{ color: 'text.secondary', fontSize: 14 }}>暂无数据</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={spec.title}>
        <TableHead>
          <TableRow>
            {fields.map((f) => (
              <TableCell key={f.name}>{f.title}</TableCell>
            ))}
            {remark ? <TableCell>{remark.title}</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={String(r.id)}>
              {fields.map((f) => (
                <TableCell key={f.name}>{shown(f, r[f.name])}</TableCell>
              ))}
              {remark ? <TableCell>{shown(remark, r.remark)}</TableCell> : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

export function ApplicantDetail() {
  const { id } = useParams();
  const notify = useNotify();
  const { permissions } = usePermissions<string[]>();
  const [applicant, setApplicant] = useState<Row | null | undefined>(undefined);
  const [posting, setPosting] = useState<Row | null>(null);
  const [entries, setEntries] = useState<Record<string, Row[]>>({});
  const [regionText, setRegionText] = useState<((p: unknown, c: unknown, d: unknown) => string) | null>(null);
  const [joining, setJoining] = useState(false);
  const [entryDate, setEntryDate] = useState(() => new Date().toISOString().slice(0, 10));

  const load = useCallback(
    () =>
      request<{ content: Row[] }>(`/${APPLICANT.path}`, { query: { id } })
        .catch(() => null)
        .then(async (res) => {
          const record = res?.data.content[0] ?? null;
          setApplicant(record);
          if (!record) return;
          const lists = await Promise.all(
            ENTRIES.map((name) =>
              request<{ content: Row[] }>(`/${resourceByName[name].path}`, {
                query: { staffunId: record.id as number, page: 0, size: 99999, sort: 'id,desc' },
                quiet: true,
              })
                .then((r) => [name, r.data.content] as const)
                .catch(() => [name, null] as const),
            ),
          );
          setEntries(Object.fromEntries(lists.filter(([, rows]) => rows !== null)) as Record<string, Row[]>);
          if (record.staffunZpId) {
            const p = await request<Row>(`/api/staffunZp/getZpById`, { query: { id: record.staffunZpId as number }, quiet: true }).catch(
              () => null,
            );
            setPosting(p?.data ?? null);
          }
        }),
    [id],
  );

  useEffect(() => {
    void load();
    void import('../../../../shared/regions.ts').then((m) => setRegionText(() => m.regionText));
  }, [load]);

  const join = async () => {
    try {
      await request('/api/staffjlk/staffJoin', { method: 'POST', body: { id: Number(id), entryDate } });
      notify('操作成功', { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      setJoining(false);
      await load();
    } catch {
      /* shown by the HTTP client */
    }
  };

  if (applicant === undefined) return <LinearProgress aria-label="正在加载" sx={{ mt: 1 }} />;
  if (applicant === null) return <Typography sx={{ p: 3 }}>应聘人员不存在</Typography>;

  const region = (prefix: 'card' | 'now') =>
    regionText ? regionText(applicant[`${prefix}Province`], applicant[`${prefix}City`], applicant[`${prefix}County`]) || '—' : '...';
  const basics = APPLICANT.fields.filter((f) => !HIDDEN.has(f.name));
  const sections: ScrollSection[] = [
    {
      id: 'basic',
      title: '基本信息',
      content: (
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 3, rowGap: 0.5, m: 0 }}>
          {[
            ...basics.map((f) => [f.title, shown(f, applicant[f.name])] as const),
            ['户籍所在地', region('card')] as const,
            ['现居住地', region('now')] as const,
          ].map(([label, value]) => (
            <Box key={label} sx={{ display: 'flex', gap: 1, fontSize: 14, py: 0.5, borderBottom: '1px dashed #ebeef5' }}>
              <Box component="dt" sx={{ color: 'text.secondary', minWidth: 120 }}>
                {label}
              </Box>
              <Box component="dd" sx={{ m: 0, wordBreak: 'break-all' }}>
                {value}
              </Box>
            </Box>
          ))}
        </Box>
      ),
    },
    {
      id: 'posting',
      title: '应聘岗位',
      content: posting ? (
        <Typography sx={{ fontSize: 14 }}>
          {String(posting.job)}（{String(posting.money)}，{String(posting.address)}）
        </Typography>
      ) : (
        <Typography sx={{ color: 'text.secondary', fontSize: 14 }}>—</Typography>
      ),
    },
    ...ENTRIES.map((name) => ({
      id: name,
      title: { staffunEducation: '教育信息', staffunPx: '培训信息', staffunWork: '工作信息' }[name],
      content: entries[name] ? (
        <EntryTable spec={resourceByName[name]} rows={entries[name]} />
      ) : (
        <Typography sx={{ color: 'text.secondary', fontSize: 14 }}>没有查看权限</Typography>
      ),
    })),
  ];

  const canJoin = hasPermission(permissions, 'staff:add') && applicant.status !== 3;
  // the name as the page body shows it (masked where the schema masks it), in the heading too
  const nameField = APPLICANT.fields.find((f) => f.name === 'name');
  const name = nameField ? String(shown(nameField, applicant.name)) : String(applicant.name);
  return (
    <Paper sx={{ p: 2, mt: 1 }}>
      <Title title={`应聘人员详情 - ${name}`} />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
        <Typography component="h2" sx={{ fontSize: 18, fontWeight: 600 }}>
          {name}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button href="#/applicant" size="small">
            返回列表
          </Button>
          {canJoin ? (
            <Button variant="contained" size="small" onClick={() => setJoining(true)}>
              办理入职
            </Button>
          ) : null}
        </Box>
      </Box>
      <ScrollTabLayout sections={sections} />
      <Dialog open={joining} onClose={() => setJoining(false)}>
        <DialogTitle>提示</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>确定将 {name} 加入员工花名册吗？</Typography>
          <DateField label="入职日期" value={entryDate} onChange={setEntryDate} size="small" fullWidth />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setJoining(false)}>取消</Button>
          <Button variant="contained" onClick={() => void join()} disabled={!entryDate}>
            确定
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
