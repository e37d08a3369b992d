/**
 * Backups and restore, on SQLite and PostgreSQL: data of every kind (a record of every schema,
 * pictures on disk and in the database, sessions) is backed up while writes run and again at
 * rest; a fresh instance (the database and files gone) restores the archive uploaded through
 * the screen's route and then holds every table and file as they were; the backup taken under
 * writes holds a consistent state (the writes it has are exactly the first k); a corrupted,
 * truncated or tampered archive is refused with a Chinese 400 and changes nothing; a signed-in
 * user's open console is told of a restore at once; the
 * scheduled job keeps the newest N and tells the administrators when it fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { listen, openSocket } from './ws-helpers.ts';
import {
  archiveEntries,
  fillEverything,
  packArchive,
  restoreUpload as upload,
  snapshot,
  stepUpPassword,
  TEST_BACKUP_KEY,
  uploadedFiles,
} from './backup-helpers.ts';
import { BACKUP_FAILED_TITLE, RESTORED_TITLE } from '../../src/server/modules/backup/notices.ts';
import type { Manifest } from '../../src/server/modules/backup/manifest.ts';
import { writeBackup } from '../../src/server/modules/backup/create.ts';
import type { TaskState } from '../../src/server/modules/backup/index.ts';
import type { BackupInfo } from '../../src/server/modules/backup/store.ts';
import { elapse } from '../support/wait.ts';

/** Tables a request itself writes to after a restore (the log; the restore's notice with its pinyin keys and revision): compared as "holds at least every row". */
const GROWING = new Set(['sys_log', 'sys_socket', 'sys_socket_title_py', 'sys_revision']);

/** The operation log of backup and restore requests: written as they are answered, so never inside the backup they make. */
const ownLog = (row: string) => row.includes('"method":"POST /api/backups');

function expectSameData(before: Record<string, string[]>, after: Record<string, string[]>): void {
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  for (const [table, rows] of Object.entries(before)) {
    if (GROWING.has(table)) expect(after[table], table).toEqual(expect.arrayContaining(rows.filter((r) => !ownLog(r))));
    else expect(after[table], table).toEqual(rows);
  }
}

const entriesOf = (app: TestApp, archive: Buffer) => archiveEntries(app.config, archive);

async function manifestOf(app: TestApp, archive: Buffer): Promise<Manifest> {
  const entries = await entriesOf(app, archive);
  return JSON.parse(entries.at(-1)!.data.toString()) as Manifest;
}

describe.each(testApps())('backups on %s', (dialect, start) => {
  let t: TestApp;
  let fresh: TestApp;
  let admin: string;
  let underWrites: BackupInfo;
  let atRest: BackupInfo;
  let written = 0;
  let state: Record<string, string[]>;
  let files: Record<string, string>;

  const backupNow = async (app = t.app) => {
    const res = await app.inject({ method: 'POST', url: '/api/backups', headers: bearer(admin) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BackupInfo>();
  };
  const restoreUpload = (app: TestApp['app'], name: string, content: Buffer, token = admin) => upload(app, name, content, token);
  /** restores a listed backup, with the admin's password again */
  const restoreListed = async (app: TestApp['app'], name: string) =>
    app.inject({
      method: 'POST',
      url: `/api/backups/${name}/restore`,
      headers: bearer(admin),
      payload: { password: await stepUpPassword(app) },
    });

  beforeAll(async () => {
    t = await start({ storage: 'disk', jobsEnabled: false, backupKey: TEST_BACKUP_KEY });
    const filled = await fillEverything(t.app);
    admin = filled.admin;
    expect(filled.schemas).toBeGreaterThan(20);

    // a writer adding numbered system messages, one transaction each, while the backup runs
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/sysSocket',
          headers: { ...bearer(admin), submit_id: submitId() },
          payload: { title: `w-${written + 1}`, type: 1, enabled: true },
        });
        if (res.statusCode !== 201) throw new Error(res.body);
        written++;
      }
    })();
    while (written < 5) await new Promise((r) => setTimeout(r, 5));
    underWrites = await backupNow();
    const atBackup = written;
    while (written < atBackup + 5) await new Promise((r) => setTimeout(r, 5));
    stop = true;
    await writer;

    atRest = await backupNow();
    state = await snapshot(t.app);
    files = uploadedFiles(t.config.dataDir);
    fresh = await start({ storage: 'disk', jobsEnabled: false, backupKey: TEST_BACKUP_KEY });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await fresh?.close();
  });

  it('lists the backups with size and time, newest first, and names every table and file in the manifest', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const list = res.json<{ content: BackupInfo[]; keep: number }>();
    expect(list.content.map((b) => b.name)).toEqual([atRest.name, underWrites.name]);
    for (const b of list.content) {
      expect(b.size).toBeGreaterThan(1000);
      expect(b.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(b.reason).toBe('manual');
    }
    const download = await t.app.inject({ method: 'GET', url: `/api/backups/${atRest.name}/download`, headers: bearer(admin) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(atRest.name);
    const entries = await entriesOf(t, download.rawPayload);
    expect(entries.at(-1)!.name).toBe('manifest.json');
    const manifest = JSON.parse(entries.at(-1)!.data.toString()) as Manifest;
    // every table, and the shape the data was stored in (schema_snapshot: a restore knows what it brings back)
    expect(Object.keys(manifest.tables).sort()).toEqual([...Object.keys(state), 'schema_snapshot'].sort());
    expect(manifest.tables.schema_snapshot).toBeGreaterThan(0);
    // (the operation log also holds the backup request itself, written as it was answered)
    for (const [table, rows] of Object.entries(state))
      if (GROWING.has(table)) expect(manifest.tables[table], table).toBeLessThanOrEqual(rows.length);
      else expect(manifest.tables[table], table).toBe(rows.length);
    expect(manifest.uploads).toEqual({ count: 3, missing: [] });
    expect(manifest.files.map((f) => f.path)).toEqual(entries.slice(0, -1).map((e) => e.name));
    // no work folder or unfinished archive is left beside the backups
    expect((await readdir(t.config.backupDir)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('restores into a fresh instance every table and file as they were', async () => {
    const archive = readFileSync(join(t.config.backupDir, atRest.name));
    const res = await restoreUpload(fresh.app, atRest.name, archive, await loginAs(fresh.app, 'admin', ADMIN_PASSWORD));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ restored: string; before: BackupInfo }>();
    expect(body.restored).toBe(atRest.name);
    expect(body.before.reason).toBe('pre-restore');
    expectSameData(state, await snapshot(fresh.app));
    expect(uploadedFiles(fresh.config.dataDir)).toEqual(files);
    // everyone is told
    const told = await fresh.app.database.db.selectFrom('sys_socket').select('title').where('title', '=', RESTORED_TITLE).execute();
    expect(told).toHaveLength(1);
    // a picture on disk is served from the restored folder
    const row = await fresh.app.database.db
      .selectFrom('sys_file')
      .select('file_key')
      .where('storage', '=', 'disk')
      .$castTo<{ file_key: string }>()
      .executeTakeFirstOrThrow();
    const file = await fresh.app.inject({ method: 'GET', url: `/api/files/${row.file_key}` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    // the restored sessions are valid: the admin's token of the first instance works here
    const list = await fresh.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) });
    expect(list.statusCode).toBe(200);
    // a new record after the restore gets an id after the restored ones
    const added = await fresh.app.inject({
      method: 'POST',
      url: '/api/sysSocket',
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: { title: 'after restore', type: 1, enabled: true },
    });
    expect(added.statusCode, added.body).toBe(201);
  });

  it('took one consistent state while writes ran: the first k writes, nothing torn', async () => {
    // a signed-in user's open console hears of the restore at once
    const user = await openSocket(`${await listen(t.app)}/webSocket/${admin}`);
    const res = await restoreListed(t.app, underWrites.name);
    expect(res.statusCode, res.body).toBe(200);
    try {
      await user.next((m) => m.msgType === 'INFO' && m.msg === `您有新的系统消息：${RESTORED_TITLE}`);
    } finally {
      user.close();
    }
    const titles = (await t.app.database.db.selectFrom('sys_socket').select('title').where('title', 'like', 'w-%').execute()).map((r) =>
      Number(String(r.title).slice(2)),
    );
    const k = titles.length;
    expect(k).toBeGreaterThanOrEqual(5);
    expect(k).toBeLessThan(written);
    expect(titles.sort((a, b) => a - b)).toEqual(Array.from({ length: k }, (_, i) => i + 1));
    // and back to the state at rest, from the pre-restore backup the restore kept
    const before = res.json<{ before: BackupInfo }>().before;
    const back = await restoreListed(t.app, before.name);
    expect(back.statusCode, back.body).toBe(200);
    expectSameData(state, await snapshot(t.app));
    expect(uploadedFiles(t.config.dataDir)).toEqual(files);
  });

  it('refuses a corrupted, truncated or tampered archive with a Chinese 400 and changes nothing', async () => {
    const good = readFileSync(join(t.config.backupDir, atRest.name));
    const entries = await entriesOf(t, good);
    const tampered = await packArchive(
      t.config,
      entries.map((e, i) =>
        i === 0 ? { ...e, data: Buffer.concat([e.data.subarray(0, e.data.length - 1), Buffer.from([e.data.at(-1)! ^ 1])]) } : e,
      ),
    );
    const withoutManifest = await packArchive(t.config, entries.slice(0, -1));
    // a crafted manifest naming a table that is not a plain name (it would reach SQL text)
    const crafted = JSON.parse(entries.at(-1)!.data.toString()) as Manifest;
    crafted.tables['x"; drop table sys_user; --'] = 0;
    const badManifest = await packArchive(t.config, [
      ...entries.slice(0, -1),
      { name: 'manifest.json', data: Buffer.from(JSON.stringify(crafted)) },
    ]);
    const flipped = Buffer.from(good);
    flipped[Math.floor(flipped.length / 2)] ^= 0xff;
    const cases: Array<[string, Buffer, RegExp]> = [
      ['truncated', good.subarray(0, Math.floor(good.length / 2)), /不完整/],
      ['flipped', flipped, /已损坏或被篡改/],
      ['tampered', tampered, /校验和不符/],
      ['no manifest', withoutManifest, /缺少清单/],
      ['crafted manifest', badManifest, /数据表名称无效/],
      ['not an archive', Buffer.from('hello, not a backup'), /不是本系统的备份文件/],
    ];
    const before = await snapshot(t.app);
    const names = (await readdir(t.config.backupDir)).sort();
    for (const [what, content, message] of cases) {
      const res = await restoreUpload(t.app, `${what}.tar.gz`, content);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(errorOf(res).message, what).toMatch(/^备份无法恢复，现有数据未改变：/);
      expect(errorOf(res).message, what).toMatch(message);
    }
    const after = await snapshot(t.app);
    delete before.sys_log;
    delete after.sys_log;
    expect(after).toEqual(before);
    expect(uploadedFiles(t.config.dataDir)).toEqual(files);
    // no pre-restore backup was made, no work folder left
    expect((await readdir(t.config.backupDir)).sort()).toEqual(names);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/backups/backup-20200101-000000-000-manual.tar.gz.enc/restore',
      headers: bearer(admin),
      payload: { password: await stepUpPassword(t.app) },
    });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).message).toBe('备份不存在或已被删除');
  });

  it('a backup started while a request holds an uncommitted write has only committed data', async () => {
    const db = t.app.database.db;
    const count = async () => Number((await db.selectFrom('sys_socket').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const committed = await count();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const request = db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('sys_socket')
          .values({
            title: 'uncommitted',
            type: 1,
            sort: 0,
            enabled: t.dialect === 'postgres' ? true : 1,
            create_time: '2026-01-01 00:00:00',
          })
          .execute();
        started();
        await held;
        throw new Error('rolled back by the test');
      })
      .catch(() => undefined);
    await inside;
    const made = writeBackup(t.app.database, t.config, { reason: 'manual' });
    // the backup reads while the transaction is open (a slower start only reads after the rollback: the same rows)
    await elapse(300);
    release();
    await request;
    const info = await made;
    const manifest = await manifestOf(t, readFileSync(join(t.config.backupDir, info.name)));
    expect(manifest.tables.sys_socket).toBe(committed);
    expect(await count()).toBe(committed);
    await rm(join(t.config.backupDir, info.name));
  });

  // PostgreSQL: another session's lock holds the swap back (SQLite waits for its lock synchronously, in this process)
  it.runIf(dialect === 'postgres')('a restore still running near the request deadline answers 202 and is followed to its end', async () => {
    const locker = new pg.Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    const deadline = t.app.config.requestTimeoutMs;
    try {
      await locker.query('begin');
      await locker.query('lock table sys_dict in access share mode');
      t.app.config.requestTimeoutMs = 2000;
      const res = await restoreListed(t.app, atRest.name);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json<{ running: boolean; task: { kind: string } }>()).toMatchObject({ running: true, task: { kind: 'restore' } });
    } finally {
      t.app.config.requestTimeoutMs = deadline;
      await locker.query('commit');
      await locker.end();
    }
    let task: TaskState | null = null;
    for (let i = 0; i < 200 && !task?.finishedAt; i++) {
      await new Promise((r) => setTimeout(r, 100));
      task = (await t.app.inject({ method: 'GET', url: '/api/backups/task', headers: bearer(admin) })).json<{ task: TaskState | null }>()
        .task;
    }
    expect(task?.ok, task?.message).toBe(true);
    expectSameData(state, await snapshot(t.app));
  });

  it('a restore the database refuses half-way is rolled back: nothing changed, 503 in Chinese', async () => {
    const db = t.app.database.db;
    // a live rule the restored rows break: the swap fails after it has emptied and refilled some tables
    if (t.dialect === 'sqlite') {
      await sql`create trigger refuse_restore before insert on sys_dict begin select raise(abort, 'refused by test'); end`.execute(db);
    } else {
      await sql`create function refuse_restore() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`.execute(
        db,
      );
      await sql`create trigger refuse_restore before insert on sys_dict for each row execute function refuse_restore()`.execute(db);
    }
    const before = await snapshot(t.app);
    try {
      const res = await restoreListed(t.app, atRest.name);
      expect(res.statusCode, res.body).toBe(503);
      expect(errorOf(res).message).toMatch(/^恢复失败，现有数据未改变：/);
    } finally {
      if (t.dialect === 'sqlite') await sql`drop trigger refuse_restore`.execute(db);
      else await sql`drop trigger refuse_restore on sys_dict; drop function refuse_restore()`.execute(db);
    }
    const after = await snapshot(t.app);
    delete before.sys_log;
    delete after.sys_log;
    expect(after).toEqual(before);
    expect(uploadedFiles(t.config.dataDir)).toEqual(files);
  });

  it('the scheduled job keeps the newest N and tells the administrators when it fails', async () => {
    const job = await t.app.database.db
      .selectFrom('sys_job')
      .select('id')
      .where('method_name', '=', 'scheduledBackup')
      .executeTakeFirstOrThrow();
    const run = async () => {
      const res = await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${String(job.id)}`, headers: bearer(admin) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ success: boolean; message: string }>();
    };
    t.app.config.backupKeep = 2;
    for (let i = 0; i < 3; i++) {
      const r = await run();
      expect(r.success, r.message).toBe(true);
      expect(r.message).toContain('保留最近 2 个');
    }
    const list = (await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) })).json<{ content: BackupInfo[] }>();
    expect(list.content).toHaveLength(2);
    expect(list.content.every((b) => b.reason === 'schedule')).toBe(true);

    // a backup folder that cannot be made: the run fails, is logged, and the administrators are told
    const blocker = join(t.config.dataDir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const dir = t.app.config.backupDir;
    t.app.config.backupDir = join(blocker, 'backups');
    try {
      const r = await run();
      expect(r.success).toBe(false);
    } finally {
      t.app.config.backupDir = dir;
    }
    const told = await t.app.database.db
      .selectFrom('sys_socket')
      .select(['title', 'enabled'])
      .where('title', '=', BACKUP_FAILED_TITLE)
      .execute();
    // a notice for the administrators: stored switched off, so it is not every staff member's message
    expect(told).toHaveLength(1);
    expect(Boolean(told[0].enabled)).toBe(false);
    const again = (await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) })).json<{
      lastScheduled: { success: boolean };
    }>();
    expect(again.lastScheduled.success).toBe(false);
  });

  it('deletes a backup; a bad name is 400', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) })).json<{ content: BackupInfo[] }>();
    const name = list.content[0].name;
    const del = await t.app.inject({ method: 'DELETE', url: `/api/backups/${name}`, headers: bearer(admin) });
    expect(del.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/backups/${name}`, headers: bearer(admin) });
    expect(again.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'DELETE', url: '/api/backups/..%2Fconsole.db', headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toBe('备份文件名不正确');
  });
});
