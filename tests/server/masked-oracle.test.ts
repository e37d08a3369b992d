/**
 * Masks hold against questions, generated over `schemas/` (a new `x-mask` property is covered
 * without editing this file): for every personal field of every schema, a caller holding the
 * resource's read and export keys but not `:sensitive` asks, in every way the routes offer, once
 * with the value stored in a record and once with a value of the same shape stored nowhere:
 * equality, substring and range filters, `in` lists, sort (two records that differ in the field,
 * asked ascending and descending), `blurry`, totals, queryAll and exports, and the hand-written
 * look-ups by value (roster by mobile, roster search, user search by phone and e-mail). The two
 * answers must be the same (status and body), so no answer tells a right guess from a wrong one.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { permissionKey, type FieldSpec, type ResourceSpec } from '../../src/shared/resource-spec.ts';
import { checkRecord, createRecord } from '../../src/server/crud/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import type { Page } from '../support/answers.ts';

const PASSWORD = 'Oracle_test1';
const masked = resources.filter((s) => s.fields.some((f) => f.mask));

/** A value of the same shape as `value` that differs from it (a wrong guess). */
function otherValue(field: FieldSpec, value: unknown): unknown {
  const text = String(value);
  if (field.format === 'date') return text.replace(/-(\d\d)$/, (_m, d: string) => `-${d === '28' ? '27' : '28'}`);
  if (field.format === 'date-time') return text.replace(/:(\d\d)$/, (_m, s: string) => `:${s === '59' ? '58' : '59'}`);
  if (/^\d+$/.test(text)) return text.slice(0, -1) + String((Number(text.slice(-1)) + 1) % 10);
  if (/\d$/.test(text)) return text.slice(0, -1) + String((Number(text.slice(-1)) + 1) % 10);
  return `${text.slice(0, -1)}丙`;
}

/** What a caller learns from an answer: its status and body (the error's time left out). */
async function seen(res: { statusCode: number; body: string; rawPayload: Buffer; headers: Record<string, unknown> }): Promise<string> {
  if (res.statusCode === 200 && /spreadsheet/.test(typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : '')) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: string[] = [];
    wb.worksheets[0].eachRow((row) => rows.push(JSON.stringify(row.values)));
    return `200 xlsx ${rows.join('\n')}`;
  }
  let body = res.body;
  try {
    const parsed: unknown = JSON.parse(res.body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) delete (parsed as Record<string, unknown>).timestamp;
    body = JSON.stringify(parsed);
  } catch {
    /* not JSON */
  }
  return `${res.statusCode} ${body}`;
}

describe.each(testApps())('masked fields answer no questions on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  const ways = new Map<string, number>();
  const count = (way: string) => ways.set(way, (ways.get(way) ?? 0) + 1);

  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  /** The two answers must not differ. */
  async function same(token: string, way: string, right: string, wrong: string): Promise<void> {
    const a = await seen(await get(token, right));
    const b = await seen(await get(token, wrong));
    expect(a, `${way}: ${right} against ${wrong}`).toBe(b);
    expect(a.startsWith('5'), `${way}: ${right} answered ${a.slice(0, 200)}`).toBe(false);
    count(way);
  }

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => {
    const fields = masked.reduce((n, s) => n + s.fields.filter((f) => f.mask).length, 0);
    console.log(
      `masked-field oracle: ${fields} personal fields in ${masked.length} schemas; ways asked: ${[...ways].map(([w, n]) => `${w} ${n}`).join(', ')}`,
    );
    return t?.close();
  });

  it('covers the schemas that hold personal data', () => {
    expect(masked.map((s) => s.name)).toEqual(expect.arrayContaining(['staff', 'sysQuestion', 'xsSubmersibleFile', 'xsZjs', 'dbcMember']));
  });

  it.each(masked.map((s) => [s.name, s] as [string, ResourceSpec]))('%s: every way of asking answers alike', async (name, spec) => {
    // two stored records whose personal fields differ, written as stored data (no route rules)
    const stored: Record<string, unknown>[] = [];
    for (const variant of [0, 1]) {
      const body = await sampleBody(t.app, admin, resources, spec, variant);
      // what a hand-written create takes beside the record (a dealer's password) is not stored data
      for (const key of Object.keys(body)) if (!spec.fields.some((f) => f.name === key)) delete body[key];
      const checked = checkRecord(spec, body, 'create');
      expect(checked.ok, `${name}: ${JSON.stringify(checked)}`).toBe(true);
      if (!checked.ok) return;
      stored.push(await createRecord(t.app.database, spec, checked.values));
    }
    const keys = [permissionKey(spec, 'list'), ...(spec.actions.includes('download') ? [permissionKey(spec, 'download')] : [])];
    const user = `${name}_oracle`.slice(0, 30);
    await createStaff(t.app, { username: user, password: PASSWORD, permissions: keys, dataScope: '全部' });
    const token = await loginAs(t.app, user, PASSWORD);
    const base = `/${spec.path}`;
    const listed = await get(token, `${base}?size=1`);
    expect(listed.statusCode, `${name}: the list with the read key: ${listed.body}`).toBe(200);

    const targets = [base, ...(spec.total?.length ? [`${base}/total`] : []), ...(spec.queryAll ? [`${base}/queryAll`] : [])];
    if (spec.actions.includes('download')) targets.push(`${base}/download`);

    for (const field of spec.fields.filter((f) => f.mask)) {
      const raw = stored[0][field.name];
      if (raw === null || raw === undefined || raw === '') continue;
      const value = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : JSON.stringify(raw);
      const wrong = otherValue(field, value);
      const q = (v: unknown) => encodeURIComponent(String(v));
      if (field.filter) {
        for (const target of targets) {
          switch (field.filter) {
            case 'eq':
            case 'in':
              await same(token, `filter ${field.filter}`, `${target}?${field.name}=${q(value)}`, `${target}?${field.name}=${q(wrong)}`);
              break;
            case 'like': {
              const part = [...String(value)].slice(0, 2).join('');
              await same(token, 'filter like', `${target}?${field.name}=${q(value)}`, `${target}?${field.name}=${q(wrong)}`);
              await same(token, 'filter like (part)', `${target}?${field.name}=${q(part)}`, `${target}?${field.name}=${q(`${part}丁`)}`);
              break;
            }
            case 'between':
              await same(
                token,
                'filter range',
                `${target}?${field.name}=${q(value)}&${field.name}=${q(value)}`,
                `${target}?${field.name}=${q(wrong)}&${field.name}=${q(wrong)}`,
              );
              break;
          }
        }
      }
      // blurry: the full value and a part of it (unless a field the caller sees holds the same text)
      const part = [...String(value)].slice(-4).join('');
      const visible = spec.search
        .filter((n) => !spec.fields.find((f) => f.name === n)?.mask)
        .map((n) => stored.map((r) => (r[n] === null || r[n] === undefined ? '' : JSON.stringify(r[n]))).join(' '))
        .join(' ');
      if (!visible.includes(part)) {
        await same(token, 'blurry', `${base}?blurry=${q(value)}`, `${base}?blurry=${q(wrong)}`);
        await same(token, 'blurry (part)', `${base}?blurry=${q(part)}`, `${base}?blurry=${q(String(otherValue(field, part)))}`);
        if (spec.actions.includes('download'))
          await same(token, 'export blurry', `${base}/download?blurry=${q(value)}`, `${base}/download?blurry=${q(wrong)}`);
      }
      // sort: two records that differ in the field, ascending against descending
      await same(
        token,
        'sort',
        `${base}?id=${String(stored[0].id)}&id=${String(stored[1].id)}&sort=${field.name},asc&sort=id,asc`,
        `${base}?id=${String(stored[0].id)}&id=${String(stored[1].id)}&sort=${field.name},desc&sort=id,asc`,
      );
    }
  });

  it('hand-written look-ups by value answer alike for a right and a wrong guess', async () => {
    const staff = resources.find((s) => s.name === 'staff')!;
    const body = await sampleBody(t.app, admin, resources, staff, 0);
    const checked = checkRecord(staff, { ...body, status: 1 }, 'create');
    if (!checked.ok) throw new Error(JSON.stringify(checked));
    const entry = await createRecord(t.app.database, staff, checked.values);
    const mobile = String(entry.mobile);
    const lookupId = await createStaff(t.app, {
      username: 'lookup_oracle',
      password: PASSWORD,
      permissions: ['staff:list', 'user:list', 'xsSubmersibleFile:list', 'xsSubmersibleFile:add'],
      dataScope: '全部',
    });
    const token = await loginAs(t.app, 'lookup_oracle', PASSWORD);
    const wrong = String(
      otherValue(
        staff.fields.find((f) => f.name === 'mobile')!,
        mobile,
      ),
    );
    await same(token, 'roster by mobile', `/api/staff/findByMobile?mobile=${mobile}`, `/api/staff/findByMobile?mobile=${wrong}`);
    await same(token, 'roster search', `/api/staff/search?search=${mobile.slice(-5)}`, `/api/staff/search?search=${wrong.slice(-5)}`);

    // sales leads: the open main clue of a number in a company
    const root = Number(
      (await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow()).id,
    );
    const leads = '/api/xs/xsSubmersibleFile';
    const clue = await t.app.inject({
      method: 'POST',
      url: `${leads}/passengerFlowTransform`,
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: { customerName: '神谕客户', mobile: '13911112222', orgId: root },
    });
    expect(clue.statusCode, clue.body).toBe(201);
    await same(
      token,
      'lead by mobile',
      `${leads}/getValidMainClue?mobile=13911112222&orgId=${root}`,
      `${leads}/getValidMainClue?mobile=13911112223&orgId=${root}`,
    );
    const isCreate = async (mobile: string) =>
      seen(
        await t.app.inject({
          method: 'POST',
          url: `${leads}/isCreate`,
          headers: { ...bearer(token), submit_id: submitId() },
          payload: { mobile, orgId: root },
        }),
      );
    expect(await isCreate('13911112222'), 'lead isCreate').toBe(await isCreate('13911112223'));
    count('lead isCreate');
    // a showroom visit adds to the open main clue of a known number and makes a clue otherwise
    const visit = async (mobile: string) =>
      seen(
        await t.app.inject({
          method: 'POST',
          url: `${leads}/passengerFlowTransform`,
          headers: { ...bearer(token), submit_id: submitId() },
          payload: { customerName: '神谕客户', mobile, orgId: root },
        }),
      );
    expect(await visit('13911112222'), 'lead visit').toBe(await visit('13911112223'));
    count('lead visit');

    const role = Number(
      (await t.app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', lookupId).executeTakeFirstOrThrow())
        .role_id,
    );
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: {
        username: 'oracle_person',
        nickName: '神谕',
        phone: '13700001234',
        email: 'hidden.person@example.com',
        sex: 1,
        enabled: true,
        orgId: root,
        deptId: root,
        roles: [{ id: role }],
      },
    });
    expect(made.statusCode, made.body).toBeLessThan(300);
    const users = (q: string) => `/api/users?blurry=${encodeURIComponent(q)}`;
    await same(token, 'user search by phone', users('00001234'), users('00001235'));
    await same(token, 'user search by e-mail', users('hidden.person'), users('hidden.persoo'));
    // the admin, who sees both in full, finds the user by either (the search itself works)
    expect((await get(admin, users('00001234'))).json<Page>().totalElements).toBe(1);
    expect((await get(admin, users('hidden.person'))).json<Page>().totalElements).toBe(1);
  });
});
