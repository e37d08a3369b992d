/**
 * One answer for "not yours" and "not there", generated over the schemas and the route
 * catalogue (a new scoped schema or a new route that takes an id is covered without editing
 * this file): for every schema with a data scope, a 本级 user holding every key of the resource
 * asks about a record outside its scope and about an id that does not exist, through every route
 * under the resource's path that takes an id (reads by id, `?id=` look-ups, `:id` routes, update,
 * delete). Status and message must be the same, so an id tells nothing about records the caller
 * may not see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { routeCatalogue } from '../../src/server/auth/index.ts';
import { permissionKey, scopeField, type ResourceSpec } from '../../src/shared/resource-spec.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import { twoDepartments } from './scope-fixtures.ts';
import type { Created } from '../support/answers.ts';

const PASSWORD = 'Hidden_absent1';
const ABSENT = 987654321;
const scoped = resources.filter((s) => scopeField(s) && s.actions.includes('add'));

describe.each(testApps())('hidden and absent records answer alike on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let mine: number;
  let other: number;
  let asked = 0;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    ({ mine, other } = await twoDepartments(t.app, admin));
  }, 60_000);
  afterAll(() => {
    console.log(`hidden = absent: ${scoped.length} scoped schemas, ${asked} pairs of questions`);
    return t?.close();
  });

  it.each(scoped.map((s) => [s.name, s] as [string, ResourceSpec]))('%s', async (name, spec) => {
    const field = scopeField(spec)!;
    const bodyIn = async (deptId: number, variant: number) => {
      const body = await sampleBody(t.app, admin, resources, spec, variant);
      for (const f of spec.fields) if (f.ref?.resource === 'dept' && f.name in body) body[f.name] = deptId;
      body[field.name] = deptId;
      return body;
    };
    const outsideBody = await bodyIn(other, 1);
    const made = await t.app.inject({
      method: 'POST',
      url: `/${spec.path}`,
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: outsideBody,
    });
    expect(made.statusCode, `${name}: ${made.body}`).toBe(201);
    const outside = Number(made.json<Created>().id);
    const keys = spec.actions.map((a) => permissionKey(spec, a === 'add' || a === 'edit' || a === 'del' || a === 'download' ? a : 'list'));
    const user = `${name}_hid`.slice(0, 30);
    await createStaff(t.app, {
      username: user,
      password: PASSWORD,
      permissions: [...new Set([permissionKey(spec, 'list'), ...keys])],
      dataScope: '本级',
      deptId: mine,
    });
    const token = await loginAs(t.app, user, PASSWORD);

    const answer = async (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: unknown) => {
      const res = await t.app.inject({ method, url, headers: { ...bearer(token), submit_id: submitId() }, payload: payload as object });
      let message: string;
      try {
        const m = res.json<{ message?: unknown }>().message;
        message = typeof m === 'string' ? m : '';
      } catch {
        message = res.body.slice(0, 100);
      }
      return `${res.statusCode} ${message}`;
    };
    const same = async (label: string, ask: (id: number) => Promise<string>) => {
      const hidden = await ask(outside);
      const absent = await ask(ABSENT);
      expect(hidden, `${name} ${label}: hidden against absent`).toBe(absent);
      expect(hidden.startsWith('5'), `${name} ${label}: ${hidden}`).toBe(false);
      asked++;
    };

    await same(`GET /${spec.path}?id=`, (id) => answer('GET', `/${spec.path}?id=${id}`));
    if (spec.actions.includes('edit')) {
      const body = await bodyIn(mine, 0);
      await same(`PUT /${spec.path}`, (id) => answer('PUT', `/${spec.path}`, { ...body, id }));
    }
    if (spec.actions.includes('del')) await same(`DELETE /${spec.path}`, (id) => answer('DELETE', `/${spec.path}`, [id]));

    // the phone-location look-up of a record's own mobile
    if (spec.fields.some((f) => f.mask === 'phone'))
      await same('GET /api/kf/phoneToAddress', (id) => answer('GET', `/api/kf/phoneToAddress?resource=${spec.name}&id=${id}`));

    // every other route under the resource's path that names an id
    for (const r of routeCatalogue(t.app)) {
      if (!r.url.startsWith(`/${spec.path}/`)) continue;
      const method = r.method as 'GET' | 'PUT' | 'DELETE' | 'POST';
      if (r.url.includes(':id')) {
        const url = (id: number) => r.url.replace(':id', String(id)).replace(/:[A-Za-z]+/g, '1');
        await same(`${r.method} ${r.url}`, (id) => answer(method, url(id), method === 'GET' ? undefined : {}));
      } else if (method === 'GET' && /ById$|History$|isTjgc$/.test(r.url)) {
        await same(`${r.method} ${r.url}?id=`, (id) => answer('GET', `${r.url}?id=${id}`));
      }
    }
  });
});
