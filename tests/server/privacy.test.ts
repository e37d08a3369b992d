/**
 * 个人信息保护 (PIPL requests), generated over the schemas: a person is entered in every schema
 * holding personal fields (their ID number, mobile and name in every x-mask property of those
 * kinds), edited, partly deleted (in the recycle bin), entered as a staff user too; then
 * - the look-up by ID number and by mobile finds every record of every such schema, the deleted
 *   ones through their revisions, the user, and is stored as a request with who, when, reason;
 * - the copy (JSON and xlsx) holds them with their history;
 * - the erasure follows each schema's x-erase, and afterwards the database file holds neither
 *   the ID number, the mobile nor the name, and a restore of an older backup erases them again.
 */
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sqliteHandleOf } from '../../src/server/db/index.ts';
import type { FastifyInstance } from 'fastify';
import { resources } from '../../src/generated/resources.ts';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { personalSpecs } from '../../src/server/modules/privacy/sources.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { enterPerson, PERSON, personInRows, postgresFileBytes, walHolds } from './privacy-helpers.ts';
import { multipartFile } from './multipart.ts';
import { stepUpPassword, TEST_BACKUP_KEY } from './backup-helpers.ts';
import type { Page } from '../support/answers.ts';

/** The schemas the person is entered in: every one with an ID-number or mobile property. */
const searchable = (specs: ResourceSpec[]) =>
  personalSpecs(specs).filter((s) => s.fields.some((f) => f.mask === 'id' || f.mask === 'phone'));

interface Group {
  resource: string;
  source: string;
  records: Array<Record<string, unknown>>;
  deletedIds: number[];
  revisions: Array<{ id: number; action: string }>;
}
interface Found {
  requestId: number;
  groups: Group[];
  logs: unknown[];
  count: number;
}

describe.each(testApps())('personal information requests on %s', (dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let token: string;
  /** per resource: the ids entered (the first edited, the second deleted when there are two) */
  const entered = new Map<string, number[]>();
  const deleted = new Map<string, number>();

  const post = (url: string, payload: object, headers = admin) => app.inject({ method: 'POST', url, headers, payload });
  // SQLite: the bytes of the database file and its log, free space included
  const sqliteFileBytes = () => {
    sqliteHandleOf(app.database)!.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const file = join(t.config.dataDir, 'console.db');
    return Buffer.concat([readFileSync(file), existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`) : Buffer.alloc(0)]);
  };

  beforeAll(async () => {
    t = await start({ backupKey: TEST_BACKUP_KEY });
    app = t.app;
    token = await loginAs(app, 'admin', ADMIN_PASSWORD);
    admin = bearer(token);
    for (const spec of searchable(resources)) {
      const [kept, gone] = await enterPerson(app, token, spec);
      entered.set(spec.name, [kept, gone]);
      deleted.set(spec.name, gone);
    }
    await createStaff(app, { username: 'person01', password: 'Person@2024', permissions: [], phone: PERSON.mobile });
    await createStaff(app, { username: 'nokey', password: 'Nokey@2024', permissions: ['sysQuestion:list'] });
  }, 600_000);
  afterAll(async () => t?.close());

  it('is closed without pi:admin, and needs a reason and a whole identifier', async () => {
    const other = bearer(await loginAs(app, 'nokey', 'Nokey@2024'));
    expect((await post('/api/privacy/search', { mobile: PERSON.mobile, reason: '本人申请' }, other)).statusCode).toBe(403);
    expect(errorOf(await post('/api/privacy/search', { mobile: PERSON.mobile })).message).toBe('请填写事由');
    expect(errorOf(await post('/api/privacy/search', { reason: '本人申请' })).message).toBe('请输入完整的身份证号或手机号');
    expect(errorOf(await post('/api/privacy/search', { mobile: '1376655', reason: '本人申请' })).message).toBe('请输入正确的11位手机号码');
    expect(errorOf(await post('/api/privacy/search', { idNumber: '3201061985', reason: '本人申请' })).message).toMatch(/身份证号/);
  });

  it('finds the person in every schema with an ID-number or mobile property, deleted records through revisions, and the user', async () => {
    for (const by of [{ idNumber: PERSON.idNumber }, { mobile: PERSON.mobile }]) {
      const res = await post('/api/privacy/search', { ...by, reason: '本人依个人信息保护法第四十五条申请查阅' });
      expect(res.statusCode, res.body).toBe(200);
      const found = res.json<Found>();
      const kind = 'idNumber' in by ? 'id' : 'phone';
      const holders = searchable(resources).filter((s) => s.fields.some((f) => f.mask === kind));
      expect(holders.length).toBeGreaterThan(0);
      for (const spec of holders) {
        const g = found.groups.find((x) => x.resource === spec.name);
        expect(g, `${spec.name} by ${kind}`).toBeDefined();
        const [kept, gone] = entered.get(spec.name)!;
        expect(
          g!.records.map((r) => Number(r.id)),
          spec.name,
        ).toContain(kept);
        expect(g!.deletedIds, spec.name).toContain(gone);
        expect(
          g!.revisions.map((r) => r.action),
          spec.name,
        ).toEqual(expect.arrayContaining(['create', 'update', 'delete']));
      }
      if (kind === 'phone') {
        const users = found.groups.find((x) => x.resource === 'user');
        expect(users?.records.map((r) => r.username)).toContain('person01');
      }
      console.log(`found by ${kind}: ${found.groups.map((g) => `${g.resource} ${g.records.length}+${g.deletedIds.length}`).join(', ')}`);
    }
    // a stranger finds nothing
    const none = await post('/api/privacy/search', { mobile: '13900000000', reason: '核对' });
    expect(none.json<Found>().count).toBe(0);
  });

  it('stores each look-up as a request (who, when, reason, status, count; the identifier masked) and logs it masked', async () => {
    const res = await post('/api/privacy/search', { mobile: PERSON.mobile, reason: '审计抽查' });
    const found = res.json<Found>();
    const list = await app.inject({ method: 'GET', url: '/api/privacy/requests?page=0&size=5', headers: admin });
    expect(list.statusCode).toBe(200);
    const first = list.json<Page<Record<string, unknown>>>().content[0];
    expect(first).toMatchObject({
      id: found.requestId,
      kind: 'search',
      reason: '审计抽查',
      status: '已完成',
      resultCount: found.count,
      username: 'admin',
    });
    expect(first.subject).toBe('137****4433');
    expect(JSON.stringify(list.json())).not.toContain(PERSON.mobile);
    const sheet = await app.inject({ method: 'GET', url: '/api/privacy/requests/download', headers: admin });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const log = await app.database.db
      .selectFrom('sys_log')
      .select(['description', 'params'])
      .where('description', '=', '个人信息查询')
      .execute();
    expect(log.length).toBeGreaterThan(0);
    expect(JSON.stringify(log)).not.toContain(PERSON.mobile);
  });

  it('gives the person a copy: one JSON and one xlsx file with the records, their history and the log lines', async () => {
    const json = await post('/api/privacy/copy', {
      idNumber: PERSON.idNumber,
      mobile: PERSON.mobile,
      reason: '本人申请副本',
      format: 'json',
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.headers['content-disposition']).toMatch(/attachment/);
    const doc = json.json<{ entities: Array<{ resource: string; records: unknown[]; history: unknown[] }> }>();
    for (const spec of searchable(resources)) {
      const e = doc.entities.find((x) => x.resource === spec.name);
      expect(e?.records.length, spec.name).toBeGreaterThan(0);
      expect(e?.history.length, spec.name).toBeGreaterThan(0);
    }
    expect(json.body).toContain(PERSON.mobile);
    const xlsx = await post('/api/privacy/copy', { mobile: PERSON.mobile, reason: '本人申请副本', format: 'xlsx' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const list = await app.inject({ method: 'GET', url: '/api/privacy/requests?size=2', headers: admin });
    expect(list.json<Page<Record<string, unknown>>>().content.map((r) => r.kind)).toEqual(['copy', 'copy']);
  });

  it('erases the person by x-erase everywhere; the database file then holds neither ID number, mobile nor name, also after restoring an older backup', async () => {
    const backup = await app.inject({ method: 'POST', url: '/api/backups', headers: admin });
    expect(backup.statusCode, backup.body).toBe(200);
    const older = backup.json<{ name: string }>().name;
    // the identifiers in full in an old log line (written before logs were masked)
    await app.database.db
      .insertInto('sys_log')
      .values({
        username: 'admin',
        description: '旧日志',
        method: 'POST /api/x',
        params: `{"mobile":"${PERSON.mobile}"}`,
        time: 0,
        log_type: 'INFO',
        create_time: '2020-01-01 00:00:00',
      })
      .execute();

    const res = await post('/api/privacy/erase', { idNumber: PERSON.idNumber, mobile: PERSON.mobile, reason: '本人依第四十七条申请删除' });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<{
      lines: Array<{ resource: string; action: string; records: number; binEntries: number }>;
      logLines: number;
      ledger: number;
    }>();
    for (const spec of searchable(resources)) {
      const line = report.lines.find((l) => l.resource === spec.name);
      expect(line, spec.name).toMatchObject({
        action: spec.personal!.erase.mode === 'delete' ? '删除' : '匿名化',
        records: 1,
        binEntries: 1,
      });
    }
    expect(report.logLines).toBeGreaterThan(0);
    expect(report.ledger).toBe(2);
    const again = await post('/api/privacy/search', { idNumber: PERSON.idNumber, mobile: PERSON.mobile, reason: '删除后核对' });
    expect(again.json<Found>().count).toBe(0);

    const leftovers = async () => {
      // every row of every table, read back through SQL
      const hits = await personInRows(app);
      if (hits.length) return hits;
      const bytes = t.dialect === 'sqlite' ? sqliteFileBytes() : await postgresFileBytes(app);
      return [PERSON.idNumber, PERSON.mobile, PERSON.name].filter((v) => bytes.includes(Buffer.from(v, 'utf8')));
    };
    expect(await leftovers()).toEqual([]);

    // the backup made before the erasure still holds the person: restoring it erases them again
    const restore = await app.inject({
      method: 'POST',
      url: `/api/backups/${older}/restore`,
      headers: admin,
      payload: { password: await stepUpPassword(app) },
    });
    expect(restore.statusCode, restore.body).toBe(200);
    const afterRestore = await post('/api/privacy/search', { idNumber: PERSON.idNumber, mobile: PERSON.mobile, reason: '恢复后核对' });
    expect(afterRestore.json<Found>().groups).toEqual([]);
    expect(await leftovers()).toEqual([]);
  }, 600_000);

  it('an erasure deletes the uploaded files the erased records name, from the disk too', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const upload = multipartFile('photo.png', png, 'image/png');
    const stored = await app.inject({
      method: 'POST',
      url: '/api/pictures',
      headers: { ...admin, ...upload.headers },
      payload: upload.payload,
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const { key, url } = stored.json<{ key: string; url: string }>();
    const row = await app.database.db
      .selectFrom('sys_file')
      .select(['storage', 'path'])
      .where('file_key', '=', key)
      .executeTakeFirstOrThrow();
    // kept in the database (sys_file) or on the disk, as the storage setting says
    const onDisk = row.storage === 'disk' ? join(t.config.dataDir, 'uploads', String(row.path)) : undefined;
    if (onDisk) expect(existsSync(onDisk)).toBe(true);
    const fileBytes = () => (t.dialect === 'sqlite' ? Promise.resolve(sqliteFileBytes()) : postgresFileBytes(app));
    if (!onDisk) expect((await fileBytes()).includes(png)).toBe(true);
    const mobile = '13911112222';
    const created = await post('/api/sysQuestion', {
      userType: '员工',
      model: '系统',
      title: '附件',
      content: `见照片 ${url}`,
      mobile,
      username: '上官婉',
    });
    expect(created.statusCode, created.body).toBe(201);

    const res = await post('/api/privacy/erase', { mobile, reason: '本人申请删除' });
    expect(res.statusCode, res.body).toBe(200);
    const line = res.json<{ lines: Array<{ resource: string; files: number }> }>().lines.find((l) => l.resource === 'sysQuestion');
    expect(line?.files).toBe(1);
    expect((await app.inject({ method: 'GET', url, headers: admin })).statusCode).toBe(404);
    expect(await app.database.db.selectFrom('sys_file').select('file_key').where('file_key', '=', key).executeTakeFirst()).toBeUndefined();
    if (onDisk) expect(existsSync(onDisk)).toBe(false);
    // nor are its bytes left in the database's free space
    expect((await fileBytes()).includes(png)).toBe(false);
  });

  it.skipIf(dialect !== 'postgres')(
    'PostgreSQL: an erasure does not wait for a table another request holds; it leaves that table as it is after the lock wait',
    { timeout: 120_000 },
    async () => {
      // a long read (an export) holds the operation log: a rewrite of it would wait for its end,
      // and every request that logs would queue behind that wait
      await app.database.db.connection().execute(async (reader) => {
        await sql`begin`.execute(reader);
        await sql`select count(*) from sys_log`.execute(reader);
        try {
          const started = performance.now();
          const res = await post('/api/privacy/erase', { mobile: '13900001111', reason: '本人申请删除' });
          expect(res.statusCode, res.body).toBe(200);
          // answered after the lock wait (10 s), not when the statement timeout cut the wait
          expect(t.config.dbStatementTimeoutMs).toBeGreaterThan(40_000);
          expect(performance.now() - started).toBeLessThan(t.config.dbStatementTimeoutMs / 2);
        } finally {
          await sql`rollback`.execute(reader);
        }
      });
    },
  );

  it.skipIf(dialect !== 'postgres')(
    'PostgreSQL: an erasure leaves the erased values in no file of the write-ahead log (wal_recycle = off, as docs/deployment.md asks)',
    { timeout: 180_000 },
    async () => {
      const db = app.database.db;
      const setting = await sql<{ wal_recycle: string }>`show wal_recycle`.execute(db);
      expect(setting.rows[0].wal_recycle, 'start PostgreSQL with wal_recycle = off, as scripts/pg-start.sh does').toBe('off');
      // values no other test writes to the server's log, which all databases of the server share
      const mobile = `139${String(randomInt(10_000_000, 100_000_000))}`;
      const name = `上官${String.fromCharCode(0x4e00 + randomInt(0, 20_000), 0x4e00 + randomInt(0, 20_000), 0x4e00 + randomInt(0, 20_000))}`;
      const created = await post('/api/sysQuestion', {
        userType: '客户',
        model: '系统',
        title: '回访',
        content: '问题',
        mobile,
        username: name,
      });
      expect(created.statusCode, created.body).toBe(201);
      // the write reached the log's files: the newest segments hold both values (so the check below can fail)
      await expect.poll(() => walHolds(app, [mobile, name], { newest: 3 }), { timeout: 30_000, interval: 500 }).toEqual([mobile, name]);
      const res = await post('/api/privacy/erase', { mobile, reason: '本人申请删除' });
      expect(res.statusCode, res.body).toBe(200);
      expect(await walHolds(app, [mobile, name])).toEqual([]);
    },
  );
});
