/**
 * How the history and recycle-bin screens show values: option and dictionary values by their
 * label, yes/no for switches, times as yyyy-MM-dd HH:mm:ss, empty as a dash.
 */
import { optionLabel, type FieldSpec } from '../../../shared/resource-spec.ts';

export const ACTION_LABELS: Record<string, string> = {
  create: '新增',
  update: '修改',
  delete: '删除',
  import: '导入',
  restore: '恢复',
  status: '状态变更',
};

export const ACTOR_LABELS: Record<string, string> = {
  user: '',
  dealer: '经销商',
  applicant: '应聘人员',
  system: '系统',
};

export const EMPTY_VALUE = '—';

/** A value of `field` as a person reads it. */
export function displayValue(field: FieldSpec | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  if (field) {
    const label = optionLabel(field, value);
    if (label !== undefined) return label;
    if (field.type === 'boolean') return value === true ? '是' : '否';
    if (field.format === 'date-time' && typeof value === 'string') return value.replace('T', ' ').slice(0, 19);
  }
  if (typeof value === 'string') return value.replace(/<[^>]*>/g, '');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Who made a change: the user name, or the kind of actor when there is none. */
export function actorText(kind: string, name: string | null): string {
  const prefix = ACTOR_LABELS[kind] ?? '';
  if (!name) return prefix || '系统';
  return prefix ? `${prefix} ${name}` : name;
}
