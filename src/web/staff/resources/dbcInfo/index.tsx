/**
 * Car-use demands (用车需求) on the staff side: the generated list (status, audit and order
 * filters, search, export) whose edit dialog is the processing dialog of the state machine
 * (src/shared/dbc-status.ts): while 审核中 it audits (通过 / 不通过 with 审核意见, required to
 * refuse), then offers the one next step (交车, 开始用车, 还车, 订单完结). PUT api/dbc/dbcInfo
 * answers an illegal step with its Chinese message. 企业微信审批 fetches a WeCom approval by its
 * number (api/qywxapp/approval/approvalBizSync/{spNo}?bizId=) and shows what it did to the demand.
 */
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { RadioButtonGroupInput, TextInput, useDataProvider, useRefresh, type RaRecord } from 'react-admin';
import { request } from '../../../common/http.ts';
import { useWatch } from 'react-hook-form';
import { DD_STATUS_LABELS, SH_STATUS_LABELS, staffActionsFrom, statusLabel } from '../../../../shared/dbc-status.ts';
import { maskPhone } from '../../../../shared/masks.ts';
import type { RecordFormProps, ResourceOverrides } from '../../schema/overrides.ts';
import { textOf } from '../../../common/text.ts';

export const AUDIT_FIELD = '_audit';
export const REASON_FIELD = '_reason';
export const NEXT_FIELD = '_next';
export const AUDIT_REQUIRED = '请选择审核结果';
export const REASON_REQUIRED = '请填写审核意见';
export const NEXT_REQUIRED = '请选择下一步操作';

const SUMMARY: Array<[string, string, ((v: unknown) => string)?]> = [
  ['khName', '客户名称'],
  ['khMobile', '客户手机号', (v) => maskPhone(textOf(v))],
  ['userCarType', '事故车型'],
  ['userCph', '车牌号'],
  ['userVin', '底盘号'],
  ['bah', '报案号'],
  ['wxgsf', '预估工时费'],
  ['wxts', '预估维修天数'],
  ['startTime', '代步车开始时间'],
  ['endTime', '代步车结束时间'],
  ['mfts', '免费天数'],
  ['zfts', '自费天数'],
  ['foregiftPrice', '押金'],
  ['countPrice', '合计费用'],
  ['status', '状态', statusLabel],
  ['shStatus', '审核状态', (v) => SH_STATUS_LABELS[Number(v)] ?? ''],
  ['ddStatus', '订单状态', (v) => DD_STATUS_LABELS[Number(v)] ?? ''],
  ['auditReason', '审核意见'],
  ['createUser', '申请人'],
  ['createTime', '申请时间'],
];

function required(message: string) {
  const v = (value: unknown) => (value === undefined || value === null || value === '' ? message : undefined);
  v.isRequired = true;
  return v;
}

function reasonRule(value: unknown, all: Record<string, unknown>) {
  return Number(all[AUDIT_FIELD]) === 3 && !(typeof value === 'string' && value.trim()) ? REASON_REQUIRED : undefined;
}

interface VinHit {
  id: number;
  khName: string;
  userCph: string;
  startTime: string;
  endTime: string;
  status: number;
  createTime: string;
}

/** Other demands with the same VIN (queryQmbcByVin and otherSysDbx: page 0, size 10, sort id,desc). */
function VinLookups({ vin, id }: { vin: string; id: unknown }) {
  const [source, setSource] = useState<'api/dbc/dbcInfo/queryQmbcByVin' | 'api/other/otherSysDbx'>('api/dbc/dbcInfo/queryQmbcByVin');
  const [hits, setHits] = useState<VinHit[] | null>(null);
  // another VIN, record or source: the hits go until the new answer comes
  const [hitsFor, setHitsFor] = useState({ vin, id, source });
  if (hitsFor.vin !== vin || hitsFor.id !== id || hitsFor.source !== source) {
    setHitsFor({ vin, id, source });
    if (vin) setHits(null);
  }
  useEffect(() => {
    if (!vin) return;
    let live = true;
    request<{ content: VinHit[] }>(source, { query: { vin, page: 0, size: 10, sort: 'id,desc' } })
      .then((res) => live && setHits(res.data.content.filter((h) => h.id !== id)))
      .catch(() => live && setHits([]));
    return () => {
      live = false;
    };
  }, [vin, id, source]);
  return (
    <Box data-testid="vin-lookups">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography sx={{ fontWeight: 600 }}>同底盘号记录</Typography>
        <Button
          size="small"
          variant={source === 'api/dbc/dbcInfo/queryQmbcByVin' ? 'contained' : 'text'}
          onClick={() => setSource('api/dbc/dbcInfo/queryQmbcByVin')}
        >
          代步车记录
        </Button>
        <Button
          size="small"
          variant={source === 'api/other/otherSysDbx' ? 'contained' : 'text'}
          onClick={() => setSource('api/other/otherSysDbx')}
        >
          其他系统记录
        </Button>
      </Box>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>客户名称</TableCell>
            <TableCell>车牌号</TableCell>
            <TableCell>开始时间</TableCell>
            <TableCell>结束时间</TableCell>
            <TableCell>状态</TableCell>
            <TableCell>申请时间</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(hits ?? []).map((h) => (
            <TableRow key={h.id}>
              <TableCell>{h.khName}</TableCell>
              <TableCell>{h.userCph}</TableCell>
              <TableCell>{h.startTime}</TableCell>
              <TableCell>{h.endTime}</TableCell>
              <TableCell>{statusLabel(h.status)}</TableCell>
              <TableCell>{h.createTime}</TableCell>
            </TableRow>
          ))}
          {hits && hits.length === 0 ? (
            <TableRow>
              <TableCell colSpan={6} align="center" sx={{ color: 'text.secondary' }}>
                暂无其他记录
              </TableCell>
            </TableRow>
          ) : null}
          {hits === null ? (
            <TableRow>
              <TableCell colSpan={6} align="center" sx={{ color: 'text.secondary' }}>
                正在加载...
              </TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
    </Box>
  );
}

export interface ApprovalSync {
  spNo: string;
  spName: string;
  spStatusName: string;
  result: string;
  syncTime: string;
  status: number;
}

/** 企业微信审批: the approval of this demand, by its number; WeCom's answer updates the demand, and the dialog shows the demand as stored now. */
export function WecomApprovalSync({
  resource,
  id,
  status,
  onSynced,
}: {
  resource: string;
  id: unknown;
  status: number;
  onSynced?: (record: RaRecord) => void;
}) {
  const refresh = useRefresh();
  const dataProvider = useDataProvider();
  const [spNo, setSpNo] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<(ApprovalSync & { changed: boolean }) | null>(null);
  const sync = async () => {
    setBusy(true);
    try {
      const res = await request<ApprovalSync>(`api/qywxapp/approval/approvalBizSync/${encodeURIComponent(spNo.trim())}`, {
        query: { bizId: String(id) },
      });
      setDone({ ...res.data, changed: res.data.status !== status });
      // the demand as stored now (status, audit fields): the open dialog shows it, the list behind it too
      if (onSynced && res.data.status !== status) onSynced((await dataProvider.getOne<RaRecord>(resource, { id: id as string })).data);
      refresh();
    } catch {
      // the HTTP client shows the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box data-testid="wecom-approval">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography sx={{ fontWeight: 600 }}>企业微信审批</Typography>
        <TextField
          size="small"
          label="审批单号"
          value={spNo}
          onChange={(e) => setSpNo(e.target.value.replace(/\D/g, ''))}
          inputProps={{ maxLength: 64 }}
        />
        <Button size="small" variant="outlined" disabled={busy || !spNo.trim()} onClick={() => void sync()}>
          {busy ? '正在同步...' : '同步审批结果'}
        </Button>
      </Box>
      {done ? (
        <Alert severity="info" sx={{ mt: 1 }} role="status">
          审批单 {done.spNo}
          {done.spName ? `（${done.spName}）` : ''}：{done.spStatusName}。{done.result}。同步时间 {done.syncTime}，当前状态：
          {statusLabel(done.status)}
          {done.changed ? '。用车需求已按审批结果更新' : ''}
        </Alert>
      ) : null}
    </Box>
  );
}

/** The contract PDF (approved demands), fetched with the staff token. */
async function openStaffContract(id: unknown, type: 'view' | 'download') {
  const res = await request<Blob>('api/dbc/dbcInfo/viewOrDownloadContract', {
    query: { contract_id: String(id), type },
    responseType: 'blob',
  });
  const url = URL.createObjectURL(res.data);
  if (type === 'view') window.open(url, '_blank', 'noopener');
  else {
    const a = document.createElement('a');
    a.href = url;
    a.download = `代步车借用合同-DBC${String(id).padStart(8, '0')}.pdf`;
    a.click();
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function ProcessForm({ spec, record, replaceRecord }: RecordFormProps) {
  const audit = useWatch<Record<string, unknown>>({ name: AUDIT_FIELD });
  const status = Number(record?.status);
  const next = staffActionsFrom(status).filter((t) => t.action !== 'approve' && t.action !== 'reject');
  return (
    <Stack spacing={1}>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', columnGap: 2, rowGap: 0.5 }} data-testid="dbc-summary">
        {SUMMARY.map(([name, title, show]) => (
          <Box key={name} sx={{ display: 'flex', gap: 1, borderBottom: '1px solid #ebeef5', py: 0.5 }}>
            <Typography sx={{ color: 'text.secondary', flexShrink: 0 }}>{title}</Typography>
            <Typography sx={{ wordBreak: 'break-all' }}>{show ? show(record?.[name]) : String(record?.[name] ?? '')}</Typography>
          </Box>
        ))}
      </Box>
      {status === 2 || status >= 4 ? (
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button size="small" variant="outlined" onClick={() => void openStaffContract(record?.id, 'view').catch(() => undefined)}>
            查看合同
          </Button>
          <Button size="small" variant="outlined" onClick={() => void openStaffContract(record?.id, 'download').catch(() => undefined)}>
            下载合同
          </Button>
        </Box>
      ) : null}
      <VinLookups vin={String(record?.userVin ?? '')} id={record?.id} />
      <WecomApprovalSync resource={spec.name} id={record?.id} status={status} onSynced={replaceRecord} />
      {status === 1 ? (
        <>
          <RadioButtonGroupInput
            source={AUDIT_FIELD}
            label="审核结果"
            choices={[
              { id: 2, name: '通过' },
              { id: 3, name: '不通过' },
            ]}
            validate={required(AUDIT_REQUIRED)}
            helperText={false}
          />
          <TextInput
            source={REASON_FIELD}
            label="审核意见"
            multiline
            minRows={2}
            fullWidth
            validate={reasonRule}
            helperText={Number(audit) === 3 ? '不通过时必须填写' : false}
          />
        </>
      ) : next.length ? (
        <RadioButtonGroupInput
          source={NEXT_FIELD}
          label="下一步"
          choices={next.map((t) => ({ id: t.to, name: t.label }))}
          validate={required(NEXT_REQUIRED)}
          helperText={false}
        />
      ) : (
        <Typography color="text.secondary">{status === 3 ? '审核未通过，等待经销商修改后重新提交' : '订单已完结，无需处理'}</Typography>
      )}
    </Stack>
  );
}

export const dbcInfoOverrides: ResourceOverrides = {
  Form: ProcessForm,
  toForm: (values) => ({ ...values, [AUDIT_FIELD]: '', [REASON_FIELD]: '', [NEXT_FIELD]: '' }),
  toRequest: (_body, values, record) => {
    const id = record?.id;
    if (Number(record?.status) === 1) return { id, shStatus: Number(values[AUDIT_FIELD]), reason: textOf(values[REASON_FIELD]).trim() };
    return { id, status: Number(values[NEXT_FIELD]) };
  },
};

export default dbcInfoOverrides;
