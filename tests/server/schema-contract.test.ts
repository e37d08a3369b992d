/**
 * The CRUD contract of EVERY generated resource spec, walked from the spec alone, so a schema
 * is covered the moment `npm run codegen` sees it: its menu and permission keys, create with a
 * body built from the schema, list with each declared filter (the record found, a different
 * one left out), blurry search, every list column as a sort key (ascending is the reverse of
 * descending), update, the x-entity capabilities it declares (updateEnabled, queryAll, total),
 * export, import of the exported file, and delete. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { listFields, uniqueRules, type FieldSpec, type ResourceSpec } from '../../src/shared/resource-spec.ts';
import { dependentsOf } from '../../src/server/crud/index.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import { sampleBody, writableFields } from './sample-records.ts';
import { CONTRACT_FIXTURES } from './contract-fixtures.ts';
import { createRecord } from '../../src/server/crud/repository.ts';
import type { Created, ErrorBody, Page } from '../support/answers.ts';

type Rec = Record<string, unknown>;

/** A field value as text. The schemas' types are integer, number, string and boolean: a value is a scalar or null. */
const text = (value: unknown): string => String(value);

function qs(params: Array<[string, unknown]>): string {
  return params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
}

/** Query values of a filter that select `value`. */
function filterQuery(field: FieldSpec, value: unknown): Array<[string, unknown]> | undefined {
  if (value === null || value === undefined) return undefined;
  switch (field.filter) {
    case 'eq':
      return [[field.name, value]];
    case 'in':
      return [[field.name, value]];
    case 'like': {
      const t = text(value);
      return [[field.name, t.length > 1 ? t.slice(0, -1) : t]];
    }
    case 'between': {
      const v = field.format === 'date-time' ? text(value).slice(0, 10) : value;
      return [
        [field.name, v],
        [field.name, v],
      ];
    }
    default:
      return undefined;
  }
}

/** Whether a record with `other` would also match the filter built for `value`. */
function alsoMatches(field: FieldSpec, value: unknown, other: unknown): boolean {
  if (field.filter === 'like') return text(other ?? '').includes(String(value).length > 1 ? String(value).slice(0, -1) : String(value));
  if (field.filter === 'between' && field.format === 'date-time') return text(other ?? '').slice(0, 10) === String(value).slice(0, 10);
  return String(other) === String(value);
}

describe.each(testApps())('the CRUD contract of every schema on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(admin) });
  const listOf = async (spec: ResourceSpec, params: Array<[string, unknown]>): Promise<Rec[]> => {
    const res = await get(`/${spec.path}?${qs([['page', 0], ['size', 100], ...params])}`);
    expect(res.statusCode, `${spec.name} list ${res.body}`).toBe(200);
    return res.json<Page<Rec>>().content;
  };

  it('covers every generated resource', () => {
    expect(resources.length).toBeGreaterThanOrEqual(20);
  });

  describe.each(resources.map((spec) => [spec.name, spec] as const))('%s', (_name, spec) => {
    let a: Rec;
    let b: Rec;
    const pair = () =>
      [
        ['id', a.id],
        ['id', b.id],
      ] as Array<[string, unknown]>;

    it('has its menu and one permission key per action', async () => {
      const rows = await t.app.database.db
        .selectFrom('sys_menu')
        .select('permission')
        .where('permission', 'like', `${spec.permission}:%`)
        .execute();
      const keys = rows.map((r) => String(r.permission));
      for (const action of spec.actions) expect(keys).toContain(`${spec.permission}:${action}`);
      expect(keys).toContain(`${spec.permission}:list`);
    });

    it('creates two records from bodies built from the schema', async () => {
      const created: Rec[] = [];
      const writeOnly = new Set(CONTRACT_FIXTURES[spec.name]?.writeOnly ?? []);
      for (const variant of [0, 1]) {
        const body = await sampleBody(t.app, admin, resources, spec, variant);
        let record: Rec;
        if (spec.actions.includes('add')) {
          const res = await t.app.inject({ method: 'POST', url: `/${spec.path}`, headers: bearer(admin), payload: body });
          expect(res.statusCode, res.body).toBe(201);
          record = res.json<Rec>();
          for (const k of writeOnly) expect(record, `${spec.name}.${k} is never answered`).not.toHaveProperty(k);
        } else {
          // records made by the resource's own flow (no generic create): stored directly for the walk
          record = await createRecord(t.app.database, spec, body, { username: 'admin' });
        }
        for (const [k, v] of Object.entries(body)) if (!writeOnly.has(k)) expect(record[k], `${spec.name}.${k}`).toEqual(v);
        created.push(record);
      }
      [a, b] = created;
    });

    it('lists with each declared filter: the record is found, a different one is not', async () => {
      const filtered = spec.fields.filter((f) => f.filter);
      for (const field of filtered) {
        const params = filterQuery(field, a[field.name]);
        if (!params) continue;
        const ids = (await listOf(spec, [...params, ...pair()])).map((r) => r.id);
        expect(ids, `${spec.name} ?${qs(params)}`).toContain(a.id);
        if (!alsoMatches(field, a[field.name], b[field.name]))
          expect(ids, `${spec.name} ?${qs(params)} leaves out the other`).not.toContain(b.id);
      }
      if (spec.search.length) {
        const field = spec.fields.find((f) => f.name === spec.search[0])!;
        const text = String(a[field.name]);
        const ids = (await listOf(spec, [['blurry', text], ...pair()])).map((r) => r.id);
        expect(ids).toContain(a.id);
      }
      const bad = await get(`/${spec.path}?notAField=1`);
      expect(bad.statusCode).toBe(400);
    });

    it('sorts by every list column (ascending is the reverse of descending) and by its default sort', async () => {
      const columns = listFields(spec).filter((f) => a[f.name] !== null && String(a[f.name]) !== String(b[f.name]));
      for (const field of columns) {
        const asc = (await listOf(spec, [['sort', `${field.name},asc`], ...pair()])).map((r) => r.id);
        const desc = (await listOf(spec, [['sort', `${field.name},desc`], ...pair()])).map((r) => r.id);
        expect(asc, `${spec.name} sort ${field.name}`).toHaveLength(2);
        expect(desc, `${spec.name} sort ${field.name}`).toEqual([...asc].reverse());
      }
      expect(await listOf(spec, pair())).toHaveLength(2);
    });

    it('updates a field and reads it back', async () => {
      if (!spec.actions.includes('edit') || CONTRACT_FIXTURES[spec.name]?.ownEdit) return;
      // not a property of a unique rule: b's value is taken by b (x-unique answers 409, tests/server/unique-rules.test.ts)
      const unique = new Set(uniqueRules(spec).flat());
      const field = writableFields(spec).find((f) => !f.ref && !unique.has(f.name) && String(a[f.name]) !== String(b[f.name]))!;
      expect(field, `${spec.name} has a writable field`).toBeDefined();
      const res = await t.app.inject({
        method: 'PUT',
        url: `/${spec.path}`,
        headers: bearer(admin),
        payload: { ...a, [field.name]: b[field.name] },
      });
      expect(res.statusCode, res.body).toBe(204);
      const [after] = await listOf(spec, [['id', a.id]]);
      expect(after[field.name]).toEqual(b[field.name]);
      const missing = await t.app.inject({ method: 'PUT', url: `/${spec.path}`, headers: bearer(admin), payload: { ...a, id: 987654321 } });
      expect(missing.statusCode).toBe(404);
    });

    it('answers the capabilities its x-entity declares', async () => {
      if (spec.enabledToggle) {
        const name = spec.enabledToggle;
        const [before] = await listOf(spec, [['id', a.id]]);
        const flip = await t.app.inject({ method: 'PUT', url: `/${spec.path}/updateEnabled/${String(a.id)}`, headers: bearer(admin) });
        expect(flip.statusCode, flip.body).toBe(200);
        expect(flip.json<Rec>()[name]).toBe(!before[name]);
        const set = await t.app.inject({
          method: 'PUT',
          url: `/${spec.path}/updateEnabled/${String(a.id)}`,
          headers: bearer(admin),
          payload: { [name]: true },
        });
        expect(set.json<Rec>()[name]).toBe(true);
        const [after] = await listOf(spec, [['id', a.id]]);
        expect(after[name]).toBe(true);
        const bad = await t.app.inject({
          method: 'PUT',
          url: `/${spec.path}/updateEnabled/${String(a.id)}`,
          headers: bearer(admin),
          payload: { [name]: 'yes' },
        });
        expect(bad.statusCode).toBe(400);
        const none = await t.app.inject({ method: 'PUT', url: `/${spec.path}/updateEnabled/987654321`, headers: bearer(admin) });
        expect(none.statusCode).toBe(404);
        const badId = await t.app.inject({ method: 'PUT', url: `/${spec.path}/updateEnabled/abc`, headers: bearer(admin) });
        expect(badId.statusCode).toBe(400);
      }
      if (spec.queryAll) {
        const res = await get(`/${spec.path}/queryAll?${qs(pair())}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(
          res
            .json<Rec[]>()
            .map((r) => r.id)
            .sort(),
        ).toEqual([a.id, b.id].sort());
      }
      if (spec.total) {
        const res = await get(`/${spec.path}/total?${qs(pair())}`);
        expect(res.statusCode, res.body).toBe(200);
        const [ra, rb] = [...(await listOf(spec, [['id', a.id]])), ...(await listOf(spec, [['id', b.id]]))];
        for (const name of spec.total) expect(res.json<Rec>()[name]).toBeCloseTo(Number(ra[name] ?? 0) + Number(rb[name] ?? 0), 6);
        expect(res.json<{ count: number }>().count).toBe(2);
        const one = await get(`/${spec.path}/total?${qs([['id', a.id]])}`);
        expect(one.json<{ count: number }>().count).toBe(1);
      }
    });

    it('exports the pair and imports the exported file back', async () => {
      if (!spec.actions.includes('download')) return;
      const res = await get(`/${spec.path}/download?${qs(pair())}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
      if (!spec.actions.includes('import')) return;
      const before = (await get(`/${spec.path}?size=1`)).json<Page>().totalElements;
      const upload = multipartFile(`${spec.name}.xlsx`, res.rawPayload, XLSX_TYPE);
      const imported = await t.app.inject({
        method: 'POST',
        url: `/${spec.path}/import`,
        headers: { ...bearer(admin), ...upload.headers },
        payload: upload.payload,
      });
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json()).toEqual({ count: 2 });
      expect((await get(`/${spec.path}?size=1`)).json<Page>().totalElements).toBe(before + 2);
    });

    it('deletes as its dependents declare (x-ref onDelete: restrict refuses, cascade deletes them too)', async () => {
      for (const { spec: child, field } of dependentsOf(spec, resources)) {
        const parent = (
          await t.app.inject({
            method: 'POST',
            url: `/${spec.path}`,
            headers: bearer(admin),
            payload: await sampleBody(t.app, admin, resources, spec, 0),
          })
        ).json<Created>();
        const childBody = { ...(await sampleBody(t.app, admin, resources, child, 0)), [field.name]: parent.id };
        const kid = await t.app.inject({ method: 'POST', url: `/${child.path}`, headers: bearer(admin), payload: childBody });
        expect(kid.statusCode, kid.body).toBe(201);
        const del = await t.app.inject({ method: 'DELETE', url: `/${spec.path}`, headers: bearer(admin), payload: [parent.id] });
        // read by id: 404 once the child is gone
        const kidRead = await get(`/${child.path}?${qs([['id', kid.json<Created>().id]])}`);
        const kids = kidRead.statusCode === 404 ? [] : kidRead.json<Page>().content;
        if (field.ref!.onDelete === 'restrict') {
          expect(del.statusCode).toBe(400);
          expect(del.json<ErrorBody>().message).toContain(child.title);
          expect(kids).toHaveLength(1);
          expect(await listOf(spec, [['id', parent.id]])).toHaveLength(1);
        } else {
          expect(del.statusCode).toBe(200);
          expect(kids).toHaveLength(0);
        }
      }
    });

    it('deletes the records', async () => {
      if (!spec.actions.includes('del')) return;
      const res = await t.app.inject({ method: 'DELETE', url: `/${spec.path}`, headers: bearer(admin), payload: [a.id, b.id] });
      expect(res.statusCode).toBe(200);
      expect(await listOf(spec, pair())).toHaveLength(0);
    });
  });
});
