/**
 * The second copy of a scheduled backup in an S3-compatible store (BACKUP_S3_*), on SQLite and
 * PostgreSQL, against a fake store started by the test that checks each request's Signature
 * Version 4 with an independent signer (the aws4 package) and its body against
 * x-amz-content-sha256, as S3 does:
 * - the scheduled run puts the archive under BUCKET/PREFIX+name, byte for byte the local file,
 *   and says so in the job log;
 * - a store that refuses the copy (a wrong secret: 403 SignatureDoesNotMatch) fails the run: the
 *   job log names the refusal, the administrators are told, the local backup is still made;
 * - the variables are all or none.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import aws4 from 'aws4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { BACKUP_FAILED_TITLE } from '../../src/server/modules/backup/notices.ts';
import type { S3Target } from '../../src/server/modules/backup/s3-copy.ts';
import type { BackupInfo } from '../../src/server/modules/backup/store.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { TEST_BACKUP_KEY } from './backup-helpers.ts';

const KEY_ID = 'AKIDFAKESTORE';
const SECRET = 'fake-store-secret/key+1';
const REGION = 'cn-test-1';

interface FakeStore {
  url: string;
  objects: Map<string, Buffer>;
  refusals: string[];
  close(): Promise<void>;
}

const refuse = (res: http.ServerResponse, status: number, code: string) =>
  res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><Error><Code>${code}</Code></Error>`);

/** A store answering PUTs as S3 does: the signature checked, the body checked against its hash. */
async function fakeStore(): Promise<FakeStore> {
  const objects = new Map<string, Buffer>();
  const refusals: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const auth = req.headers.authorization ?? '';
      const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1].split(';') ?? [];
      const headers: Record<string, string> = {};
      for (const name of signed) if (name !== 'host') headers[name] = String(req.headers[name] ?? '');
      const expected = aws4.sign(
        { host: req.headers.host, path: req.url, method: req.method, service: 's3', region: REGION, headers },
        { accessKeyId: KEY_ID, secretAccessKey: SECRET },
      ).headers!.Authorization;
      if (req.method !== 'PUT') return refuse(res, 405, 'MethodNotAllowed');
      if (!signed.includes('host') || !signed.includes('x-amz-content-sha256') || auth !== expected) {
        refusals.push('SignatureDoesNotMatch');
        return refuse(res, 403, 'SignatureDoesNotMatch');
      }
      if (createHash('sha256').update(body).digest('hex') !== req.headers['x-amz-content-sha256']) {
        refusals.push('XAmzContentSHA256Mismatch');
        return refuse(res, 400, 'XAmzContentSHA256Mismatch');
      }
      objects.set(decodeURIComponent(req.url!), body);
      res.writeHead(200, { etag: '"x"' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, objects, refusals, close: () => new Promise((r) => server.close(() => r())) };
}

describe('BACKUP_S3_* settings', () => {
  it('are all or none', () => {
    expect(loadConfig({}).backupS3).toBeNull();
    const env = {
      BACKUP_S3_ENDPOINT: 'https://s3.example.com',
      BACKUP_S3_BUCKET: 'dealer-backups',
      BACKUP_S3_ACCESS_KEY_ID: 'id',
      BACKUP_S3_SECRET_ACCESS_KEY: 'secret',
      BACKUP_S3_PREFIX: '/console/',
    };
    expect(loadConfig(env).backupS3).toEqual({
      endpoint: 'https://s3.example.com',
      bucket: 'dealer-backups',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      prefix: 'console/',
    });
    expect(() => loadConfig({ ...env, BACKUP_S3_BUCKET: '' })).toThrow(/BACKUP_S3_BUCKET/);
    expect(() => loadConfig({ ...env, BACKUP_S3_SECRET_ACCESS_KEY: '' })).toThrow(/BACKUP_S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ ...env, BACKUP_S3_ENDPOINT: 's3.example.com' })).toThrow(ConfigError);
  });
});

describe.each(testApps())('the second copy in S3 on %s', (_name, start) => {
  let t: TestApp;
  let store: FakeStore;
  let token: string;
  let target: S3Target;

  beforeAll(async () => {
    store = await fakeStore();
    target = {
      endpoint: store.url,
      bucket: 'dealer-backups',
      region: REGION,
      accessKeyId: KEY_ID,
      secretAccessKey: SECRET,
      prefix: 'console/',
    };
    t = await start({ backupS3: target, diskWarnFreeMb: 0, backupKey: TEST_BACKUP_KEY });
    token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  const runSchedule = async () => {
    const job = await t.app.database.db
      .selectFrom('sys_job')
      .select('id')
      .where('method_name', '=', 'scheduledBackup')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${String(job.id)}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ success: boolean; message: string }>();
  };
  const backups = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(token) })).json<{ content: BackupInfo[] }>().content;

  it('puts each scheduled backup into the store, byte for byte, and says so in the job log', async () => {
    const run = await runSchedule();
    expect(run.success, run.message).toBe(true);
    const [made] = await backups();
    const key = `/dealer-backups/console/${made.name}`;
    expect(run.message).toContain(`已另存一份到对象存储 dealer-backups/console/${made.name}`);
    expect([...store.objects.keys()]).toEqual([key]);
    expect(store.objects.get(key)!.equals(readFileSync(join(t.config.backupDir, made.name)))).toBe(true);
  });

  it('a copy the store refuses fails the run and tells the administrators; the local backup is made', async () => {
    const before = (await backups()).length;
    t.app.config.backupS3 = { ...target, secretAccessKey: 'not-the-secret' };
    try {
      const run = await runSchedule();
      expect(run.success).toBe(false);
      expect(run.message).toMatch(/备份完成：.+；但另存到对象存储失败：S3 answered 403 SignatureDoesNotMatch/);
    } finally {
      t.app.config.backupS3 = target;
    }
    expect(store.refusals).toEqual(['SignatureDoesNotMatch']);
    expect(store.objects.size).toBe(1);
    expect((await backups()).length).toBe(before + 1);
    const told = await t.app.database.db.selectFrom('sys_socket').select('title').where('title', '=', BACKUP_FAILED_TITLE).execute();
    expect(told).toHaveLength(1);
  });
});
