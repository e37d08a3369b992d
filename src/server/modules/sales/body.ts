/** Checks of the sales calls' bodies and query strings; every failure is a 400 in Chinese. */
import { badRequest } from '../../errors.ts';
import { positiveId } from '../../crud/index.ts';
import { isMobile } from '../../../shared/validators.ts';
import { plainText } from '../../../shared/text.ts';

export type Body = Record<string, unknown>;

export function objectBody(raw: unknown): Body {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('请求内容必须是JSON对象');
  return raw as Body;
}

export function idOf(raw: unknown, message = 'ID必须是正整数'): number {
  const id = positiveId(raw);
  if (id === undefined) throw badRequest(message);
  return id;
}

/** `ids`: a non-empty array of positive ids (at most 1000), duplicates dropped. */
export function idList(raw: unknown): number[] {
  if (!Array.isArray(raw) || raw.length === 0) throw badRequest('请至少选择一条数据');
  if (raw.length > 1000) throw badRequest('一次最多处理1000条数据');
  return [...new Set(raw.map((v) => idOf(v)))];
}

export function mobileOf(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') throw badRequest('请输入手机号');
  const text = plainText(raw).trim();
  if (!isMobile(text)) throw badRequest('请输入正确的11位手机号码');
  return text;
}

export function orgIdOf(raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') throw badRequest('请选择公司');
  return idOf(raw, '请选择公司');
}

export function textOf(raw: unknown, title: string, max: number, required = false): string | null {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    if (required) throw badRequest(`${title}不能为空`);
    return null;
  }
  if (typeof raw !== 'string') throw badRequest(`${title}必须是文本`);
  const text = raw.trim();
  if (text.length > max) throw badRequest(`${title}长度不能超过${max}个字符`);
  if (text.includes('\u0000')) throw badRequest(`${title}包含非法字符`);
  return text;
}

/** A value that must be one of the options of a schema property. */
export function optionOf<T>(raw: unknown, allowed: readonly T[], message: string): T {
  const hit = allowed.find((v) => v === raw);
  if (hit === undefined) throw badRequest(message);
  return hit;
}
