import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  CODE_MESSAGES,
  CODE_TTL_MS,
  createCodeService,
  DAY_MS,
  MAX_ATTEMPTS,
  MAX_SENDS_PER_DAY,
  purgeExpiredCodes,
  RESEND_MS,
  type CodeService,
} from '../../src/server/modules/account/codes.ts';
import { OutboxMail } from '../../src/server/providers/mail.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { OutboxSms, type SmsProvider } from '../../src/server/providers/sms.ts';
import { codeFromOutbox } from './account-helpers.ts';
import { errorOf, testApps, type TestApp } from './helpers.ts';

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe.each(testApps())('verification codes on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let clock = Date.parse('2024-06-01T09:00:00Z');
  let codes: CodeService;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    const db = app.database.db;
    codes = createCodeService(db, { sms: new OutboxSms(db), mail: new OutboxMail(db) }, () => clock);
  });
  afterAll(async () => t?.close());

  it('sends 6 digits by SMS to a phone and by e-mail to an address, through the outbox', async () => {
    await codes.sendCode('13800000001', 'test');
    await codes.sendCode('a@example.com', 'test');
    const sms = await codeFromOutbox(app, '13800000001');
    const mail = await codeFromOutbox(app, 'a@example.com');
    expect(sms).toMatch(/^\d{6}$/);
    expect(mail).toMatch(/^\d{6}$/);
    const rows = await app.database.db.selectFrom('sys_outbox').select(['channel', 'target']).orderBy('id').execute();
    expect(rows.map((r) => `${r.channel}:${r.target}`)).toEqual(['sms:13800000001', 'email:a@example.com']);
    // only a hash is stored
    const stored = await app.database.db
      .selectFrom('sys_verify_code')
      .select('code_hash')
      .where('target', '=', '13800000001')
      .executeTakeFirstOrThrow();
    expect(stored.code_hash).not.toContain(sms);
  });

  it('is single use', async () => {
    await codes.sendCode('13800000002', 'once');
    const code = await codeFromOutbox(app, '13800000002');
    expect(await codes.verifyCode('13800000002', 'once', code)).toBe(true);
    expect(await codes.verifyCode('13800000002', 'once', code)).toBe(false);
  });

  it('belongs to its target and purpose', async () => {
    await codes.sendCode('13800000003', 'a');
    const code = await codeFromOutbox(app, '13800000003');
    expect(await codes.verifyCode('13800000003', 'b', code)).toBe(false);
    expect(await codes.verifyCode('13800000004', 'a', code)).toBe(false);
    expect(await codes.verifyCode('13800000003', 'a', code)).toBe(true);
  });

  it('expires after 5 minutes', async () => {
    await codes.sendCode('13800000005', 'ttl');
    const code = await codeFromOutbox(app, '13800000005');
    clock += CODE_TTL_MS;
    expect(await codes.verifyCode('13800000005', 'ttl', code)).toBe(false);
    await expect(codes.requireCode('13800000005', 'ttl', code)).rejects.toMatchObject({ status: 400, message: CODE_MESSAGES.missing });
  });

  it('allows one send per 60 s per target, with the seconds left in the message', async () => {
    await codes.sendCode('13800000006', 'resend');
    const first = await codeFromOutbox(app, '13800000006');
    clock += 20_000;
    await expect(codes.sendCode('13800000006', 'resend')).rejects.toMatchObject({ status: 429, message: CODE_MESSAGES.tooSoon(40) });
    // another target is not held back
    await codes.sendCode('13800000007', 'resend');
    clock += RESEND_MS - 20_000;
    await codes.sendCode('13800000006', 'resend');
    const second = await codeFromOutbox(app, '13800000006');
    // the new code replaces the old one
    if (second !== first) expect(await codes.verifyCode('13800000006', 'resend', first)).toBe(false);
    expect(await codes.verifyCode('13800000006', 'resend', second)).toBe(true);
  });

  it(`sends at most ${MAX_SENDS_PER_DAY} codes a day to one target`, async () => {
    for (let i = 0; i < MAX_SENDS_PER_DAY; i++) {
      await codes.sendCode('13800000011', 'daily');
      clock += RESEND_MS;
    }
    await expect(codes.sendCode('13800000011', 'daily')).rejects.toMatchObject({ status: 429, message: CODE_MESSAGES.dailyLimit });
    // the last code still works; a day after the first send the count starts again
    expect(await codes.verifyCode('13800000011', 'daily', await codeFromOutbox(app, '13800000011'))).toBe(true);
    clock += DAY_MS - MAX_SENDS_PER_DAY * RESEND_MS;
    await codes.sendCode('13800000011', 'daily');
    clock += RESEND_MS;
    await codes.sendCode('13800000011', 'daily');
  });

  it(`spoils the code after ${MAX_ATTEMPTS} wrong tries`, async () => {
    await codes.sendCode('13800000008', 'tries');
    const code = await codeFromOutbox(app, '13800000008');
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      await expect(codes.requireCode('13800000008', 'tries', wrongOf(code))).rejects.toMatchObject({ message: CODE_MESSAGES.wrong });
    }
    await expect(codes.requireCode('13800000008', 'tries', 'abc')).rejects.toMatchObject({ message: CODE_MESSAGES.tooManyAttempts });
    await expect(codes.requireCode('13800000008', 'tries', code)).rejects.toMatchObject({ message: CODE_MESSAGES.tooManyAttempts });
    await expect(codes.requireCode('13800000008', 'tries', '')).rejects.toMatchObject({ message: CODE_MESSAGES.required });
  });

  it('a failed send can be retried at once and leaves no code', async () => {
    const broken: SmsProvider = { kind: 'outbox', sendCode: async () => Promise.reject(new Error('down')) };
    const db = app.database.db;
    const failing = createCodeService(db, { sms: broken, mail: new OutboxMail(db) }, () => clock);
    await expect(failing.sendCode('13800000009', 'x')).rejects.toMatchObject({ status: 502, message: CODE_MESSAGES.sendFailed });
    await codes.sendCode('13800000009', 'x');
    expect(await codes.verifyCode('13800000009', 'x', await codeFromOutbox(app, '13800000009'))).toBe(true);
  });

  it('sendCodeAside answers before the provider has sent, keeps the limits, and a failure frees the slot and is reported', async () => {
    const db = app.database.db;
    let release!: () => void;
    let fail = false;
    const held: SmsProvider = {
      kind: 'outbox',
      sendCode: async (phone, code) => {
        await new Promise<void>((r) => (release = r));
        if (fail) throw new Error('down');
        await new OutboxSms(db).sendCode(phone, code);
      },
    };
    const failures: unknown[] = [];
    const slow = createCodeService(
      db,
      { sms: held, mail: new OutboxMail(db) },
      () => clock,
      (err) => failures.push(err),
    );
    // the answer comes while the provider still holds the message
    await slow.sendCodeAside('13800000013', 'aside');
    expect(await latestOutbox(db, '13800000013')).toBeFalsy();
    await expect(slow.sendCodeAside('13800000013', 'aside')).rejects.toMatchObject({ status: 429 });
    release();
    await slow.settled();
    expect(await slow.verifyCode('13800000013', 'aside', await codeFromOutbox(app, '13800000013'))).toBe(true);
    // a provider that fails: nothing reaches the caller, the failure is reported, the number may ask again at once
    fail = true;
    await slow.sendCodeAside('13800000014', 'aside');
    release();
    await slow.settled();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ status: 502 });
    expect(await latestOutbox(db, '13800000014')).toBeFalsy();
    fail = false;
    await slow.sendCodeAside('13800000014', 'aside');
    release();
    await slow.settled();
    expect(await slow.verifyCode('13800000014', 'aside', await codeFromOutbox(app, '13800000014'))).toBe(true);
  });

  it('codes are shared by every instance on the database', async () => {
    const other = await t.reopen();
    const db2 = other.database.db;
    const codes2 = createCodeService(db2, { sms: new OutboxSms(db2), mail: new OutboxMail(db2) }, () => clock);
    await codes.sendCode('13800000010', 'multi');
    await expect(codes2.sendCode('13800000010', 'multi')).rejects.toMatchObject({ status: 429 });
    expect(await codes2.verifyCode('13800000010', 'multi', await codeFromOutbox(app, '13800000010'))).toBe(true);
  });

  it('purgeExpiredCodes removes codes once neither the resend rule nor the daily cap needs them', async () => {
    const before = await app.database.db
      .selectFrom('sys_verify_code')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(before.n)).toBeGreaterThan(0);
    await codes.sendCode('13800000012', 'purge');
    // expired, but its day is not over: kept for the daily cap
    await purgeExpiredCodes(app.database.db, clock + CODE_TTL_MS + RESEND_MS + 1);
    expect(
      await app.database.db.selectFrom('sys_verify_code').select('target').where('target', '=', '13800000012').executeTakeFirst(),
    ).toBeTruthy();
    expect(await purgeExpiredCodes(app.database.db, clock + DAY_MS + 1)).toBeGreaterThan(0);
    const after = await app.database.db
      .selectFrom('sys_verify_code')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(0);
  });

  it('the send routes validate the target and answer 发送成功，验证码有效期5分钟', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/code/resetEmail', payload: { value: 'x@example.com' } });
    expect(res.statusCode).toBe(401);
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/sendMsg?phone=123' })).message).toBe('请输入正确的11位手机号码');
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/sendMsg' })).message).toBe('请输入电话号码');
    // a number not on file: the same answer as one that is (and no SMS)
    const unknown = await app.inject({ method: 'GET', url: '/api/sendMsg?phone=13900000000' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json<{ message: string }>().message).toBe('发送成功，验证码有效期5分钟');
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/sendMsg?phone[]=1' })).status).toBe(400);
  });

  it('the public look-up is rate-limited per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await app.inject({ method: 'GET', url: '/api/findByPhone?phone=13900000000&code=123456', remoteAddress: '10.9.9.9' })).statusCode,
      );
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
    // another address is not held back
    expect(
      (await app.inject({ method: 'GET', url: '/api/findByPhone?phone=13900000000&code=123456', remoteAddress: '10.9.9.8' })).statusCode,
    ).toBe(400);
  });
});
