/**
 * Retention (PIPL art. 19): the records of a schema whose `x-retention` gives a period are aged
 * `days` days after the date in its `after` property (among those whose `where` properties hold
 * one of the listed values); the daily job erases them by the schema's `x-erase`, the same way a
 * person's erasure does (erase.ts: the record, its revisions, pinyin keys and files; anonymize
 * blanks the listed properties here and in the record's revisions), and with them
 * - the entries owned by an aged applicant (`ownedByApplicant`), as an erasure of the applicant does;
 * - the recycle-bin entries of the schema deleted more than `days` days ago (their revisions go);
 * - the identifiers (ID numbers, mobiles) of the erased records, masked in the operation-log
 *   lines that still hold them in full.
 * Unlike a person's erasure it adds nothing to the erasure ledger: retention ends records, not
 * people (the same person may have a current record elsewhere), and a restored older backup is
 * aged again by the next run.
 *
 * An anonymized record keeps its dates, so it would stay aged: it counts as done once every
 * property of its rule is empty. At most RETENTION_BATCH records per schema go in one run (the
 * rest the next day), so a run is bounded in time and memory.
 */
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { nowText } from '../../db/index.ts';
import { REVISION_TABLE } from '../../crud/history/revisions.ts';
import { dateText, rowToRecord, toColumnValue } from '../../crud/values.ts';
import type { Database, Db } from '../../types.ts';
import { eraseSchemaGroup, maskLogLine, ownerSpec, secureErase } from './erase.ts';
import { findInLog, type Subject } from './find.ts';
import { normalizeSubject, personalSpecs } from './sources.ts';

/** Records of one schema erased in one run at most; the rest go in the next. */
export const RETENTION_BATCH = 2000;
/** Ids listed per schema in a dry run and in a run's report. */
export const RETENTION_IDS_SHOWN = 500;

/** What the retention job does (or would do) in one schema. */
export interface RetentionLine {
  resource: string;
  title: string;
  /** 删除 | 匿名化 */
  action: string;
  /** the period, as the records of processing say it (最后修改后 180 天…) */
  rule: string;
  /** aged live records (all of them, also beyond this run's batch) */
  records: number;
  /** recycle-bin entries deleted longer ago than the period */
  binEntries: number;
  /** of the aged records, those owned by an aged applicant */
  owned: number;
  /** the ids of aged live records (at most RETENTION_IDS_SHOWN) */
  ids: number[];
  /** the ids of aged recycle-bin entries (at most RETENTION_IDS_SHOWN) */
  binIds: number[];
  /** records and bin entries erased in this run (or that would be) */
  count: number;
  /** records and bin entries left for the next run: more than RETENTION_BATCH were aged */
  left: number;
  revisionsRemoved: number;
  revisionsBlanked: number;
  pinyinKeys: number;
  files: number;
}

export interface RetentionReport {
  dryRun: boolean;
  /** when it ran */
  time: string;
  lines: RetentionLine[];
  /** operation-log lines whose identifiers were masked */
  logLines: number;
  /** records and bin entries erased (or that would be) in this run */
  count: number;
  /** aged records left for the next run */
  left: number;
}

const DAY_MS = 86_400_000;

const ACTION = { delete: '删除', anonymize: '匿名化' } as const;

/** The retention rule in words: 最后修改后 180 天（状态为 未录用、放弃） or 不定期限：<why>. */
export function retentionText(spec: Pick<ResourceSpec, 'fields' | 'personal'>): string {
  const r = spec.personal?.retention;
  if (!r) return '未声明';
  if ('none' in r) return `不设期限：${r.none}`;
  const after = spec.fields.find((f) => f.name === r.after);
  const when = Object.entries(r.where ?? {}).map(([name, values]) => {
    const f = spec.fields.find((x) => x.name === name);
    const labels = values.map((v) => f?.options?.find((o) => o.value === v)?.label ?? String(v));
    return `${f?.title ?? name}为${labels.join('或')}`;
  });
  return `${after?.title ?? r.after}后 ${r.days} 天${when.length ? `（${when.join('，')}）` : ''}`;
}

/** The cutoff for the `after` property: a date property compares with a date, a date-time one with a time. */
function cutoffFor(field: FieldSpec, now: Date, days: number): string {
  const at = new Date(now.getTime() - days * DAY_MS);
  return field.format === 'date' ? dateText(at) : nowText(at);
}

const flagTrue = (database: Database) => (database.dialect === 'postgres' ? true : 1);

interface Aged {
  spec: ResourceSpec;
  /** full count of aged live records */
  total: number;
  /** this run's records (record form; ids only in a dry run) */
  records: Array<Record<string, unknown>>;
  binTotal: number;
  binIds: number[];
  ownedIds: Set<number>;
  /** the schema whose aged records own these (an applicant's entries) */
  owner?: ResourceSpec;
}

/** The aged live records of a schema with a period: where the `after` date is older than the cutoff. */
function agedQuery(database: Database, spec: ResourceSpec, now: Date) {
  const r = spec.personal!.retention as { days: number; after: string; where?: Record<string, unknown[]> };
  const after = spec.fields.find((f) => f.name === r.after)!;
  let q = database.db.selectFrom(spec.table).where(after.column, '<', cutoffFor(after, now, r.days));
  for (const [name, values] of Object.entries(r.where ?? {})) {
    const f = spec.fields.find((x) => x.name === name)!;
    q = q.where(
      f.column,
      'in',
      values.map((v) => toColumnValue(f, v, database.dialect)),
    );
  }
  const rule = spec.personal!.erase;
  if (rule.mode === 'anonymize') {
    // an anonymized record keeps its dates: it is done once every property of its rule is empty
    const columns = spec.fields.filter((f) => rule.fields.includes(f.name)).map((f) => f.column);
    q = q.where((eb) => eb.or(columns.map((c) => eb(c, 'is not', null))));
  }
  return q;
}

/** Recycle-bin entries of the schema deleted before the cutoff. */
function agedBin(database: Database, spec: ResourceSpec, now: Date) {
  const r = spec.personal!.retention as { days: number };
  return database.db
    .selectFrom(REVISION_TABLE)
    .where('resource', '=', spec.name)
    .where('in_bin', '=', flagTrue(database))
    .where('create_time', '<', nowText(new Date(now.getTime() - r.days * DAY_MS)));
}

/** Every schema's aged records, bin entries and owned entries (in `db`: a transaction for a run). */
async function findAged(database: Database, specs: ResourceSpec[], now: Date, full: boolean): Promise<Map<string, Aged>> {
  const out = new Map<string, Aged>();
  const entry = (spec: ResourceSpec) => {
    let a = out.get(spec.name);
    if (!a) out.set(spec.name, (a = { spec, total: 0, records: [], binTotal: 0, binIds: [], ownedIds: new Set() }));
    return a;
  };
  for (const spec of personalSpecs(specs)) {
    const r = spec.personal?.retention;
    if (!r || 'none' in r) continue;
    const a = entry(spec);
    const total = await agedQuery(database, spec, now)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    a.total = Number(total.n);
    const rows = await agedQuery(database, spec, now)
      .$if(full, (q) => q.selectAll())
      .$if(!full, (q) => q.select('id'))
      .orderBy('id')
      .limit(RETENTION_BATCH)
      .execute();
    a.records = rows.map((row) => (full ? rowToRecord(spec, row as Record<string, unknown>) : { id: Number((row as { id: unknown }).id) }));
    const binTotal = await agedBin(database, spec, now)
      .select((eb) => eb.fn.count('record_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    a.binTotal = Number(binTotal.n);
    const bin = await agedBin(database, spec, now).select('record_id').distinct().orderBy('record_id').limit(RETENTION_BATCH).execute();
    a.binIds = bin.map((b) => Number(b.record_id));
  }
  // entries owned by an aged record (an applicant's education and work) go with it
  for (const owner of [...out.values()]) {
    if (owner.spec.personal?.erase.mode !== 'delete' || !owner.records.length) continue;
    for (const spec of specs) {
      if (!spec.ownedByApplicant || ownerSpec(specs, spec)?.name !== owner.spec.name) continue;
      const field = spec.fields.find((f) => f.name === spec.ownedByApplicant)!;
      const ownerIds = owner.records.map((x) => Number(x.id));
      for (let i = 0; i < ownerIds.length; i += 500) {
        const base = database.db.selectFrom(spec.table).where(field.column, 'in', ownerIds.slice(i, i + 500));
        const rows = full ? await base.selectAll().execute() : await base.select('id').execute();
        if (!rows.length) continue;
        const a = entry(spec);
        a.owner = owner.spec;
        const known = new Set(a.records.map((x) => Number(x.id)));
        for (const row of rows) {
          const record = full ? rowToRecord(spec, row) : { id: Number((row as { id: unknown }).id) };
          const id = Number(record.id);
          a.ownedIds.add(id);
          if (known.has(id)) continue;
          known.add(id);
          a.records.push(record);
          a.total++;
        }
      }
    }
  }
  return out;
}

function lineOf(a: Aged): RetentionLine {
  // entries without a rule of their own (no personal field) go by their owner's
  const rule = a.spec.personal?.erase ?? a.owner!.personal!.erase;
  return {
    resource: a.spec.name,
    title: a.spec.title,
    action: ACTION[rule.mode],
    rule: a.spec.personal ? retentionText(a.spec) : `随到期的${a.owner!.title}一并处理`,
    records: a.total,
    binEntries: a.binTotal,
    owned: a.ownedIds.size,
    ids: a.records.map((r) => Number(r.id)).slice(0, RETENTION_IDS_SHOWN),
    binIds: a.binIds.slice(0, RETENTION_IDS_SHOWN),
    count: a.records.length + a.binIds.length,
    left: Math.max(0, a.total - a.records.length) + Math.max(0, a.binTotal - a.binIds.length),
    revisionsRemoved: 0,
    revisionsBlanked: 0,
    pinyinKeys: 0,
    files: 0,
  };
}

/** The ID numbers and mobiles held by the records (for masking the log lines that name them). */
function identifiersOf(spec: ResourceSpec, records: Array<Record<string, unknown>>): Subject[] {
  const out: Subject[] = [];
  for (const f of spec.fields) {
    if (f.mask !== 'id' && f.mask !== 'phone') continue;
    for (const r of records) {
      const v = r[f.name];
      if (typeof v !== 'string' || !v) continue;
      out.push({ kind: f.mask, value: normalizeSubject(f.mask, v) ?? v });
    }
  }
  return out;
}

/** Log lines holding one of the identifiers in full: the identifiers masked in place. */
async function maskLogLines(trx: Db, subjects: Subject[]): Promise<number> {
  const unique = [...new Map(subjects.map((s) => [`${s.kind}:${s.value}`, s])).values()];
  let n = 0;
  for (let i = 0; i < unique.length; i += 50) {
    const chunk = unique.slice(i, i + 50);
    for (const log of await findInLog(trx, chunk)) if (await maskLogLine(trx, log.id, chunk)) n++;
  }
  return n;
}

/** What the retention job would erase now: changes nothing. */
export async function retentionDryRun(database: Database, specs: ResourceSpec[], now = new Date()): Promise<RetentionReport> {
  const aged = await findAged(database, specs, now, false);
  const lines = [...aged.values()].map(lineOf);
  return summary(true, now, lines, 0);
}

function summary(dryRun: boolean, now: Date, lines: RetentionLine[], logLines: number): RetentionReport {
  const count = lines.reduce((n, l) => n + l.count, 0);
  const left = lines.reduce((n, l) => n + l.left, 0);
  return { dryRun, time: nowText(now), lines, logLines, count, left };
}

/** Erases the aged records by each schema's x-erase, in one transaction; answers the report. */
export async function runRetention(
  database: Database,
  specs: ResourceSpec[],
  opts: { dataDir: string; now?: Date },
): Promise<RetentionReport> {
  const now = opts.now ?? new Date();
  // nothing aged: no transaction, no rewrite of the database file
  const preview = await retentionDryRun(database, specs, now);
  if (preview.count === 0) return { ...preview, dryRun: false };
  return secureErase(database, async (trx) => {
    const aged = await findAged({ ...database, db: trx }, specs, now, true);
    const lines: RetentionLine[] = [];
    const paths: string[] = [];
    const touched: string[] = [];
    const subjects: Subject[] = [];
    for (const a of aged.values()) {
      const line = lineOf(a);
      lines.push(line);
      if (!a.records.length && !a.binIds.length) continue;
      const done = await eraseSchemaGroup(
        trx,
        a.spec,
        { records: a.records, deletedIds: a.binIds },
        ownerSpec(specs, a.spec),
        opts.dataDir,
      );
      line.revisionsRemoved = done.line.revisionsRemoved;
      line.revisionsBlanked = done.line.revisionsBlanked;
      line.pinyinKeys = done.line.pinyinKeys;
      line.files = done.line.files;
      paths.push(...done.paths);
      touched.push(a.spec.table);
      if (done.line.files) touched.push('sys_file');
      subjects.push(...identifiersOf(a.spec, a.records));
    }
    const logLines = await maskLogLines(trx, subjects);
    return { result: summary(false, now, lines, logLines), paths, touched };
  });
}

/** A run's report as a request record keeps it: counts per schema and the ids shown. */
export function retentionDetail(report: RetentionReport) {
  return { ...report, lines: report.lines.filter((l) => l.records || l.binEntries) };
}
