/**
 * The harvest check of personal data, generated from the route catalogue (a new GET route is
 * walked without editing this file). On the demo data plus records with real-looking ID
 * numbers (GB 11643, check digit right) and mobiles in every schema that holds personal data,
 * staff users' phones and e-mails, applicants with their entries and dealer customers:
 * - as an admin would, through the API: a role with the single key `sysQuestion:list` and the
 *   data scope 本级, and a user holding it;
 * - that user walks EVERY GET route the server registers (lists, details, trees, look-ups,
 *   exports: the .xlsx sheets are read as text), with a few query variants each, and every
 *   answer is searched for an unmasked ID number (18 characters, valid check digit) or mobile
 *   (1[3-9] and 9 digits); any hit fails the test and names the route;
 * - the same with `dbcMember:list` added to the role (not the personal-data key);
 * - the same with every key but the `:sensitive` ones (every list, look-up and export);
 * - admin walks the same routes and does see full values (so the search can find them).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { routeCatalogue, type RouteEntry } from '../../src/server/auth/index.ts';
import { checkRecord, insertAll } from '../../src/server/crud/index.ts';
import { PATTERN_SAMPLES } from '../../src/server/crud/sheets/import-template.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';
import { sampleBody } from './sample-records.ts';

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

/** A mainland ID number whose check digit is right (GB 11643). */
export function validIdNumber(text: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(text)) return false;
  const sum = WEIGHTS.reduce((n, w, i) => n + w * Number(text[i]), 0);
  return CHECK[sum % 11] === text[17].toUpperCase();
}

/** Unmasked ID numbers and mobiles in a text. */
export function personalValues(text: string): string[] {
  const hits: string[] = [];
  for (const m of text.matchAll(/(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])/g)) if (validIdNumber(m[0])) hits.push(m[0]);
  for (const m of text.matchAll(/(?<!\d)1[3-9]\d{9}(?!\d)/g)) hits.push(m[0]);
  return hits;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheetText(buffer: Buffer): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  const out: string[] = [];
  for (const ws of wb.worksheets)
    ws.eachRow((row) =>
      out.push(
        (row.values as ExcelJS.CellValue[])
          .map((v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)))
          .join('\t'),
      ),
    );
  return out.join('\n');
}

const key = (r: RouteEntry) => `${r.method} ${r.url}`;

describe('the harvest detector', () => {
  it('finds ID numbers with a right check digit and mobiles, not masks or other numbers', () => {
    expect(personalValues('{"idno":"11010519491231002X","m":"13912345678"}')).toEqual(['11010519491231002X', '13912345678']);
    expect(personalValues('110105194912310021 1101*********1002X 139****5678 1764041234567 12912345678 2026-11-25')).toEqual([]);
  });
});

describe.each(testApps())('personal data cannot be harvested on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let routes: RouteEntry[];
  let roleId: number;
  let token: string;
  /** the personal values the test seeded (each must be found by admin) */
  const seeded = new Set<string>();
  const queries: string[] = [];

  const api = (tok: string, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(tok), ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** Every answer of every GET route to `tok`, as text (sheets read out). */
  async function walk(tok: string): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const r of routes) {
      const url = r.url.replace(/:[A-Za-z]+/g, '1');
      for (const q of queries) {
        const res = await t.app.inject({ method: 'GET', url: `${url}${q}`, headers: bearer(tok) });
        if (res.statusCode >= 300) continue;
        const type = String(res.headers['content-type'] ?? '');
        const text = type.startsWith(XLSX) ? await sheetText(res.rawPayload) : res.rawPayload.toString('utf8');
        // an import template is the same file for every caller: its example row is made of the
        // product's fixed pattern samples, never of a stored record
        const published = r.url.endsWith('/template') ? new Set(PATTERN_SAMPLES) : new Set<string>();
        const hits = personalValues(text).filter((v) => !published.has(v));
        if (hits.length) found.set(`${key(r)}${q}`, [...new Set([...(found.get(`${key(r)}${q}`) ?? []), ...hits])]);
      }
    }
    return found;
  }

  async function menuIds(keys: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const k of keys) {
      const res = await api(admin, 'GET', `/api/menus?blurry=${encodeURIComponent(k)}&size=1000`);
      expect(res.statusCode, res.body).toBe(200);
      const menu = res.json<Page<{ id: number; permission: string | null }>>().content.find((m) => m.permission === k);
      expect(menu, `menu of ${k}`).toBeDefined();
      ids.push(menu!.id);
    }
    return ids;
  }

  const grant = async (keys: string[]) => {
    const res = await api(admin, 'PUT', '/api/roles/menu', { id: roleId, menus: (await menuIds(keys)).map((id) => ({ id })) });
    expect(res.statusCode, res.body).toBe(204);
  };

  beforeAll(async () => {
    t = await start({ seedDemo: true });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    routes = routeCatalogue(t.app).filter((r) => r.method === 'GET' && r.identity !== 'socket' && !r.url.includes('*'));

    // personal data in every schema that holds it: two records each, through the API where it
    // offers a create, else as the hand-written areas store them (dealer customers, demands)
    for (const spec of resources.filter((s) => s.fields.some((f) => f.mask))) {
      for (const variant of [0, 1]) {
        const body = await sampleBody(t.app, admin, resources, spec, variant);
        // the samples fill free text (a company name, a referee) with the first pattern sample
        // that fits, a mobile; real records hold text there: only the marked properties carry
        // personal data
        for (const f of spec.fields) {
          if (f.mask || typeof body[f.name] !== 'string' || !personalValues(body[f.name] as string).length) continue;
          const fitting = [`样本${f.title}`, `sample_${variant}`, `S${variant}`].find(
            (text) => checkRecord(spec, { ...body, [f.name]: text }, 'create').ok,
          );
          if (fitting) body[f.name] = fitting;
        }
        if (spec.actions.includes('add')) {
          const res = await api(admin, 'POST', `/${spec.path}`, body);
          expect(res.statusCode, `${spec.name}: ${res.body}`).toBe(201);
        } else if (spec.name !== 'applicant') {
          // applicants register themselves (the samples of their entries create them)
          await insertAll(t.app.database, spec, [body], { username: 'admin' });
        }
        // an applicant's sample body is not stored (each registration takes a new ID number)
        const stored = spec.actions.includes('add') || spec.name !== 'applicant';
        if (stored)
          for (const f of spec.fields)
            if (f.mask && typeof body[f.name] === 'string') for (const v of personalValues(body[f.name] as string)) seeded.add(v);
      }
    }
    // records the samples made on the way (referenced ones) got the same free-text filling
    for (const spec of resources) {
      const texts = spec.fields.filter((f) => !f.mask && f.type === 'string' && !f.format);
      for (const row of await t.app.database.db.selectFrom(spec.table).selectAll().execute()) {
        const fix: Record<string, string> = {};
        for (const f of texts) {
          const value: unknown = row[f.column];
          if (typeof value === 'string' && personalValues(value).length) fix[f.column] = `S${row.id}`;
        }
        if (Object.keys(fix).length) await t.app.database.db.updateTable(spec.table).set(fix).where('id', '=', row.id).execute();
      }
    }
    // staff users with a phone and an e-mail
    const root = Number(
      (await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id,
    );
    const sales = Number(
      (await t.app.database.db.selectFrom('sys_dept').select('id').where('name', '=', '销售部').executeTakeFirstOrThrow()).id,
    );
    const role = await api(admin, 'POST', '/api/roles', {
      name: '问题反馈查看',
      level: 3,
      dataScope: '本级',
      description: '只有问题反馈列表',
    });
    expect(role.statusCode, role.body).toBe(201);
    roleId = role.json<Created>().id;
    for (const [i, dept] of [root, sales].entries()) {
      const phone = `1861234567${i}`;
      const res = await api(admin, 'POST', '/api/users', {
        username: `contact${i}`,
        nickName: `联系人${i}`,
        phone,
        email: `contact${i}@example.com`,
        sex: 1,
        enabled: true,
        orgId: root,
        deptId: dept,
        roles: [{ id: roleId }],
      });
      expect(res.statusCode, res.body).toBe(201);
      seeded.add(phone);
    }
    // the user the checks sign in as: made as an admin would, with the single key
    await grant(['sysQuestion:list']);
    const made = await api(admin, 'POST', '/api/users', {
      username: 'harvester',
      nickName: '问题查看员',
      sex: 1,
      enabled: true,
      orgId: root,
      deptId: sales,
      roles: [{ id: roleId }],
    });
    expect(made.statusCode, made.body).toBe(201);
    token = await loginAs(t.app, 'harvester', 'Abc123456');

    // query variants: as the screens call them, full pages, by id, and the look-ups' parameters
    const someMobile = [...seeded].find((v) => v.length === 11)!;
    queries.push(
      '',
      '?page=0&size=99999',
      '?id=1',
      '?id=2',
      `?mobile=${someMobile}`,
      `?orgId=${root}`,
      `?search=1`,
      '?staffunId=1',
      '?fileId=1',
    );
    expect(seeded.size).toBeGreaterThan(5);
    console.log(`harvest: ${routes.length} GET routes x ${queries.length} queries; ${seeded.size} seeded personal values`);
  }, 180_000);
  afterAll(() => t?.close());

  it('admin sees the full values (the search finds what was seeded)', async () => {
    const found = await walk(admin);
    const all = new Set([...found.values()].flat());
    const missed = [...seeded].filter((v) => !all.has(v));
    expect(missed).toEqual([]);
    expect(found.has('GET /api/dbc/dbcMember') || [...found.keys()].some((k) => k.startsWith('GET /api/dbc/dbcMember'))).toBe(true);
    expect([...found.keys()].some((k) => k.startsWith('GET /api/dbc/dbcMember/download'))).toBe(true);
    expect([...found.keys()].some((k) => k.startsWith('GET /api/users?') || k === 'GET /api/users')).toBe(true);
  }, 240_000);

  it('a user with only sysQuestion:list (本级) finds no unmasked ID number or mobile on any GET route', async () => {
    const list = await api(token, 'GET', '/api/sysQuestion?size=100');
    expect(list.statusCode).toBe(200);
    expect(list.json<Page>().content.some((r) => r.mobile)).toBe(true);
    const found = await walk(token);
    expect([...found].map(([route, values]) => `${route}: ${values.join(', ')}`)).toEqual([]);
  }, 240_000);

  it('given dbcMember:list but not the personal-data key: still none', async () => {
    await grant(['sysQuestion:list', 'dbcMember:list']);
    const members = await api(token, 'GET', '/api/dbc/dbcMember?size=100');
    expect(members.statusCode).toBe(200);
    expect(members.json<Page>().content.length).toBeGreaterThan(0);
    const found = await walk(token);
    expect([...found].map(([route, values]) => `${route}: ${values.join(', ')}`)).toEqual([]);
  }, 240_000);

  it('given every key but the :sensitive ones (every list, look-up and export): still none', async () => {
    const keys = (await t.app.database.db.selectFrom('sys_menu').select('permission').where('permission', 'is not', null).execute())
      .map((m) => String(m.permission))
      .filter((k) => k && !k.endsWith(':sensitive'));
    await grant([...new Set(keys)]);
    expect((await api(token, 'GET', '/api/staff/download')).statusCode).toBe(200);
    const found = await walk(token);
    expect([...found].map(([route, values]) => `${route}: ${values.join(', ')}`)).toEqual([]);
  }, 300_000);
});
