/**
 * Backups encrypted at rest, and who may restore, on SQLite and PostgreSQL:
 * - an archive's raw bytes hold no seeded ID number, mobile, bcrypt hash or the sign-in private
 *   key (the same values are in it once decrypted, so the check can fail);
 * - a wrong key, a truncated or tampered file, an archive of the older unencrypted format, a
 *   gzip bomb and a tar declaring a huge entry are refused with a Chinese 400 before anything
 *   is written, and nothing changes (no work folder left, no pre-restore backup);
 * - after a key rotation an archive of the old key is read with BACKUP_DECRYPTION_KEYS;
 * - a restore needs the admin role's level and the caller's password again, and every attempt
 *   is in the operation log without the password;
 * - without BACKUP_ENCRYPTION_KEY no backup is written (screen, schedule) and the screen says so;
 *   the demo makes a key of its own in DATA_DIR.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync, gzipSync, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { tooLarge, UNPACK_FLOOR } from '../../src/server/modules/backup/archive.ts';
import { CUT_OFF, TAMPERED, WRONG_KEY } from '../../src/server/modules/backup/crypto.ts';
import { STEP_UP_PROMPT, STEP_UP_WRONG } from '../../src/server/modules/backup/index.ts';
import { DEMO_KEY_FILE, NO_KEY, readKeys, writeKey } from '../../src/server/modules/backup/keys.ts';
import { exclusively } from '../../src/server/modules/backup/create.ts';
import { PLAIN_REFUSED, restoreBackup } from '../../src/server/modules/backup/restore.ts';
import type { BackupInfo } from '../../src/server/modules/backup/store.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { multipartFile } from './multipart.ts';
import {
  archiveEntries,
  decryptArchive,
  encryptArchive,
  OTHER_BACKUP_KEY,
  PNG,
  restoreUpload,
  snapshot,
  stepUpPassword,
  TEST_BACKUP_KEY,
  uploadedFiles,
} from './backup-helpers.ts';

const ID_NUMBER = '11010519491231002X';
const MOBILE = '13987654321';
const MIB = 1024 * 1024;

/** A gzip-compressed tar of `entries`, each `size` bytes of zeros (streamed, never held whole). */
async function zerosTarGz(entries: Array<{ name: string; size: number }>): Promise<Buffer> {
  const pack = tar.pack();
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  const collected = new Promise<void>((resolve, reject) => {
    gzip.on('data', (c: Buffer) => out.push(c));
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  pack.pipe(gzip);
  const zero = Buffer.alloc(MIB);
  for (const e of entries) {
    await new Promise<void>((resolve, reject) => {
      const entry = pack.entry({ name: e.name, size: e.size }, (err) => (err ? reject(err) : resolve()));
      const feed = new PassThrough();
      feed.pipe(entry);
      let left = e.size;
      const write = () => {
        while (left > 0) {
          const n = Math.min(left, zero.length);
          left -= n;
          if (!feed.write(zero.subarray(0, n))) return void feed.once('drain', write);
        }
        feed.end();
      };
      write();
    });
  }
  pack.finalize();
  await collected;
  return Buffer.concat(out);
}

describe.each(testApps())('backups encrypted at rest on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  let made: BackupInfo;
  let archive: Buffer;

  const workLeft = async () => {
    const dirs = [...(await readdir(t.config.backupDir)), ...(await readdir(t.config.dataDir))];
    return dirs.filter((n) => n.startsWith('.'));
  };

  beforeAll(async () => {
    t = await start({ storage: 'disk', jobsEnabled: false, backupKey: TEST_BACKUP_KEY });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await t.app.database.db.updateTable('sys_user').set({ phone: MOBILE, idno: ID_NUMBER }).where('username', '=', 'admin').execute();
    // a picture that does not compress: the archive spans several encrypted records
    const body = multipartFile('noise.png', Buffer.concat([PNG(1), randomBytes(200 * 1024)]), 'image/png');
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/pictures',
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect([200, 201], up.body).toContain(up.statusCode);
    const res = await t.app.inject({ method: 'POST', url: '/api/backups', headers: bearer(admin) });
    expect(res.statusCode, res.body).toBe(200);
    made = res.json<BackupInfo>();
    expect(made.name).toMatch(/\.tar\.gz\.enc$/);
    archive = readFileSync(join(t.config.backupDir, made.name));
    expect(archive.length).toBeGreaterThan(3 * 64 * 1024);
  }, 60_000);
  afterAll(async () => t?.close());

  it('an archive read without the key shows no personal data, password hash or private key', async () => {
    const secrets = [ID_NUMBER, MOBILE, '$2a$', '$2b$', 'BEGIN PRIVATE KEY', 'sys_user', 'manifest.json'];
    // the same values are in the archive once decrypted (as SQLite pages or PostgreSQL rows)
    const clear = gunzipSync(await decryptArchive(t.config, archive));
    const inClear = secrets.filter((s) => clear.includes(s));
    expect(inClear).toEqual(expect.arrayContaining([ID_NUMBER, MOBILE, 'BEGIN PRIVATE KEY', 'sys_user', 'manifest.json']));
    expect(inClear.some((s) => s.startsWith('$2'))).toBe(true);
    for (const s of secrets) expect(archive.includes(s), s).toBe(false);
    // nor is it a gzip stream someone could unpack
    expect(archive.subarray(0, 8).toString('latin1')).toBe('DCBACKUP');
    // the download is the same encrypted file
    const download = await t.app.inject({ method: 'GET', url: `/api/backups/${made.name}/download`, headers: bearer(admin) });
    expect(download.rawPayload.equals(archive)).toBe(true);
  });

  it('refuses a wrong key, a truncated or tampered file and the older unencrypted format, changing nothing', async () => {
    const entries = await archiveEntries(t.config, archive);
    const plain = gzipSync(
      await (async () => {
        const pack = tar.pack();
        for (const e of entries) pack.entry({ name: e.name }, e.data);
        pack.finalize();
        const chunks: Buffer[] = [];
        for await (const c of pack) chunks.push(c as Buffer);
        return Buffer.concat(chunks);
      })(),
    );
    const otherKey = await encryptArchive(t.config, plain, OTHER_BACKUP_KEY);
    const tamperedTag = Buffer.from(archive);
    tamperedTag[tamperedTag.length - 1] ^= 0x01;
    const tamperedMiddle = Buffer.from(archive);
    tamperedMiddle[Math.floor(archive.length / 2)] ^= 0x80;
    // cut after the header and the first full record: every record read verifies, but the end is missing
    const firstRecord = 36 + 4 + (archive.readUInt32BE(36) & 0x7fffffff) + 16;
    const cases: Array<[string, Buffer, string]> = [
      ['another key', otherKey, WRONG_KEY],
      ['tag changed', tamperedTag, TAMPERED],
      ['byte changed', tamperedMiddle, TAMPERED],
      ['cut at a record', archive.subarray(0, firstRecord), CUT_OFF],
      ['cut in a record', archive.subarray(0, firstRecord + 100), CUT_OFF],
      ['older unencrypted format', plain, PLAIN_REFUSED],
    ];
    const before = await snapshot(t.app);
    const files = uploadedFiles(t.config.dataDir);
    const names = (await readdir(t.config.backupDir)).sort();
    for (const [what, content, message] of cases) {
      const res = await restoreUpload(t.app, `${what}.tar.gz.enc`, content, admin);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(errorOf(res).message, what).toBe(`备份无法恢复，现有数据未改变：${message}`);
    }
    const after = await snapshot(t.app);
    delete before.sys_log;
    delete after.sys_log;
    expect(after).toEqual(before);
    expect(uploadedFiles(t.config.dataDir)).toEqual(files);
    expect((await readdir(t.config.backupDir)).sort()).toEqual(names);
    expect(await workLeft()).toEqual([]);
  });

  it('caps what an archive unpacks to before writing it: a gzip bomb and a huge declared entry', async () => {
    // 300 MiB of zeros in one entry: a few hundred KB once compressed
    const bomb = await encryptArchive(t.config, await zerosTarGz([{ name: 'database/console.db', size: 300 * MIB }]));
    expect(bomb.length).toBeLessThan(1 * MIB);
    // many entries of 8 MiB each, none too large alone
    const many = await encryptArchive(
      t.config,
      await zerosTarGz(Array.from({ length: 12 }, (_, i) => ({ name: `uploads/2026-01/bomb-${i}.png`, size: 8 * MIB }))),
    );
    // a tar header declaring a 4 GiB entry with no data behind it
    const header = tar.pack();
    header.entry({ name: 'database/console.db', size: 4 * 1024 * MIB });
    const headerBytes: Buffer[] = [];
    header.on('data', (c: Buffer) => headerBytes.push(c));
    await new Promise((r) => setImmediate(r));
    const huge = await encryptArchive(t.config, gzipSync(Buffer.concat(headerBytes)));
    const before = await snapshot(t.app);
    const names = (await readdir(t.config.backupDir)).sort();
    for (const [what, content] of [
      ['gzip bomb', bomb],
      ['many entries', many],
      ['huge declared size', huge],
    ] as const) {
      const res = await restoreUpload(t.app, `${what}.tar.gz.enc`, content, admin);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(errorOf(res).message, what).toBe(`备份无法恢复，现有数据未改变：${tooLarge(UNPACK_FLOOR)}`);
    }
    const after = await snapshot(t.app);
    delete before.sys_log;
    delete after.sys_log;
    expect(after).toEqual(before);
    expect((await readdir(t.config.backupDir)).sort()).toEqual(names);
    expect(await workLeft()).toEqual([]);
  }, 60_000);

  it('reads an archive of an older key after a rotation (BACKUP_DECRYPTION_KEYS)', async () => {
    const rotated = { ...t.config, backupKey: OTHER_BACKUP_KEY, backupOldKeys: [TEST_BACKUP_KEY] };
    expect(readKeys(rotated).map((k) => k.id.toString('hex'))).toEqual([
      OTHER_BACKUP_KEY.id.toString('hex'),
      TEST_BACKUP_KEY.id.toString('hex'),
    ]);
    const result = await exclusively('restore', () => restoreBackup(t.app.database, rotated, join(t.config.backupDir, made.name)));
    expect(result.manifest.createdAt).toBe(made.createdAt);
    // the pre-restore backup is written with the new key: the old one alone cannot read it
    const before = readFileSync(join(t.config.backupDir, result.before.name));
    await expect(decryptArchive({ ...t.config, backupOldKeys: [] }, before)).rejects.toThrow(WRONG_KEY);
    expect((await decryptArchive(rotated, before)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('a restore needs the admin role level and the password again, and every attempt is logged without it', async () => {
    await createStaff(t.app, { username: 'keeper', password: 'Keeper#2026', permissions: ['backup:list', 'backup:restore'] });
    const keeper = await loginAs(t.app, 'keeper', 'Keeper#2026');
    const before = await snapshot(t.app);
    const listed = (token: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/backups/${made.name}/restore`, headers: bearer(token), payload });
    const cases: Array<[string, () => Promise<{ statusCode: number; json(): unknown }>, number, RegExp]> = [
      ['key holder of level 3', async () => listed(keeper, { password: await stepUpPassword(t.app, 'Keeper#2026') }), 403, /角色权限不足/],
      ['key holder of level 3, upload', () => restoreUpload(t.app, 'x.tar.gz.enc', archive, keeper, null), 403, /角色权限不足/],
      ['admin without password', () => listed(admin, {}), 400, new RegExp(`^${STEP_UP_PROMPT}$`)],
      [
        'admin, wrong password',
        async () => listed(admin, { password: await stepUpPassword(t.app, 'Wrong#2026') }),
        400,
        new RegExp(`^${STEP_UP_WRONG}$`),
      ],
      [
        'admin upload without password',
        () => restoreUpload(t.app, 'x.tar.gz.enc', archive, admin, null),
        400,
        new RegExp(`^${STEP_UP_PROMPT}$`),
      ],
      [
        'admin upload, wrong password',
        async () => restoreUpload(t.app, 'x.tar.gz.enc', archive, admin, await stepUpPassword(t.app, 'Wrong#2026')),
        400,
        new RegExp(`^${STEP_UP_WRONG}$`),
      ],
    ];
    for (const [what, call, status, message] of cases) {
      const res = await call();
      expect(res.statusCode, what).toBe(status);
      expect(errorOf(res).message, what).toMatch(message);
    }
    const after = await snapshot(t.app);
    delete before.sys_log;
    delete after.sys_log;
    delete before.sys_session;
    delete after.sys_session;
    expect(after).toEqual(before);
    const logged = await t.app.database.db
      .selectFrom('sys_log')
      .select(['username', 'method', 'params', 'log_type'])
      .where('method', 'like', 'POST /api/backups/%restore')
      .execute();
    expect(logged.filter((r) => r.log_type === 'ERROR').length).toBeGreaterThanOrEqual(cases.length);
    expect(logged.map((r) => String(r.username))).toEqual(expect.arrayContaining(['keeper', 'admin']));
    for (const r of logged) expect(String(r.params)).not.toMatch(/[A-Za-z0-9+/]{100,}/);
    // with the password, the admin restores
    const ok = await listed(admin, { password: await stepUpPassword(t.app) });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe.each(testApps())('without BACKUP_ENCRYPTION_KEY on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await start({ jobsEnabled: false });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => t?.close());

  it('writes no backup (screen or schedule), and the screen says why', async () => {
    expect(t.config.backupKey).toBeNull();
    const list = await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) });
    expect(list.json<{ encryption: { state: string; message: string } }>().encryption).toEqual({ state: 'missing', message: NO_KEY });
    const now = await t.app.inject({ method: 'POST', url: '/api/backups', headers: bearer(admin) });
    expect(now.statusCode).toBe(503);
    expect(errorOf(now).message).toBe(NO_KEY);
    const job = await t.app.database.db
      .selectFrom('sys_job')
      .select('id')
      .where('method_name', '=', 'scheduledBackup')
      .executeTakeFirstOrThrow();
    const run = await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${String(job.id)}`, headers: bearer(admin) });
    const outcome = run.json<{ success: boolean; message: string }>();
    expect(outcome.success).toBe(false);
    expect(outcome.message).toContain('BACKUP_ENCRYPTION_KEY');
    expect(existsSync(t.config.backupDir) ? (await readdir(t.config.backupDir)).filter((n) => n.startsWith('backup-')) : []).toEqual([]);
  });

  it('the demo (SEED_DEMO) makes a key of its own in DATA_DIR, kept across starts', () => {
    const demo = { ...t.config, seedDemo: true };
    const key = writeKey(demo)!;
    const file = join(t.config.dataDir, DEMO_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(writeKey(demo)!.key.equals(key.key)).toBe(true);
    expect(writeKey(t.config)).toBeNull();
  });

  it('refuses a key that is not 32 bytes at start', () => {
    expect(() => loadConfig({ BACKUP_ENCRYPTION_KEY: 'secret' })).toThrow(/BACKUP_ENCRYPTION_KEY must be 32 random bytes/);
    expect(() => loadConfig({ BACKUP_DECRYPTION_KEYS: `${'a'.repeat(64)},short` })).toThrow(/BACKUP_DECRYPTION_KEYS \(key 2\)/);
    expect(loadConfig({ BACKUP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).backupKey?.key).toEqual(Buffer.alloc(32, 7));
  });
});
