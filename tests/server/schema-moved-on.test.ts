/**
 * An instance of an earlier version beside a database a newer version has migrated: through an
 * additive step (a new column) it keeps serving; once a column it names is gone (renamed by a
 * reviewed migration) its requests answer 503 数据库结构已由新版本更新… — never a 500 — and its
 * readiness answers 503 from then on, so the balancer moves the traffic to up-to-date instances.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName, resources } from '../../src/generated/resources.ts';
import { SCHEMA_MOVED_ON } from '../../src/server/db/schema-moved-on.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';

const spec = resourceByName.sysQuestion;

describe.each(testApps())('an earlier instance beside a migrated database on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  const create = async () =>
    t.app.inject({
      method: 'POST',
      url: `/${spec.path}`,
      headers: { ...bearer(admin), 'submit-id': submitId() },
      payload: await sampleBody(t.app, admin, resources, spec, 0),
    });
  const list = () => t.app.inject({ method: 'GET', url: `/${spec.path}?page=0&size=10&sort=id,desc`, headers: bearer(admin) });
  const ready = () => t.app.inject({ method: 'GET', url: '/api/health/ready' });

  it('keeps serving through an additive step: a column it does not know', async () => {
    expect((await create()).statusCode).toBe(201);
    await sql`alter table ${sql.table(spec.table)} add column added_by_newer varchar(20)`.execute(t.app.database.db);
    expect((await list()).statusCode).toBe(200);
    expect((await create()).statusCode).toBe(201);
    expect((await ready()).statusCode).toBe(200);
  });

  it('answers 503 with what to do once a column it names is gone, never a 500, and reads not ready from then on', async () => {
    await sql`alter table ${sql.table(spec.table)} rename column remark to suggestion`.execute(t.app.database.db);
    const answers = [
      await create(),
      await list(),
      await t.app.inject({ method: 'GET', url: `/${spec.path}?page=0&size=10&remark=x`, headers: bearer(admin) }),
    ];
    expect(answers.map((r) => r.statusCode)).not.toContain(500);
    const refused = answers.filter((r) => r.statusCode === 503);
    // the write names the column; every refusal says what it is
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.json<{ message: string }>().message).toBe(SCHEMA_MOVED_ON);
    const probe = await ready();
    expect(probe.statusCode).toBe(503);
    expect(probe.json<{ message: string }>().message).toBe(SCHEMA_MOVED_ON);
  });
});
