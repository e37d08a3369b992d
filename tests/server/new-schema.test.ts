/**
 * Adding a plain CRUD entity needs one schema file and nothing else: a throwaway schema in a
 * temporary copy of schemas/ goes through codegen, and the server built from that output has
 * its table, its routes, its validation messages and its permission keys.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodegen } from '../../codegen/main.ts';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { tmpThingSchema } from '../unit/helpers/tmp-thing.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';
import { createStaff, loginAs } from './auth-helpers.ts';

let specs: ResourceSpec[];
const work = mkdtempSync(join(tmpdir(), 'dealer-console-new-schema-'));

beforeAll(async () => {
  const schemas = join(work, 'schemas');
  cpSync(resolve('schemas'), schemas, { recursive: true });
  writeFileSync(join(schemas, 'tmpThing.json'), JSON.stringify(tmpThingSchema(), null, 2));
  const out = join(work, 'generated');
  await runCodegen(schemas, out);
  // the generated module is what the server imports; load it from the temporary output
  specs = ((await import(pathToFileURL(join(out, 'resources.ts')).href)) as { resources: ResourceSpec[] }).resources;
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(testApps())('a new schema on %s', (_dialect, startApp) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startApp({}, { resources: specs });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t?.close());

  it('gets its table from codegen output alone', async () => {
    expect(specs.map((s) => s.name)).toContain('tmpThing');
    const tables = await t.app.database.db.introspection.getTables();
    const table = tables.find((x) => x.name === 'tmp_thing');
    expect(table?.columns.map((c) => c.name).sort()).toEqual(
      ['active', 'amount', 'create_time', 'id', 'kind', 'name', 'on_date', 'phone_no'].sort(),
    );
  });

  it('gets its routes with validation, paging and filters', async () => {
    const url = '/api/tmpThing';
    const bad = await t.app.inject({ method: 'POST', url, headers: bearer(admin), payload: { kind: '甲' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toBe('名称不能为空');
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(admin),
      payload: { name: '样品', amount: 12.5, phone: '13912345678' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<Created>().id;
    const list = await t.app.inject({
      method: 'GET',
      url: `${url}?page=0&size=10&name=${encodeURIComponent('样')}`,
      headers: bearer(admin),
    });
    expect(list.json()).toMatchObject({ totalElements: 1, content: [{ id, name: '样品', kind: '甲', active: true }] });
    const put = await t.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { id, name: '样品二' } });
    expect(put.statusCode).toBe(204);
    const download = await t.app.inject({ method: 'GET', url: `${url}/download`, headers: bearer(admin) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const del = await t.app.inject({ method: 'DELETE', url, headers: bearer(admin), payload: [id] });
    expect(del.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url, headers: bearer(admin) });
    expect(after.json<Page>().totalElements).toBe(0);
  });

  it('gets its permission keys: a staff member needs tmpThing:add to create', async () => {
    await createStaff(t.app, { username: 'thing_reader', password: 'Reader@1234', permissions: [] });
    await createStaff(t.app, { username: 'thing_writer', password: 'Writer@1234', permissions: ['tmpThing:add'] });
    const reader = await loginAs(t.app, 'thing_reader', 'Reader@1234');
    const writer = await loginAs(t.app, 'thing_writer', 'Writer@1234');
    const body = { name: '权限样品' };
    const denied = await t.app.inject({ method: 'POST', url: '/api/tmpThing', headers: bearer(reader), payload: body });
    expect(denied.statusCode).toBe(403);
    // a new schema is closed to readers without its :list key
    expect((await t.app.inject({ method: 'GET', url: '/api/tmpThing', headers: bearer(reader) })).statusCode).toBe(403);
    const allowed = await t.app.inject({ method: 'POST', url: '/api/tmpThing', headers: bearer(writer), payload: body });
    expect(allowed.statusCode).toBe(201);
    const menuKeys = await t.app.database.db
      .selectFrom('sys_menu')
      .select('permission')
      .where('permission', 'like', 'tmpThing:%')
      .execute();
    expect(menuKeys.map((m): unknown => m.permission).sort()).toEqual(
      // its phone is personal data (x-mask): the key that shows it in full comes with it
      [
        'tmpThing:add',
        'tmpThing:del',
        'tmpThing:download',
        'tmpThing:edit',
        'tmpThing:import',
        'tmpThing:list',
        'tmpThing:sensitive',
      ].sort(),
    );
  });
});
