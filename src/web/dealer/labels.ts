import { textOf } from '../common/text.ts';
/** Labels of the dealer screens' codes (sex, member status, subscribe) and small formatters. */
export const SEX_LABELS: Record<number, string> = { 0: '女', 1: '男' };
export const MEMBER_STATUS_LABELS: Record<number, string> = { 0: '未注册', 1: '客户', 2: '员工', 3: '黑卡', 4: '天使' };
export const SUBSCRIBE_LABELS: Record<number, string> = { 1: '已关注', 0: '未关注' };

export const label = (table: Record<number, string>, v: unknown): string =>
  v === null || v === undefined || v === '' ? '' : (table[Number(v)] ?? textOf(v));

export interface Page<T> {
  content: T[];
  totalElements: number;
}
