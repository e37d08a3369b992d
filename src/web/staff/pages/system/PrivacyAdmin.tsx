/**
 * 个人信息保护 (/system/privacy, pi:admin): a person's ID number or mobile, typed in full, with
 * the reason (事由) of the request; 查询 lists every record holding it in every schema and
 * hand-written table, the deleted ones kept in history, and the log lines; 导出副本 gives the
 * person's copy (JSON or Excel); 删除个人信息 erases them by each schema's rule after a
 * confirmation and shows what was done where. Below, the requests (look-ups, copies, erasures),
 * newest first, exportable for an audit. The tabs 保留期限 and 处理活动记录 are in PrivacyRecords.tsx.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Title, useNotify } from 'react-admin';
import { request } from '../../../common/http.ts';
import { ScrollX } from '../../../components/ScrollX.tsx';
import { TablePager } from '../../../components/TablePager.tsx';
import { saveBlob } from '../../schema/exportFile.ts';
import { ConfirmDialog, getJson, TableState, useLoad, type Page } from './common.tsx';
import { ProcessingTab, RetentionTab } from './PrivacyRecords.tsx';

interface Group {
  resource: string;
  title: string;
  source: 'schema' | 'table' | 'owned';
  records: Array<Record<string, unknown>>;
  deletedIds: number[];
  revisions: unknown[];
}
interface Found {
  requestId: number;
  groups: Group[];
  logs: unknown[];
  count: number;
}
interface EraseLine {
  resource: string;
  title: string;
  action: string;
  records: number;
  binEntries: number;
  revisionsRemoved: number;
  revisionsBlanked: number;
  pinyinKeys: number;
  files: number;
}
interface EraseReport {
  lines: EraseLine[];
  logLines: number;
  otherRevisions: number;
  count: number;
}
interface RequestRow {
  id: number;
  kindTitle: string;
  subject: string | null;
  reason: string;
  status: string;
  resultCount: number;
  username: string | null;
  createTime: string;
}

const SOURCES: Record<Group['source'], string> = { schema: '业务数据', table: '系统数据', owned: '应聘附属信息' };

const TABS = ['个人信息请求', '保留期限', '处理活动记录'] as const;

export function PrivacyAdmin() {
  const [tab, setTab] = useState(0);
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="个人信息保护" />
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} sx={{ mb: 1 }} variant="scrollable" scrollButtons="auto">
        {TABS.map((label) => (
          <Tab key={label} label={label} />
        ))}
      </Tabs>
      {tab === 0 ? <RequestsTab /> : tab === 1 ? <RetentionTab /> : <ProcessingTab />}
    </Box>
  );
}

function RequestsTab() {
  const notify = useNotify();
  const [form, setForm] = useState({ idNumber: '', mobile: '', reason: '' });
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<Found | null>(null);
  const [report, setReport] = useState<EraseReport | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [page, setPage] = useState(0);
  const requests = useLoad(() => getJson<Page<RequestRow>>('/api/privacy/requests', { page, size: 10 }), [page]);

  const body = () => ({ idNumber: form.idNumber.trim() || undefined, mobile: form.mobile.trim() || undefined, reason: form.reason });
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // the HTTP client shows the server's message
    } finally {
      setBusy(false);
      requests.reload();
    }
  };

  const search = () =>
    run(async () => {
      const { data } = await request<Found>('/api/privacy/search', { method: 'POST', body: body() });
      setFound(data);
      setReport(null);
    });
  const copy = (format: 'json' | 'xlsx') =>
    run(async () => {
      const res = await request<Blob>('/api/privacy/copy', { method: 'POST', body: { ...body(), format }, responseType: 'blob' });
      saveBlob(res.data, `个人信息副本.${format}`);
      notify('已导出个人信息副本', { type: 'success' });
    });
  const erase = () =>
    run(async () => {
      setConfirming(false);
      const { data } = await request<EraseReport>('/api/privacy/erase', { method: 'POST', body: body() });
      setReport(data);
      setFound(null);
      notify(`已删除或匿名化 ${data.count} 条记录`, { type: 'success' });
    });
  const exportRequests = () =>
    run(async () => {
      const res = await request<Blob>('/api/privacy/requests/download', { responseType: 'blob' });
      saveBlob(res.data, '个人信息请求记录.xlsx');
    });

  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const ready = !!form.reason.trim() && !!(form.idNumber.trim() || form.mobile.trim());

  return (
    <Box>
      <Alert severity="info" sx={{ mb: 1 }}>
        输入完整的身份证号或手机号，查询该人在各业务表、历史记录、回收站、系统用户和操作日志中的全部个人信息；每次查询、导出和删除都需填写事由并记入请求记录。
      </Alert>
      <Box component="form" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }} onSubmit={(e) => (e.preventDefault(), void search())}>
        <TextField size="small" label="身份证号" value={form.idNumber} onChange={set('idNumber')} sx={{ width: 220 }} />
        <TextField size="small" label="手机号" value={form.mobile} onChange={set('mobile')} sx={{ width: 160 }} />
        <TextField size="small" label="事由" required value={form.reason} onChange={set('reason')} sx={{ flex: '1 1 240px' }} />
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Button variant="contained" size="small" disabled={busy || !ready} onClick={() => void search()}>
          查询
        </Button>
        <Button variant="outlined" size="small" disabled={busy || !ready} onClick={() => void copy('xlsx')}>
          导出副本（Excel）
        </Button>
        <Button variant="outlined" size="small" disabled={busy || !ready} onClick={() => void copy('json')}>
          导出副本（JSON）
        </Button>
        <Button variant="outlined" size="small" color="error" disabled={busy || !ready} onClick={() => setConfirming(true)}>
          删除个人信息
        </Button>
      </Box>
      {found ? (
        <>
          <Typography variant="subtitle2" sx={{ mt: 1 }} role="status">
            查询结果：共 {found.count} 条（含操作日志 {found.logs.length} 条）
          </Typography>
          <ScrollX>
            <Table size="small" aria-label="查询结果">
              <TableHead>
                <TableRow>
                  <TableCell>数据</TableCell>
                  <TableCell>来源</TableCell>
                  <TableCell align="right">记录</TableCell>
                  <TableCell align="right">已删除（回收站或历史）</TableCell>
                  <TableCell align="right">历史版本</TableCell>
                  <TableCell>记录ID</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {found.groups.map((g) => (
                  <TableRow key={g.resource}>
                    <TableCell>{g.title}</TableCell>
                    <TableCell>{SOURCES[g.source]}</TableCell>
                    <TableCell align="right">{g.records.length}</TableCell>
                    <TableCell align="right">{g.deletedIds.length}</TableCell>
                    <TableCell align="right">{g.revisions.length}</TableCell>
                    <TableCell>{g.records.map((r) => (typeof r.id === 'number' ? r.id : '')).join(', ')}</TableCell>
                  </TableRow>
                ))}
                <TableState loading={false} failed={false} empty={found.groups.length === 0} columns={6} />
              </TableBody>
            </Table>
          </ScrollX>
        </>
      ) : null}
      {report ? (
        <>
          <Typography variant="subtitle2" sx={{ mt: 1 }} role="status">
            删除报告：{report.count} 条记录；操作日志 {report.logLines} 条、其他历史记录 {report.otherRevisions} 条中的号码已脱敏
          </Typography>
          <ScrollX>
            <Table size="small" aria-label="删除报告">
              <TableHead>
                <TableRow>
                  <TableCell>数据</TableCell>
                  <TableCell>处理</TableCell>
                  <TableCell align="right">记录</TableCell>
                  <TableCell align="right">回收站</TableCell>
                  <TableCell align="right">删除的历史版本</TableCell>
                  <TableCell align="right">清除的历史版本</TableCell>
                  <TableCell align="right">拼音索引</TableCell>
                  <TableCell align="right">文件</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {report.lines.map((l) => (
                  <TableRow key={l.resource}>
                    <TableCell>{l.title}</TableCell>
                    <TableCell>{l.action}</TableCell>
                    <TableCell align="right">{l.records}</TableCell>
                    <TableCell align="right">{l.binEntries}</TableCell>
                    <TableCell align="right">{l.revisionsRemoved}</TableCell>
                    <TableCell align="right">{l.revisionsBlanked}</TableCell>
                    <TableCell align="right">{l.pinyinKeys}</TableCell>
                    <TableCell align="right">{l.files}</TableCell>
                  </TableRow>
                ))}
                <TableState loading={false} failed={false} empty={report.lines.length === 0} columns={8} />
              </TableBody>
            </Table>
          </ScrollX>
        </>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 2 }}>
        <Typography variant="subtitle1">请求记录</Typography>
        <Button size="small" variant="outlined" disabled={busy} onClick={() => void exportRequests()}>
          导出
        </Button>
      </Box>
      <ScrollX>
        <Table size="small" aria-label="请求记录">
          <TableHead>
            <TableRow>
              <TableCell>时间</TableCell>
              <TableCell>类型</TableCell>
              <TableCell>对象</TableCell>
              <TableCell>事由</TableCell>
              <TableCell>状态</TableCell>
              <TableCell align="right">结果数</TableCell>
              <TableCell>操作人</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(requests.data?.content ?? []).map((r) => (
              <TableRow key={r.id} hover>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createTime}</TableCell>
                <TableCell>{r.kindTitle}</TableCell>
                <TableCell>{r.subject ?? '-'}</TableCell>
                <TableCell>{r.reason}</TableCell>
                <TableCell>{r.status}</TableCell>
                <TableCell align="right">{r.resultCount}</TableCell>
                <TableCell>{r.username ?? '系统'}</TableCell>
              </TableRow>
            ))}
            <TableState
              loading={requests.loading && !requests.data}
              failed={requests.failed}
              empty={!!requests.data && requests.data.content.length === 0}
              columns={7}
            />
          </TableBody>
        </Table>
      </ScrollX>
      <TablePager count={requests.data?.totalElements ?? 0} page={page} size={10} onPageChange={setPage} />
      <ConfirmDialog
        open={confirming}
        busy={busy}
        content="将按各数据的删除规则删除或匿名化此人的全部记录、历史版本、回收站数据、拼音索引和上传文件，并在操作日志中脱敏，不能恢复。确定删除吗？"
        onConfirm={() => void erase()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
