/**
 * Data scope on every schema, generated over `schemas/` (a new schema is covered without
 * editing this file):
 * - every property that names an organisation or department (orgId, deptId, company, 门店,
 *   部门, 公司...) carries `x-scope` ("dept" / "org"), or the explicit opt-out `"none"` with a
 *   `$comment` saying why (a dealer company, an applicant's past employer...);
 * - for every schema with `x-scope`: two records, one in the caller's department and one in
 *   another; a 本级 user reads the first and not the second in the list, by id (404 数据不存在,
 *   as for an id that does not exist), queryAll, total and the export; every hand-written GET
 *   under the schema's path (look-ups, reports, reads by id) leaves the second out too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { routeCatalogue } from '../../src/server/auth/index.ts';
import { permissionKey, scopeField, type ResourceSpec } from '../../src/shared/resource-spec.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import { twoDepartments } from './scope-fixtures.ts';
import type { Created, Page } from '../support/answers.ts';

/** A property name or title that names an organisation or department. */
const ORG_NAME = /(^|[a-z_])(org|organi[sz]ation|dept|department|company|comp|store|shop|branch|dealer)(Id|Name|Code|_id)?$/i;
const ORG_TITLE = /公司|部门|门店|机构|组织|分店|经销商/;

interface Property {
  type?: string;
  title?: string;
  $comment?: string;
  'x-scope'?: string;
  'x-ref'?: { resource: string };
}

const schemaFiles = readdirSync('schemas').filter((f) => f.endsWith('.json'));

describe('every organisation or department property carries x-scope', () => {
  it('or opts out with x-scope "none" and a $comment saying why', () => {
    const missing: string[] = [];
    let looked = 0;
    for (const file of schemaFiles) {
      const schema = JSON.parse(readFileSync(`schemas/${file}`, 'utf8')) as { properties?: Record<string, Property> };
      for (const [name, p] of Object.entries(schema.properties ?? {})) {
        const named = ORG_NAME.test(name) || ORG_TITLE.test(p.title ?? '') || p['x-ref']?.resource === 'dept';
        if (!named) continue;
        looked++;
        const scope = p['x-scope'];
        if (scope === 'dept' || scope === 'org') continue;
        if (scope === 'none' && typeof p.$comment === 'string' && p.$comment.trim()) continue;
        missing.push(`${file}#/properties/${name} (${p.title ?? ''})`);
      }
    }
    console.log(`data scope: ${looked} organisation or department properties in ${schemaFiles.length} schemas`);
    expect(looked).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it('the test names the fields it must (it would fail without the keyword)', () => {
    for (const [name, title] of [
      ['orgId', '所属公司'],
      ['deptId', '所属部门'],
      ['company', '公司名称'],
      ['storeId', '门店'],
      ['x', '所属部门'],
    ]) {
      expect(ORG_NAME.test(name) || ORG_TITLE.test(title), name).toBe(true);
    }
    for (const [name, title] of [
      ['unit', '计量单位'],
      ['mobile', '手机号'],
      ['consultantId', '销售顾问ID'],
    ]) {
      expect(ORG_NAME.test(name) || ORG_TITLE.test(title), name).toBe(false);
    }
  });
});

const scoped = resources.filter((s) => scopeField(s) && s.actions.includes('add'));

async function sheetRows(buffer: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  const out: string[] = [];
  wb.worksheets[0].eachRow((row) => out.push(JSON.stringify(row.values)));
  return out;
}

describe.each(testApps())('data scope on every scoped schema on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let mine: number;
  let other: number;
  const PASSWORD = 'Scope_every1';

  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    ({ mine, other } = await twoDepartments(t.app, admin));
  }, 60_000);
  afterAll(() => t?.close());

  it('covers the scoped schemas', () => {
    expect(scoped.map((s) => s.name)).toEqual(expect.arrayContaining(['staff', 'staffunZp', 'xsLrSjmx', 'xsSubmersibleFile', 'xsZjs']));
  });

  it.each(scoped.map((s) => [s.name, s] as [string, ResourceSpec]))(
    '%s: a 本级 user reads only inside the scope; by id outside it is 404',
    async (name, spec) => {
      const field = scopeField(spec)!;
      const create = async (deptId: number, variant: number) => {
        const body = await sampleBody(t.app, admin, resources, spec, variant);
        // every department reference of the record points into the same department
        for (const f of spec.fields) if (f.ref?.resource === 'dept' && f.name in body) body[f.name] = deptId;
        body[field.name] = deptId;
        const res = await t.app.inject({
          method: 'POST',
          url: `/${spec.path}`,
          headers: { ...bearer(admin), submit_id: submitId() },
          payload: body,
        });
        expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
        return Number(res.json<Created>().id);
      };
      const inside = await create(mine, 0);
      const outside = await create(other, 1);
      const keys = [permissionKey(spec, 'list'), ...(spec.actions.includes('download') ? [permissionKey(spec, 'download')] : [])];
      const user = `${name}_own`.slice(0, 30);
      await createStaff(t.app, { username: user, password: PASSWORD, permissions: keys, dataScope: '本级', deptId: mine });
      const token = await loginAs(t.app, user, PASSWORD);

      // by id: inside 200 with the record, outside 404 in Chinese (as an id that does not exist)
      const ok = await get(token, `/${spec.path}?id=${inside}`);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<Page<Created>>().content.map((r) => r.id)).toEqual([inside]);
      for (const url of [`/${spec.path}?id=${outside}`, `/${spec.path}?id=${outside}&page=0&size=1`, `/${spec.path}?id=999999999`]) {
        const res = await get(token, url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
        expect(errorOf(res).message).toBe('数据不存在');
      }
      // admin reads it by id
      expect((await get(admin, `/${spec.path}?id=${outside}`)).statusCode).toBe(200);

      // the list and its count
      const list = (await get(token, `/${spec.path}?size=1000`)).json<Page<Created>>();
      const ids = list.content.map((r) => r.id);
      expect(ids).toContain(inside);
      expect(ids).not.toContain(outside);
      expect(list.totalElements).toBe(ids.length);
      // several ids: the ones inside the scope
      expect((await get(token, `/${spec.path}?id=${inside}&id=${outside}`)).json<Page<Created>>().content.map((r) => r.id)).toEqual([
        inside,
      ]);

      if (spec.queryAll) {
        const all = (await get(token, `/${spec.path}/queryAll`)).json<Created[]>().map((r) => r.id);
        expect(all).toContain(inside);
        expect(all).not.toContain(outside);
        expect((await get(token, `/${spec.path}/queryAll?id=${outside}`)).statusCode).toBe(404);
      }
      if (spec.total?.length) {
        const total = (await get(token, `/${spec.path}/total`)).json<{ count: number }>();
        expect(total.count).toBe(ids.length);
        expect((await get(token, `/${spec.path}/total?id=${outside}`)).json<{ count: number }>().count).toBe(0);
      }
      if (spec.actions.includes('download')) {
        const file = await get(token, `/${spec.path}/download`);
        expect(file.statusCode).toBe(200);
        const rows = await sheetRows(file.rawPayload);
        expect(rows.length - 1, `${name}: export rows`).toBe(ids.length);
        expect(rows.join('\n')).not.toContain('乙样本');
      }

      // every hand-written GET under the schema's path: nothing of the record outside the scope
      const handWritten = routeCatalogue(t.app).filter(
        (r) =>
          r.method === 'GET' &&
          r.url.startsWith(`/${spec.path}/`) &&
          !r.url.includes(':') &&
          !['/download', '/queryAll', '/total'].some((x) => r.url.endsWith(x)),
      );
      for (const r of handWritten) {
        for (const query of ['', `?id=${outside}`]) {
          const res = await get(token, `${r.url}${query}`);
          expect(res.statusCode, `${r.url}${query}`).toBeLessThan(500);
          if (res.statusCode === 200) expect(res.body, `${r.url}${query} shows the record outside the scope`).not.toContain('乙样本');
          if (query && res.statusCode !== 200 && res.statusCode !== 400 && res.statusCode !== 403) {
            // a read by id of a record outside the scope: not found, in Chinese
            expect(res.statusCode, `${r.url}${query}`).toBe(404);
            expect(errorOf(res).message).toMatch(/[\u4e00-\u9fff]/);
          }
        }
        if (r.url.endsWith('ById') || r.url.endsWith('jobHistory') || r.url.endsWith('isTjgc')) {
          expect((await get(token, `${r.url}?id=${outside}`)).statusCode, `${r.url} by id outside the scope`).toBe(404);
          expect((await get(token, `${r.url}?id=${inside}`)).statusCode, `${r.url} by id inside the scope`).toBe(200);
        }
      }
    },
    60_000,
  );
});
