/**
 * Records of processing (个人信息处理活动记录, PIPL art. 54-55), generated from the schemas
 * (`x-mask`, `x-purpose`, `x-retention`, `x-erase`), the hand-written tables with personal
 * columns (sources.ts) and the role table: for each, its personal fields and their kinds, the
 * purpose, the retention, what erasing means, and the roles that read the fields in full (the
 * roles holding the entity's `<permission>:sensitive` key; the administrator account reads
 * everything). A new schema with an `x-mask` property appears without code.
 */
import type { MaskKind, ResourceSpec } from '../../../shared/resource-spec.ts';
import { permissionKey } from '../../../shared/resource-spec.ts';
import { SENSITIVE_ACTION } from '../../crud/access/personal-data.ts';
import type { Db } from '../../types.ts';
import { retentionText } from './retention.ts';
import { HANDWRITTEN_TABLES, personalSpecs } from './sources.ts';

export const MASK_KIND_TITLES: Record<MaskKind, string> = {
  id: '身份证号',
  phone: '手机号',
  name: '姓名',
  email: '电子邮箱',
  bankCard: '银行卡号',
  address: '地址',
  date: '出生日期',
};

export interface ProcessingField {
  name: string;
  title: string;
  kind: MaskKind;
  kindTitle: string;
}

export interface ProcessingRecord {
  /** entity or table name */
  resource: string;
  title: string;
  table: string;
  /** 业务数据 (a schema) | 系统数据 (a hand-written table) */
  source: string;
  fields: ProcessingField[];
  purpose: string;
  retention: string;
  erase: string;
  /** the key that opens the fields in full, when there is one */
  fullKey: string | null;
  /** the roles holding that key, by name */
  roles: string[];
}

export interface ProcessingReport {
  generatedAt: string;
  /** who reads every record in full whatever their roles */
  everything: string;
  records: ProcessingRecord[];
}

const EVERYTHING = '管理员账号 admin 可查看全部个人信息的完整值';

/** Keys that open the hand-written tables' personal columns in full. */
const TABLE_KEYS: Record<string, string> = { user: 'user:sensitive', outbox: 'outbox:list' };

function eraseText(rule: { mode: 'delete' | 'anonymize'; fields: string[] }, titleOf: (name: string) => string): string {
  if (rule.mode === 'delete') return '删除记录及其历史版本、回收站数据、拼音索引和上传文件';
  return `匿名化：清空${rule.fields.map(titleOf).join('、')}（历史版本中同样清空）`;
}

/** The roles holding each key, by role name. */
async function rolesHolding(db: Db, keys: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!keys.length) return out;
  const rows = await db
    .selectFrom('sys_role as r')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'r.id')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select(['m.permission', 'r.name'])
    .distinct()
    .where('m.permission', 'in', keys)
    .orderBy('r.name')
    .execute();
  for (const row of rows) {
    const key = String(row.permission);
    out.set(key, [...(out.get(key) ?? []), String(row.name)]);
  }
  return out;
}

/** The records of processing now: from the schemas, the hand-written tables and the roles. */
export async function processingRecords(db: Db, specs: ResourceSpec[], generatedAt: string): Promise<ProcessingReport> {
  const records: ProcessingRecord[] = [];
  for (const spec of personalSpecs(specs)) {
    const p = spec.personal!;
    const titleOf = (name: string) => spec.fields.find((f) => f.name === name)?.title ?? name;
    records.push({
      resource: spec.name,
      title: spec.title,
      table: spec.table,
      source: '业务数据',
      fields: spec.fields
        .filter((f) => f.mask)
        .map((f) => ({ name: f.name, title: f.title, kind: f.mask!, kindTitle: MASK_KIND_TITLES[f.mask!] })),
      purpose: p.purpose,
      retention: retentionText(spec),
      erase: eraseText(p.erase, titleOf),
      fullKey: permissionKey(spec, SENSITIVE_ACTION),
      roles: [],
    });
  }
  for (const t of HANDWRITTEN_TABLES) {
    records.push({
      resource: t.name,
      title: t.title,
      table: t.table,
      source: '系统数据',
      fields: Object.entries(t.columns).map(([name, kind]) => ({ name, title: name, kind, kindTitle: MASK_KIND_TITLES[kind] })),
      purpose: t.purpose,
      retention: 'none' in t.retention ? `不设期限：${t.retention.none}` : `${t.retention.after}后 ${t.retention.days} 天`,
      erase: eraseText(t.erase, (name) => (name in t.columns ? MASK_KIND_TITLES[t.columns[name]] : (t.labels?.[name] ?? name))),
      fullKey: TABLE_KEYS[t.name] ?? null,
      roles: [],
    });
  }
  const holders = await rolesHolding(
    db,
    records.map((r) => r.fullKey).filter((k): k is string => !!k),
  );
  for (const r of records) r.roles = r.fullKey ? (holders.get(r.fullKey) ?? []) : [];
  return { generatedAt, everything: EVERYTHING, records };
}

/** A Markdown table cell: no line breaks, no pipes. */
const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

/** The records of processing as a Markdown document. */
export function processingMarkdown(report: ProcessingReport): string {
  const lines = [
    '# 个人信息处理活动记录',
    '',
    `生成时间：${report.generatedAt}。本记录由各数据的定义（个人信息字段、处理目的、保存期限、删除方式）和当前的角色权限生成。${report.everything}。`,
    '',
    '| 数据 | 数据表 | 个人信息字段 | 处理目的 | 保存期限 | 删除方式 | 可查看完整信息的角色 |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of report.records) {
    const fields = r.fields.map((f) => (f.title === f.name ? f.kindTitle : `${f.title}（${f.kindTitle}）`)).join('、');
    const roles = r.roles.length ? r.roles.join('、') : '无（仅管理员账号）';
    lines.push(
      `| ${[r.title, r.table, fields, r.purpose, r.retention, r.erase, `${roles}${r.fullKey ? `（权限 ${r.fullKey}）` : ''}`].map(cell).join(' | ')} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
