/**
 * Where personal information is stored, generated from the schemas (`x-mask` properties and
 * `x-purpose` / `x-retention` / `x-erase`) plus the hand-written tables that hold personal
 * columns. A new schema with an `x-mask` property is found, copied, erased and listed without code.
 */
import type { EraseRule, MaskKind, ResourceSpec, Retention } from '../../../shared/resource-spec.ts';

/** The identifiers a request names a person by: an ID number or a mobile, typed in full. */
export type SubjectKind = 'id' | 'phone';
export const SUBJECT_KINDS: SubjectKind[] = ['id', 'phone'];

/** A hand-written table with personal columns (not made from a schema). */
export interface HandwrittenTable {
  /** the name its revisions and its log lines use */
  name: string;
  title: string;
  table: string;
  /** the id column; a table without one is matched and erased by its personal column */
  idColumn: string | null;
  /** personal columns and their kind */
  columns: Record<string, MaskKind>;
  purpose: string;
  retention: Retention;
  /** for anonymize: the columns set to null */
  erase: EraseRule;
  /** tables holding more of the same record by its id (erased with it): table -> column */
  extras?: Record<string, string>;
  /** Chinese names of erased columns that are not personal columns themselves (records of processing) */
  labels?: Record<string, string>;
}

export const HANDWRITTEN_TABLES: HandwrittenTable[] = [
  {
    name: 'user',
    title: '用户',
    table: 'sys_user',
    idColumn: 'id',
    columns: { phone: 'phone', idno: 'id', email: 'email', nick_name: 'name' },
    purpose: '系统账号：登录、找回密码、短信与邮件通知',
    retention: { none: '账号存续期间保存；停用或删除账号由管理员办理' },
    // the account stays (its operation log and records name it) without the person's data
    erase: { mode: 'anonymize', fields: ['phone', 'idno', 'email', 'nick_name', 'img', 'wx_img'] },
    extras: { sys_avatar: 'user_id' },
    labels: { img: '头像', wx_img: '企业微信头像' },
  },
  {
    name: 'outbox',
    title: '发件箱',
    table: 'sys_outbox',
    idColumn: 'id',
    columns: { target: 'phone' },
    purpose: '未配置短信或邮件服务时发出的验证码与通知（开发环境）',
    retention: { none: '仅开发与测试环境使用，由管理员清理' },
    erase: { mode: 'delete', fields: [] },
  },
  {
    name: 'verifyCode',
    title: '验证码',
    table: 'sys_verify_code',
    idColumn: null,
    columns: { target: 'phone' },
    purpose: '短信与邮件验证码的发送频率限制（只存验证码的摘要）',
    retention: { none: '验证码过期后即失效，记录用于发送频率限制' },
    erase: { mode: 'delete', fields: [] },
  },
];

/** The schemas holding personal information (those with `x-mask` properties). */
export function personalSpecs(specs: ResourceSpec[]): ResourceSpec[] {
  return specs.filter((s) => s.personal && s.fields.some((f) => f.mask));
}

/** The columns of a schema holding identifiers of this kind. */
export function identifierFields(spec: ResourceSpec, kind: SubjectKind) {
  return spec.fields.filter((f) => f.mask === kind && f.column);
}

/** The ways a typed identifier may be stored: an ID number's check letter in either case. */
export function storedVariants(kind: SubjectKind, value: string): string[] {
  if (kind === 'id') return [...new Set([value.toUpperCase(), value.toLowerCase()])];
  return [value];
}

const ID_NUMBER = /^(\d{17}[\dXx]|\d{15})$/;
const MOBILE = /^1[3-9]\d{9}$/;

/** The identifier as typed, spaces and dashes left out; null when it is not a whole ID number or mobile. */
export function normalizeSubject(kind: SubjectKind, raw: string): string | null {
  const v = raw.replace(/[\s-]/g, '');
  if (kind === 'id') return ID_NUMBER.test(v) ? v.toUpperCase() : null;
  return MOBILE.test(v) ? v : null;
}
