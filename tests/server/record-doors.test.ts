/**
 * One guard for every record, generated over the route table (a new route that takes an id, or a
 * new scoped schema, is covered without editing this file). For the users and departments tables
 * and every schema with a data scope, admin makes two records in another department and deletes
 * one; a user holding every key of the resource then asks every route under the resource's
 * path (read by id, `/{id}/history`, restore to a version, the recycle bin's restore and purge,
 * update, delete, look-ups by `?id=`) about three ids: a live record outside its scope, an id that
 * never existed, and the record deleted outside its scope; once with data scope 本级 and once with
 * 自定义 naming its own department. The id goes where the route takes one:
 * its `:id`, `?id=` on a GET, `{id}` on a PUT, `[id]` on a POST or DELETE. The three answers
 * (status and message, the asked id written as ID) must be the same. Prints the routes covered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { routeCatalogue } from '../../src/server/auth/index.ts';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import { permissionKey, scopeField, type ResourceSpec } from '../../src/shared/resource-spec.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import { twoDepartments } from './scope-fixtures.ts';
import type { Created } from '../support/answers.ts';

const PASSWORD = 'Doors_pass1';
const ABSENT = 987654321;
const scoped = resources.filter((s) => scopeField(s) && s.actions.includes('add'));

interface Door {
  name: string;
  path: string;
  keys: string[];
  /** makes a record in department `dept` as admin; answers its id */
  make: (dept: number, variant: number) => Promise<number>;
}

describe.each(testApps())('every door asks the one guard on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let mine: number;
  let other: number;
  const covered = new Set<string>();
  let asked = 0;

  const call = async (token: string, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(token), ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const made = async (url: string, body: unknown) => {
    const res = await call(admin, 'POST', url, body);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return Number(res.json<Created>().id);
  };

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    ({ mine, other } = await twoDepartments(t.app, admin));
  }, 60_000);
  afterAll(() => {
    console.log(`record doors: ${covered.size} routes taking an id, ${asked} triples of questions (hidden, absent, deleted and hidden)`);
    return t?.close();
  });

  const root = async () =>
    Number((await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id);
  let roleId: number | undefined;
  const role = async () => (roleId ??= await made('/api/roles', { name: '门岗位', level: 3, dataScope: '本级', description: '' }));
  const doors = (): Door[] => [
    {
      name: 'users',
      path: 'api/users',
      keys: ['user:list', 'user:add', 'user:edit', 'user:del'],
      make: async (dept, variant) =>
        made('/api/users', {
          username: `door_user_${variant}`,
          nickName: `门${variant}`,
          phone: `1390013900${variant}`,
          email: `door${variant}@example.com`,
          sex: 0,
          enabled: true,
          deptId: dept,
          orgId: await root(),
          roles: [{ id: await role() }],
        }),
    },
    {
      name: 'dept',
      path: 'api/dept',
      keys: ['dept:list', 'dept:add', 'dept:edit', 'dept:del'],
      make: async (dept, variant) => made('/api/dept', { name: `门部${variant}`, pid: dept, sort: 1, enabled: true }),
    },
    ...scoped.map((spec: ResourceSpec): Door => ({
      name: spec.name,
      path: spec.path,
      keys: [...new Set([permissionKey(spec, 'list'), ...spec.actions.map((a) => permissionKey(spec, a))])],
      make: async (dept, variant) => {
        const body = await sampleBody(t.app, admin, resources, spec, variant);
        for (const f of spec.fields) if (f.ref?.resource === 'dept' && f.name in body) body[f.name] = dept;
        body[scopeField(spec)!.name] = dept;
        return made(`/${spec.path}`, body);
      },
    })),
  ];

  // 本级, and 自定义 naming the caller's own department (both leave the other department out)
  const scopes = [['本级'], ['自定义']] as const;
  it.each(doors().flatMap((d) => scopes.map(([scope]) => [d.name, scope] as [string, '本级' | '自定义'])))(
    '%s, %s',
    async (name, scope) => {
      const door = doors().find((d) => d.name === name)!;
      const variant = scope === '本级' ? 0 : 2;
      const hidden = await door.make(other, variant);
      const gone = await door.make(other, variant + 1);
      const del = await call(admin, 'DELETE', `/${door.path}`, [gone]);
      expect(del.statusCode, del.body).toBe(200);
      // a version of the hidden record to name in restore routes
      const revision = Number(
        (
          await t.app.database.db
            .selectFrom(REVISION_TABLE)
            .select('id')
            .where('record_id', '=', hidden)
            .orderBy('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
      const user = `door_${scope === '本级' ? 'b' : 'c'}_${name}`.slice(0, 30);
      await createStaff(t.app, {
        username: user,
        password: PASSWORD,
        permissions: door.keys,
        dataScope: scope,
        deptId: mine,
        customDepts: scope === '自定义' ? [mine] : undefined,
      });
      const token = await loginAs(t.app, user, PASSWORD);

      const answer = async (method: string, url: string, payload: unknown, id: number) => {
        const res = await call(token, method, url, payload);
        let message: string;
        try {
          const m = res.json<{ message?: unknown }>().message;
          message = typeof m === 'string' ? m : '';
        } catch {
          message = '';
        }
        return `${res.statusCode} ${message.split(String(id)).join('ID')}`;
      };
      const base = `/${door.path}`;
      // routes of a caller (a public route, an open posting for one, has no scope to keep)
      const routes = routeCatalogue(t.app).filter(
        (r) => (r.url === base || r.url.startsWith(`${base}/`)) && !r.url.includes('*') && (r.authenticated || !!r.identity),
      );
      const wrong: string[] = [];
      // writes last: a door that let a hidden record through must not change what the reads find
      const order = (m: string) => ['GET', 'PUT', 'POST', 'DELETE'].indexOf(m);
      for (const r of [...routes].sort((a, b) => order(a.method) - order(b.method))) {
        const takesPathId = r.url.includes(':id');
        const ask = (id: number) => {
          const url = takesPathId ? r.url.replace(':id', String(id)).replace(/:[A-Za-z]+/g, String(revision)) : r.url;
          if (r.method === 'GET') return answer('GET', takesPathId ? url : `${url}?id=${id}`, undefined, id);
          if (r.method === 'PUT') return answer('PUT', url, takesPathId ? {} : { id }, id);
          return answer(r.method, url, [id], id);
        };
        if (/:[A-Za-z]+/.test(r.url) && !takesPathId) continue;
        const answers = [await ask(hidden), await ask(ABSENT), await ask(gone)];
        covered.add(`${r.method} ${r.url}`);
        asked++;
        if (new Set(answers).size !== 1)
          wrong.push(`${r.method} ${r.url}: hidden ${answers[0]} / absent ${answers[1]} / deleted ${answers[2]}`);
        if (answers.some((a) => a.startsWith('5'))) wrong.push(`${r.method} ${r.url}: ${answers.join(' / ')}`);
      }
      expect(wrong).toEqual([]);
      // the doors that matter most were among them
      for (const door of ['GET /:id/history', 'POST /recycleBin/restore', 'DELETE /recycleBin'])
        expect(
          routes.some((r) => `${r.method} ${r.url.slice(base.length)}` === door.replace('/:id', '/:id')),
          `${name} ${door}`,
        ).toBe(true);
    },
  );
});
