import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SUBMIT_ID_TABLE, SUBMIT_ID_WINDOW_MS, SubmitIdGuard } from '../../src/server/submit-id.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';
import { elapse } from '../support/wait.ts';

const Q = '/api/sysQuestion';
const question = (content: string) => ({ userType: '员工', model: '系统', content });

describe.each(testApps())('submit_id duplicate guard on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let other: Record<string, string>;

  const count = async (content: string) =>
    (await app.inject({ method: 'GET', url: `${Q}?size=1000`, headers: admin })).json<Page>().content.filter((r) => r.content === content)
      .length;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    await createStaff(app, { username: 'other', password: 'Other@2024', permissions: ['sysQuestion:add'] });
    other = bearer(await loginAs(app, 'other', 'Other@2024'));
  });
  afterAll(async () => t?.close());

  it('a repeated create with the same submit_id is not applied twice (409 请勿重复提交)', async () => {
    const id = submitId();
    const first = await app.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('只提交一次') });
    expect(first.statusCode).toBe(201);
    const second = await app.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('只提交一次') });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).message).toBe('请勿重复提交');
    expect(await count('只提交一次')).toBe(1);
    // a new submit_id is a new write
    const third = await app.inject({
      method: 'POST',
      url: Q,
      headers: { ...admin, submit_id: submitId() },
      payload: question('只提交一次'),
    });
    expect(third.statusCode).toBe(201);
    expect(await count('只提交一次')).toBe(2);
  });

  it('concurrent duplicates apply once', async () => {
    const id = submitId();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('并发提交') }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await count('并发提交')).toBe(1);
  });

  it('guards updates and deletes too, and another user may use the same id', async () => {
    const created = (await app.inject({ method: 'POST', url: Q, headers: admin, payload: question('更新删除') })).json<Created>();
    const id = submitId();
    expect(
      (await app.inject({ method: 'PUT', url: Q, headers: { ...admin, submit_id: id }, payload: { ...created, status: true } })).statusCode,
    ).toBe(204);
    expect((await app.inject({ method: 'DELETE', url: Q, headers: { ...admin, submit_id: id }, payload: [created.id] })).statusCode).toBe(
      409,
    );
    expect(await count('更新删除')).toBe(1);
    expect(
      (await app.inject({ method: 'POST', url: Q, headers: { ...other, submit_id: id }, payload: question('别人的提交') })).statusCode,
    ).toBe(201);
    // reads are never guarded
    expect((await app.inject({ method: 'GET', url: Q, headers: { ...admin, submit_id: id } })).statusCode).toBe(200);
  });

  it('a rejected write does not use up its submit_id', async () => {
    const id = submitId();
    const bad = await app.inject({
      method: 'POST',
      url: Q,
      headers: { ...admin, submit_id: id },
      payload: { userType: '员工', content: '缺模块' },
    });
    expect(bad.statusCode).toBe(400);
    const fixed = await app.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('缺模块') });
    expect(fixed.statusCode).toBe(201);
  });

  it('the id is given back before the refusal is answered, however slow the database', async () => {
    // a slow release would otherwise still hold the id when the corrected form arrives
    // the original method, read off the prototype unbound: the slow one calls it on each guard, and it is put back after
    const release = Object.getOwnPropertyDescriptor(SubmitIdGuard.prototype, 'release')!.value as SubmitIdGuard['release'];
    SubmitIdGuard.prototype.release = async function slow(this: SubmitIdGuard, owner: string, id: string) {
      await elapse(100); // a slow database
      return release.call(this, owner, id);
    };
    try {
      const id = submitId();
      const bad = await app.inject({
        method: 'POST',
        url: Q,
        headers: { ...admin, submit_id: id },
        payload: { userType: '员工', content: '慢释放' },
      });
      expect(bad.statusCode).toBe(400);
      const fixed = await app.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('慢释放') });
      expect(fixed.statusCode).toBe(201);
    } finally {
      SubmitIdGuard.prototype.release = release;
    }
  });

  it('refuses a malformed submit_id', async () => {
    for (const id of ['short', 'x'.repeat(65), "1234567890abcdef' or 1=1", '12345678-90abcdef-1234']) {
      const res = await app.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('格式') });
      expect(res.statusCode, id).toBe(400);
      expect(errorOf(res).message).toBe('submit_id格式不正确');
    }
    expect(await count('格式')).toBe(0);
  });

  it('holds across instances on the same database', async () => {
    const second = await t.reopen();
    const id = submitId();
    expect(
      (await app.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('两个实例') })).statusCode,
    ).toBe(201);
    const dup = await second.inject({ method: 'POST', url: Q, headers: { ...admin, submit_id: id }, payload: question('两个实例') });
    expect(dup.statusCode).toBe(409);
    expect(await count('两个实例')).toBe(1);
  });

  it('forgets ids after the window and prunes old rows', async () => {
    const guard = new SubmitIdGuard(app.database);
    const now = Date.now() + 3600_000;
    expect(await guard.claim('t:test', 'AAAAAAAAAAAAAAAA', now)).toBe(true);
    expect(await guard.claim('t:test', 'AAAAAAAAAAAAAAAA', now + 1000)).toBe(false);
    expect(await guard.claim('t:test', 'AAAAAAAAAAAAAAAA', now + SUBMIT_ID_WINDOW_MS + 1)).toBe(true);
    expect(await guard.claim('t:test', 'BBBBBBBBBBBBBBBB', now + 3 * SUBMIT_ID_WINDOW_MS)).toBe(true);
    const left = await app.database.db.selectFrom(SUBMIT_ID_TABLE).select('submit_id').where('owner', '=', 't:test').execute();
    expect(left.map((r): unknown => r.submit_id)).toEqual(['BBBBBBBBBBBBBBBB']);
  });
});
