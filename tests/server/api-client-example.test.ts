/**
 * The example client of docs/api.md (scripts/examples/api-client.ts) against a listening server:
 * it signs in through the captcha and the RSA-encrypted password, reads /api/info, a generated
 * list and a hand-written route, and signs out, on every database the suite runs on.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, signIn, signOut, tour, type Captcha } from '../../scripts/examples/api-client.ts';
import { ADMIN_PASSWORD, testApps, type TestApp } from './helpers.ts';

describe.each(testApps())('the example API client on %s', (_dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    t = await start({ captchaEnabled: true });
    app = t.app;
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  /** Reads the answer the way a person reads the image: here from the stored captcha. */
  const answer = async ({ uuid, img }: Captcha) => {
    expect(img).toMatch(/^data:image\/svg\+xml;base64,/);
    const row = await app.database.db.selectFrom('sys_captcha').select('answer').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return String(row.answer);
  };

  it('signs in, reads a generated list and a hand-written route, and signs out', async () => {
    const session = await signIn(base, 'admin', ADMIN_PASSWORD, answer);
    expect(session.token).toMatch(/\S{20,}/);
    expect(session.user.username).toBe('admin');
    expect(session.permissions).toEqual(['admin']);

    const created = await fetch(`${base}/api/sysQuestion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userType: '员工', model: '系统', title: '示例客户端的反馈', content: '由示例客户端写入' }),
    });
    expect(created.status).toBe(201);

    const { info, feedback, departments } = await tour(base, session.token);
    expect(info.user.username).toBe('admin');
    expect(feedback.totalElements).toBeGreaterThanOrEqual(1);
    expect(feedback.content.map((r) => r.title)).toContain('示例客户端的反馈');
    expect(Array.isArray(departments)).toBe(true);
    expect(departments.length).toBeGreaterThan(0);
    for (const d of departments) expect(d.pid).toBe(0);

    await signOut(base, session.token);
    await expect(tour(base, session.token)).rejects.toMatchObject({ status: 401 });
  });

  it('passes the server refusal on as an ApiError with the Chinese message', async () => {
    const err = await signIn(base, 'admin', 'wrong-password', answer).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: '用户名或密码错误' });
  });
});
