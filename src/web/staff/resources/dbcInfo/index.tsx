/**
 * Car-use demands (用车需求) on the staff side: the generated list (status, audit and order
 * filters, search, export) whose edit dialog is the processing dialog of the state machine
 * (src/shared/dbc-status.ts): while 审核中 it audits (通过 / 不通过 with 审核意见, required to
 * refuse), then offers the one next step (交车, 开始用车, 还车, 订单完结). PUT api/dbc/dbcInfo
 * answers an illegal step with its Chinese message.
 */
import AssignmentIcon from '@mui/icons-material/Assignment';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RadioButtonGroupInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { DD_STATUS_LABELS, SH_STATUS_LABELS, staffActionsFrom, statusLabel } from '../../../../shared/dbc-status.ts';
import { maskPhone } from '../../../../shared/masks.ts';
import type { RecordFormProps, ResourceOverrides } from '../../schema/overrides.ts';

export const AUDIT_FIELD = '_audit';
export const REASON_FIELD = '_reason';
export const NEXT_FIELD = '_next';
export const AUDIT_REQUIRED = '请选择审核结果';
export const REASON_REQUIRED = '请填写审核意见';
export const NEXT_REQUIRED = '请选择下一步操作';

const SUMMARY: Array<[string, string, ((v: unknown) => string)?]> = [
  ['khName', '客户名称'],
  ['khMobile', '客户手机号', (v) => maskPhone(String(v ?? ''))],
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

function ProcessForm({ record }: RecordFormProps) {
  const audit = useWatch({ name: AUDIT_FIELD });
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
          <TextInput source={REASON_FIELD} label="审核意见" multiline minRows={2} fullWidth validate={reasonRule} helperText={Number(audit) === 3 ? '不通过时必须填写' : false} />
        </>
      ) : next.length ? (
        <RadioButtonGroupInput source={NEXT_FIELD} label="下一步" choices={next.map((t) => ({ id: t.to, name: t.label }))} validate={required(NEXT_REQUIRED)} helperText={false} />
      ) : (
        <Typography color="text.secondary">{status === 3 ? '审核未通过，等待经销商修改后重新提交' : '订单已完结，无需处理'}</Typography>
      )}
    </Stack>
  );
}

export const dbcInfoOverrides: ResourceOverrides = {
  icon: AssignmentIcon,
  Form: ProcessForm,
  toForm: (values) => ({ ...values, [AUDIT_FIELD]: '', [REASON_FIELD]: '', [NEXT_FIELD]: '' }),
  toRequest: (_body, values, record) => {
    const id = record?.id;
    if (Number(record?.status) === 1) return { id, shStatus: Number(values[AUDIT_FIELD]), reason: String(values[REASON_FIELD] ?? '').trim() };
    return { id, status: Number(values[NEXT_FIELD]) };
  },
};

export default dbcInfoOverrides;
