/**
 * The audit of full personal-data reads is written off the request path: the answer does not
 * wait for it, the reads of one user on one resource within a second become one sys_log row with
 * every id read, and closing the server (what SIGTERM ends in) writes what is still waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { seedQuestions } from '../../scripts/bench/seed.ts';
import { FLUSH_MS } from '../../src/server/modules/logs/personal-read-log.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Page } from '../support/answers.ts';
import { until } from '../support/wait.ts';

const readRows = (app: FastifyInstance) =>
  app.database.db
    .selectFrom('sys_log')
    .select(['username', 'description', 'params', 'method'])
    .where('description', 'like', '查看完整个人信息：问题反馈%')
    .execute();

describe.each(testApps())('the log of full personal-data reads on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await start();
    await seedQuestions(t.app.database, 60);
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => t?.close());

  it('answers without writing, then writes one row per user and resource with every id read, within a second or so', async () => {
    // the window held open, so that however slow this machine is the three reads fall in one window
    const log = t.app.personalReadLog as unknown as { flushMs: number };
    expect(log.flushMs).toBe(FLUSH_MS);
    log.flushMs = 600_000;
    const seen: number[] = [];
    try {
      for (let page = 0; page < 3; page++) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/sysQuestion?page=${page}&size=15&sort=id,desc`,
          headers: bearer(admin),
        });
        expect(res.statusCode).toBe(200);
        seen.push(...res.json<Page>().content.map((r) => Number(r.id)));
        expect(await readRows(t.app)).toHaveLength(0); // not on the request path
      }
      await t.app.personalReadLog.flush();
    } finally {
      log.flushMs = FLUSH_MS;
    }
    const rows = await readRows(t.app);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.username).toBe('admin');
    expect(row.method).toBe('GET /api/sysQuestion');
    expect(String(row.description)).toContain(`记录ID: ${seen.slice(0, 30).join(',')} 等45条`);
    const params = JSON.parse(String(row.params)) as { reads: number; ids: number[]; idCount: number };
    expect(params.reads).toBe(3);
    expect(params.idCount).toBe(45);
    expect([...params.ids].sort((a, b) => a - b)).toEqual([...seen].sort((a, b) => a - b));
  });

  it('the window closes by itself: a read is written without anybody flushing', async () => {
    const before = (await readRows(t.app)).length;
    const res = await t.app.inject({ method: 'GET', url: '/api/sysQuestion?page=4&size=5&sort=id,desc', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    await until(async () => (await readRows(t.app)).length === before + 1, 'the read to be written when its window closes');
  });

  it('closing the server writes the reads still waiting: none is lost', async () => {
    const second = await t.reopen();
    const token = await loginAs(second, 'admin', ADMIN_PASSWORD);
    const res = await second.inject({ method: 'GET', url: '/api/sysQuestion?page=3&size=15&sort=id,desc', headers: bearer(token) });
    const ids = res.json<Page>().content.map((r) => Number(r.id));
    expect(ids).toHaveLength(15);
    const before = (await readRows(t.app)).length;
    await second.close(); // at once, well within the flush interval
    const rows = await readRows(t.app);
    expect(rows).toHaveLength(before + 1);
    expect(String(rows.at(-1)!.description)).toContain(ids.join(','));
  });
});
