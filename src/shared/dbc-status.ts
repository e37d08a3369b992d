/**
 * The replacement-car request's state machine, the one place that says which status may follow
 * which and who may move it. The server enforces it; the screens read it to offer the buttons.
 *
 *   status                 shStatus (审核)  ddStatus (订单)   next                       by
 *   1 用车申请审核中        1 审核中         0 未开始          2 approve, 3 reject        staff (审核)
 *                                                              1 resubmit (edit)         dealer
 *   2 用车申请已通过        2 已通过         0 未开始          4 deliver                  staff
 *   3 用车申请未通过        3 未通过         0 未开始          1 resubmit (edit)          dealer
 *   4 租赁已交车            2 已通过         1 进行中          5 start use                staff
 *   5 客户用车中            2 已通过         1 进行中          6 return                   staff
 *   6 客户已还车            2 已通过         1 进行中          7 complete                 staff
 *   7 订单完结              2 已通过         2 已完成          (none)
 *
 * shStatus and ddStatus are never set on their own: they follow from status (STATUS_FLAGS).
 */
import { plainText } from './text.ts';

export const DBC_STATUS_LABELS: Record<number, string> = {
  1: '用车申请审核中',
  2: '用车申请已通过',
  3: '用车申请未通过',
  4: '租赁已交车',
  5: '客户用车中',
  6: '客户已还车',
  7: '订单完结',
};
export const SH_STATUS_LABELS: Record<number, string> = { 1: '审核中', 2: '已通过', 3: '未通过' };
export const DD_STATUS_LABELS: Record<number, string> = { 0: '未开始', 1: '进行中', 2: '已完成' };

export type DbcStatus = 1 | 2 | 3 | 4 | 5 | 6 | 7;
export type DbcActor = 'dealer' | 'staff';
export type DbcAction = 'resubmit' | 'approve' | 'reject' | 'deliver' | 'startUse' | 'return' | 'complete';

export const STATUS_FLAGS: Record<DbcStatus, { shStatus: 1 | 2 | 3; ddStatus: 0 | 1 | 2 }> = {
  1: { shStatus: 1, ddStatus: 0 },
  2: { shStatus: 2, ddStatus: 0 },
  3: { shStatus: 3, ddStatus: 0 },
  4: { shStatus: 2, ddStatus: 1 },
  5: { shStatus: 2, ddStatus: 1 },
  6: { shStatus: 2, ddStatus: 1 },
  7: { shStatus: 2, ddStatus: 2 },
};

export interface Transition {
  action: DbcAction;
  /** Chinese name of the action, used in buttons and messages */
  label: string;
  from: DbcStatus[];
  to: DbcStatus;
  by: DbcActor;
}

export const TRANSITIONS: Transition[] = [
  { action: 'resubmit', label: '修改并重新提交', from: [1, 3], to: 1, by: 'dealer' },
  { action: 'approve', label: '审核通过', from: [1], to: 2, by: 'staff' },
  { action: 'reject', label: '审核不通过', from: [1], to: 3, by: 'staff' },
  { action: 'deliver', label: '交车', from: [2], to: 4, by: 'staff' },
  { action: 'startUse', label: '开始用车', from: [4], to: 5, by: 'staff' },
  { action: 'return', label: '还车', from: [5], to: 6, by: 'staff' },
  { action: 'complete', label: '订单完结', from: [6], to: 7, by: 'staff' },
];

export const isDbcStatus = (v: unknown): v is DbcStatus => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 7;

export function statusLabel(status: unknown): string {
  return DBC_STATUS_LABELS[Number(status)] ?? plainText(status ?? '');
}

/** The transition `action` by `actor` from `from`, or the Chinese reason it is not allowed. */
export function planTransition(
  from: unknown,
  action: DbcAction,
  actor: DbcActor,
): { ok: true; to: DbcStatus; transition: Transition } | { ok: false; message: string } {
  const t = TRANSITIONS.find((x) => x.action === action);
  if (!t) return { ok: false, message: '不支持的操作' };
  if (t.by !== actor)
    return { ok: false, message: actor === 'dealer' ? `经销商不能执行「${t.label}」操作` : `「${t.label}」只能由经销商操作` };
  if (!isDbcStatus(from) || !t.from.includes(from)) {
    if (action === 'resubmit')
      return { ok: false, message: `用车需求当前状态为「${statusLabel(from)}」，只有审核中或未通过的需求可以修改` };
    return { ok: false, message: `用车需求当前状态为「${statusLabel(from)}」，不能${t.label}` };
  }
  return { ok: true, to: t.to, transition: t };
}

/** Staff actions offered from a status (buttons on the staff screen). */
export function staffActionsFrom(status: unknown): Transition[] {
  return TRANSITIONS.filter((t) => t.by === 'staff' && isDbcStatus(status) && t.from.includes(status));
}

/** The dealer may edit (and so resubmit) a request in this status. */
export const dealerMayEdit = (status: unknown): boolean => status === 1 || status === 3;

/** Staff status moves after the audit, by target status (PUT .../status {id, status}). */
export const ACTION_BY_TARGET: Partial<Record<DbcStatus, DbcAction>> = { 4: 'deliver', 5: 'startUse', 6: 'return', 7: 'complete' };
