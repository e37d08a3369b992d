/**
 * Requests as records (pi_request) and the keyed hash of identifiers. The hash is HMAC-SHA256
 * with the ledger secret: PI_LEDGER_SECRET when set (the same on every instance), otherwise a
 * random one made on first use and kept in pi_secret (carried across a restore with the ledger).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mask } from '../../../shared/masks.ts';
import { nowText } from '../../db/index.ts';
import type { Database, Db } from '../../types.ts';
import { REQUEST_TABLE, SECRET_TABLE } from './tables.ts';
import type { Subject } from './find.ts';

const SECRET_NAME = 'ledger';
const secrets = new WeakMap<Database, string>();

export async function ledgerSecret(database: Database): Promise<string> {
  const env = process.env.PI_LEDGER_SECRET;
  if (env) return env;
  const known = secrets.get(database);
  if (known) return known;
  const db = database.db;
  let row = await db.selectFrom(SECRET_TABLE).select('value').where('name', '=', SECRET_NAME).executeTakeFirst();
  if (!row) {
    await db
      .insertInto(SECRET_TABLE)
      .values({ name: SECRET_NAME, value: randomBytes(32).toString('hex') })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await db.selectFrom(SECRET_TABLE).select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  }
  secrets.set(database, String(row.value));
  return String(row.value);
}

/** Forgets the cached secret (a restore replaced the database). */
export function forgetSecret(database: Database): void {
  secrets.delete(database);
}

export function subjectHash(secret: string, subject: Subject): string {
  return createHmac('sha256', secret).update(`${subject.kind}:${subject.value}`).digest('hex');
}

export type RequestKind = 'search' | 'copy' | 'erase' | 'retention';
export const REQUEST_KIND_TITLES: Record<RequestKind, string> = { search: '查询', copy: '导出副本', erase: '删除', retention: '到期清理' };

export interface RequestRecord {
  kind: RequestKind;
  subjects: Subject[];
  reason: string;
  status: string;
  resultCount: number;
  detail: unknown;
  username: string | null;
}

export async function storeRequest(db: Db, secret: string, r: RequestRecord): Promise<number> {
  const row = await db
    .insertInto(REQUEST_TABLE)
    .values({
      kind: r.kind,
      subject_kind: r.subjects.map((s) => s.kind).join(',') || null,
      subject_masked: r.subjects.map((s) => mask(s.kind, s.value)).join(', ') || null,
      subject_hash: r.subjects.length ? subjectHash(secret, r.subjects[0]) : null,
      reason: r.reason.slice(0, 500),
      status: r.status,
      result_count: r.resultCount,
      detail: JSON.stringify(r.detail),
      username: r.username,
      create_time: nowText(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface RequestRow {
  id: number;
  kind: RequestKind;
  kindTitle: string;
  subject: string | null;
  reason: string;
  status: string;
  resultCount: number;
  detail: unknown;
  username: string | null;
  createTime: string;
}

export function toRequestRow(r: Record<string, unknown>): RequestRow {
  const kind = String(r.kind) as RequestKind;
  let detail: unknown;
  try {
    detail = typeof r.detail === 'string' ? JSON.parse(r.detail) : null;
  } catch {
    detail = null;
  }
  return {
    id: Number(r.id),
    kind,
    kindTitle: REQUEST_KIND_TITLES[kind] ?? kind,
    subject: (r.subject_masked as string | null) ?? null,
    reason: String(r.reason),
    status: String(r.status),
    resultCount: Number(r.result_count),
    detail,
    username: (r.username as string | null) ?? null,
    createTime: String(r.create_time),
  };
}
