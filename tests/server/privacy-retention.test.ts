/**
 * Retention and records of processing (个人信息保护), generated over the schemas, on SQLite and
 * PostgreSQL. For every schema whose `x-retention` gives a period, records are entered and aged
 * by setting their dates in the database: one aged, one current, one aged but outside the
 * rule's `where` (when it has one), one deleted into the recycle bin long ago, and an old log
 * line holding an aged record's mobile in full. Then
 * - the dry run lists exactly the aged ones (and the entries an aged applicant owns) and
 *   changes nothing;
 * - the run erases or anonymizes them by `x-erase`, and nothing else; its report is a request
 *   record (到期清理) and the administrators get a notice;
 * - the daily job run again does nothing.
 * The records of processing list every schema with a personal field (a new one too, without
 * code) and the roles holding its `:sensitive` key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { resources, resourceByName } from '../../src/generated/resources.ts';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { personalSpecs, HANDWRITTEN_TABLES } from '../../src/server/modules/privacy/sources.ts';
import { processingRecords } from '../../src/server/modules/privacy/processing.ts';
import { RETENTION_DONE_TITLE } from '../../src/server/modules/privacy/index.ts';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import { insertRecorded } from '../../src/server/crud/history/recorded-writes.ts';
import { deleteRecords } from '../../src/server/crud/repository.ts';
import { toColumnValue } from '../../src/server/crud/values.ts';
import { nowText } from '../../src/server/db/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';

type Period = { days: number; after: string; where?: Record<string, Array<string | number | boolean>> };

/** The schemas with a retention period. */
const withPeriod = personalSpecs(resources).filter((s) => s.personal && !('none' in s.personal.retention));
const periodOf = (spec: ResourceSpec) => spec.personal!.retention as Period;

const DAY = 86_400_000;
const SAMPLE: Record<string, string> = {
  phone: '13800001111',
  id: '110101199003070011',
  name: '王小明',
  email: 'x@example.com',
  bankCard: '6222020200112233445',
  address: '北京市朝阳区',
  date: '1990-03-07',
};
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

interface RetentionLine {
  resource: string;
  records: number;
  binEntries: number;
  ids: number[];
  binIds: number[];
  count: number;
  left: number;
}
interface Retention {
  dryRun: boolean;
  lines: RetentionLine[];
  count: number;
  logLines: number;
  requestId?: number;
}

describe.each(testApps())('retention and records of processing on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  /** per schema: the aged, current and outside-the-rule record ids, and the bin entry */
  const made = new Map<string, { aged: number; current: number; outside: number | null; bin: number }>();
  const MOBILE = '13911112222';
  /** the schemas with an entry owned by the aged applicant */
  const ownedSpecs: ResourceSpec[] = [];
  /** the schema with a period whose deleting erasure takes this one's entries along */
  const ownerOf = (spec: ResourceSpec) => {
    const ref = spec.fields.find((f) => f.name === spec.ownedByApplicant)?.ref?.resource;
    return withPeriod.find((s) => s.name === ref && s.personal!.erase.mode === 'delete');
  };

  /** Every row of every touched table (records, revisions, pinyin keys, log): what "nothing changed" compares. */
  async function snapshot(): Promise<string> {
    const { db } = app.database;
    const parts: unknown[] = [];
    for (const spec of withPeriod) parts.push(await db.selectFrom(spec.table).selectAll().orderBy('id').execute());
    parts.push(await db.selectFrom(REVISION_TABLE).selectAll().orderBy('id').execute());
    parts.push(await db.selectFrom('sys_log').selectAll().orderBy('id').execute());
    parts.push(await db.selectFrom('pi_request').select('id').orderBy('id').execute());
    return JSON.stringify(parts);
  }

  const columnOf = (spec: ResourceSpec, name: string) => spec.fields.find((f) => f.name === name)!;

  /** Sets a record's retention date (and its `where` properties) directly in the database. */
  async function age(spec: ResourceSpec, id: number, when: Date, insideRule: boolean) {
    const r = periodOf(spec);
    const after = columnOf(spec, r.after);
    const set: Record<string, unknown> = { [after.column]: after.format === 'date' ? nowText(when).slice(0, 10) : nowText(when) };
    for (const [name, values] of Object.entries(r.where ?? {})) {
      const f = columnOf(spec, name);
      // outside the rule: a value the rule does not list
      const outside = f.options?.map((o) => o.value).find((v) => !values.includes(v));
      set[f.column] = toColumnValue(f, insideRule ? values[0] : outside, app.database.dialect);
    }
    // the properties an anonymization blanks hold a value (a sample may leave one empty)
    const row = await app.database.db.selectFrom(spec.table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    for (const name of spec.personal!.erase.fields) {
      const f = columnOf(spec, name);
      if (row[f.column] === null || row[f.column] === '') set[f.column] = SAMPLE[f.mask ?? 'name'] ?? '某某';
    }
    await app.database.db.updateTable(spec.table).set(set).where('id', '=', id).execute();
  }

  beforeAll(async () => {
    t = await start();
    app = t.app;
    const token = await loginAs(app, 'admin', ADMIN_PASSWORD);
    admin = bearer(token);
    const { db, dialect } = app.database;
    const actor = { kind: 'user' as const, name: 'admin' };
    for (const spec of withPeriod) {
      const r = periodOf(spec);
      const ids: number[] = [];
      for (const variant of [0, 1, 0, 1]) {
        const body = await sampleBody(app, token, resources, spec, variant);
        const record = await db.transaction().execute((trx) => insertRecorded(trx, spec, dialect, actor, body));
        ids.push(Number(record.id));
      }
      const [aged, current, outside, bin] = ids;
      await age(spec, aged, daysAgo(r.days + 10), true);
      await age(spec, current, daysAgo(Math.max(0, r.days - 10)), true);
      const hasOutside = Object.keys(r.where ?? {}).length > 0;
      if (hasOutside) await age(spec, outside, daysAgo(r.days + 10), false);
      else await age(spec, outside, daysAgo(1), true);
      expect(await deleteRecords(app.database, spec, [bin])).toBe(1);
      await db
        .updateTable(REVISION_TABLE)
        .set({ create_time: nowText(daysAgo(r.days + 1)) })
        .where('resource', '=', spec.name)
        .where('record_id', '=', bin)
        .execute();
      made.set(spec.name, { aged, current, outside: hasOutside ? outside : null, bin });
      // an aged record's mobile in full in an old log line
      const phone = spec.fields.find((f) => f.mask === 'phone');
      if (spec.name === 'sysQuestion' && phone) {
        await db
          .updateTable(spec.table)
          .set({ [phone.column]: MOBILE })
          .where('id', '=', aged)
          .execute();
        await db
          .insertInto('sys_log')
          .values({
            log_type: 'INFO',
            description: '新增问题反馈',
            params: `{"mobile":"${MOBILE}"}`,
            username: 'admin',
            create_time: nowText(daysAgo(400)),
          })
          .execute();
      }
    }
    // an entry of every schema owned by an applicant, owned by the aged applicant: it goes with it
    for (const spec of resources) {
      const owner = ownerOf(spec);
      if (!owner || !made.get(owner.name)) continue;
      const body = await sampleBody(app, token, resources, spec, 0);
      const record = await db.transaction().execute((trx) => insertRecorded(trx, spec, dialect, actor, body));
      const field = columnOf(spec, spec.ownedByApplicant!);
      await db
        .updateTable(spec.table)
        .set({ [field.column]: made.get(owner.name)!.aged })
        .where('id', '=', Number(record.id))
        .execute();
      ownedSpecs.push(spec);
    }
  }, 600_000);
  afterAll(async () => t?.close());

  /** What the dry run and the run must name per schema: the aged record and the entries of the aged applicant. */
  async function expectedIds(spec: ResourceSpec): Promise<number[]> {
    const ids = made.get(spec.name) ? [made.get(spec.name)!.aged] : [];
    const owner = ownerOf(spec);
    if (owner) {
      const field = columnOf(spec, spec.ownedByApplicant!);
      const rows = await app.database.db.selectFrom(spec.table).select('id').where(field.column, '=', made.get(owner.name)!.aged).execute();
      ids.push(...rows.map((r) => Number(r.id)));
    }
    return [...new Set(ids)].sort((a, b) => a - b);
  }

  it('needs pi:admin on every retention and processing route', async () => {
    await createStaff(app, { username: 'nokey01', password: 'Nokey@2024', permissions: ['sysQuestion:list'] });
    const other = bearer(await loginAs(app, 'nokey01', 'Nokey@2024'));
    for (const [method, url] of [
      ['GET', '/api/privacy/retention'],
      ['POST', '/api/privacy/retention/run'],
      ['GET', '/api/privacy/processing'],
      ['GET', '/api/privacy/processing/markdown'],
      ['GET', '/api/privacy/requests?kind=retention'],
    ] as const) {
      const res = await app.inject({ method, url, headers: other });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json<{ message: string }>().message).toMatch(/[\u4e00-\u9fff]/);
    }
    const bad = await app.inject({ method: 'GET', url: '/api/privacy/requests?kind=nope', headers: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('the dry run lists exactly the aged records and changes nothing', async () => {
    const before = await snapshot();
    const res = await app.inject({ method: 'GET', url: '/api/privacy/retention', headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const dry = res.json<Retention>();
    expect(dry.dryRun).toBe(true);
    expect(ownedSpecs.length).toBeGreaterThan(0);
    const named = [...new Set([...withPeriod, ...ownedSpecs])];
    expect(dry.lines.map((l) => l.resource).sort()).toEqual(named.map((s) => s.name).sort());
    for (const spec of named) {
      const line = dry.lines.find((l) => l.resource === spec.name)!;
      expect(
        [...line.ids].sort((a, b) => a - b),
        spec.name,
      ).toEqual(await expectedIds(spec));
      expect(line.records, spec.name).toBe(line.ids.length);
      expect(line.binIds, spec.name).toEqual(made.get(spec.name) ? [made.get(spec.name)!.bin] : []);
      expect(line.left, spec.name).toBe(0);
    }
    expect(await snapshot()).toBe(before);
  });

  it('the run erases the aged records by x-erase and nothing else; the report and the notice exist', async () => {
    const { db } = app.database;
    const expected = new Map<string, number[]>();
    for (const spec of [...withPeriod, ...ownedSpecs]) expected.set(spec.name, await expectedIds(spec));
    const keep = new Map<string, Array<Record<string, unknown>>>();
    for (const spec of withPeriod) {
      const m = made.get(spec.name)!;
      const ids = [m.current, ...(m.outside ? [m.outside] : [])];
      keep.set(spec.name, await db.selectFrom(spec.table).selectAll().where('id', 'in', ids).orderBy('id').execute());
    }
    const res = await app.inject({ method: 'POST', url: '/api/privacy/retention/run', headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json<Retention>();
    expect(run.dryRun).toBe(false);
    // the records named, and one recycle-bin entry per schema with a period
    expect(run.count).toBe([...expected.values()].reduce((n, ids) => n + ids.length, 0) + withPeriod.length);
    for (const spec of ownedSpecs)
      expect(await db.selectFrom(spec.table).select('id').where('id', 'in', expected.get(spec.name)!).execute(), spec.name).toEqual([]);
    expect(run.logLines).toBeGreaterThanOrEqual(1);

    for (const spec of withPeriod) {
      const m = made.get(spec.name)!;
      const rule = spec.personal!.erase;
      const rows = await db.selectFrom(spec.table).selectAll().where('id', 'in', expected.get(spec.name)!).execute();
      if (rule.mode === 'delete') expect(rows, spec.name).toEqual([]);
      else {
        expect(rows.length, spec.name).toBe(expected.get(spec.name)!.length);
        for (const row of rows)
          for (const f of spec.fields.filter((x) => rule.fields.includes(x.name)))
            expect(row[f.column], `${spec.name}.${f.name}`).toBeNull();
      }
      // nothing else: the current record and the one outside the rule are as they were
      const ids = [m.current, ...(m.outside ? [m.outside] : [])];
      expect(await db.selectFrom(spec.table).selectAll().where('id', 'in', ids).orderBy('id').execute(), spec.name).toEqual(
        keep.get(spec.name),
      );
      // the bin entry's revisions are gone; an erased record's revisions are gone or blanked
      const bin = await db
        .selectFrom(REVISION_TABLE)
        .select('id')
        .where('resource', '=', spec.name)
        .where('record_id', '=', m.bin)
        .execute();
      expect(bin, spec.name).toEqual([]);
      const revs = await db
        .selectFrom(REVISION_TABLE)
        .select('changes')
        .where('resource', '=', spec.name)
        .where('record_id', '=', m.aged)
        .execute();
      if (rule.mode === 'delete') expect(revs, spec.name).toEqual([]);
      else
        for (const r of revs)
          for (const name of rule.fields) {
            const changes = JSON.parse(String(r.changes)) as Record<string, [unknown, unknown]>;
            if (changes[name]) expect(changes[name], `${spec.name}.${name}`).toEqual([null, null]);
          }
    }
    const logs = await db
      .selectFrom('sys_log')
      .select('params')
      .where('params', 'like', `%${MOBILE.slice(0, 3)}%`)
      .execute();
    expect(logs.map((l) => String(l.params)).join()).not.toContain(MOBILE);

    const listed = await app.inject({ method: 'GET', url: '/api/privacy/requests?kind=retention', headers: admin });
    const runs = listed.json<{
      content: Array<{ id: number; kindTitle: string; status: string; resultCount: number }>;
      totalElements: number;
    }>();
    expect(runs.totalElements).toBe(1);
    expect(runs.content[0]).toMatchObject({ id: run.requestId, kindTitle: '到期清理', status: '已完成', resultCount: run.count });
    const notices = await db.selectFrom(resourceByName.sysSocket.table).selectAll().where('title', '=', RETENTION_DONE_TITLE).execute();
    expect(notices.length).toBe(1);
    expect(JSON.stringify(notices[0])).not.toContain(MOBILE);
  });

  it('the daily job run again erases nothing and sends no notice', async () => {
    const { db } = app.database;
    const dj = resourceByName.dj;
    const col = (name: string) => dj.fields.find((f) => f.name === name)!.column;
    const job = await db
      .selectFrom(dj.table)
      .select('id')
      .where(col('project'), '=', 'privacyMaintenance')
      .where(col('methodName'), '=', 'retention')
      .executeTakeFirstOrThrow();
    const before = await snapshot();
    const res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${Number(job.id)}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ success: boolean; message: string }>()).toMatchObject({ success: true });
    expect(res.json<{ message: string }>().message).toContain('按保留期限处理个人信息 0 条');
    const after = JSON.parse(await snapshot()) as unknown[];
    const was = JSON.parse(before) as unknown[];
    // the records, the revisions and the log are as they were; one more run is recorded
    expect(after.slice(0, withPeriod.length + 1)).toEqual(was.slice(0, withPeriod.length + 1));
    expect((after.at(-1) as unknown[]).length).toBe((was.at(-1) as unknown[]).length + 1);
    const notices = await db.selectFrom(resourceByName.sysSocket.table).select('id').where('title', '=', RETENTION_DONE_TITLE).execute();
    expect(notices.length).toBe(1);
  });

  it('the records of processing list every schema with a personal field, a new one too, and the roles holding its key', async () => {
    await createStaff(app, { username: 'dpo01', password: 'Dpo@20240', permissions: ['sysQuestion:sensitive'] });
    const res = await app.inject({ method: 'GET', url: '/api/privacy/processing', headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<{
      records: Array<{ resource: string; fields: Array<{ name: string }>; purpose: string; erase: string; roles: string[] }>;
    }>();
    // what erasing does is said in Chinese, never by a column's name (img, wx_img)
    expect(report.records.filter((r) => /[a-z]{2,}/.test(r.erase)).map((r) => `${r.resource}: ${r.erase}`)).toEqual([]);
    const personal = resources.filter((s) => s.fields.some((f) => f.mask));
    expect(report.records.map((r) => r.resource).sort()).toEqual(
      [...personal.map((s) => s.name), ...HANDWRITTEN_TABLES.map((h) => h.name)].sort(),
    );
    for (const spec of personal) {
      const r = report.records.find((x) => x.resource === spec.name)!;
      expect(
        r.fields.map((f) => f.name),
        spec.name,
      ).toEqual(spec.fields.filter((f) => f.mask).map((f) => f.name));
      expect(r.purpose, spec.name).toBe(spec.personal!.purpose);
      expect(r.roles.includes('dpo01的岗位'), spec.name).toBe(spec.name === 'sysQuestion');
    }
    // a new schema with a personal field appears without code
    const base = resourceByName.sysQuestion;
    const probe: ResourceSpec = {
      ...base,
      name: 'retentionProbe',
      title: '新实体',
      table: 'retention_probe',
      permission: 'retentionProbe',
    };
    const withProbe = await processingRecords(app.database.db, [...resources, probe], nowText());
    expect(withProbe.records.find((r) => r.resource === 'retentionProbe')).toMatchObject({
      title: '新实体',
      fullKey: 'retentionProbe:sensitive',
    });

    const md = await app.inject({ method: 'GET', url: '/api/privacy/processing/markdown', headers: admin });
    expect(md.statusCode).toBe(200);
    expect(md.headers['content-type']).toContain('text/markdown');
    expect(md.body).toContain('# 个人信息处理活动记录');
    for (const spec of personal) expect(md.body).toContain(`| ${spec.title} | ${spec.table} |`);
    expect(md.body).toContain('dpo01的岗位');
  });
});
