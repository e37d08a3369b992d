/**
 * Personal data leaves the server masked unless the caller holds `<permission>:sensitive`:
 * walked over every schema with `x-mask` properties, so a new schema is covered without
 * editing this file. For each: a record created by admin; a user with only the list key reads
 * it masked (list, queryAll, export) and an edit of what they saw keeps the stored values; a
 * user with the sensitive key reads it in full and the read is in the operation log.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { mask } from '../../src/shared/masks.ts';
import { permissionKey, type ResourceSpec } from '../../src/shared/resource-spec.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import { DEMO_PASSWORD } from '../../src/server/modules/demo/roles.ts';
import type { Created, Page, Row } from '../support/answers.ts';

const masked = resources.filter((s) => s.fields.some((f) => f.mask) && s.actions.includes('add'));
const PASSWORD = 'Personal@2024';

async function sheetText(buffer: Buffer): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  const out: string[] = [];
  wb.worksheets[0].eachRow((row) => out.push(JSON.stringify(row.values)));
  return out.join('\n');
}

describe.each(testApps())('personal data on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('covers the schemas holding personal data', () => {
    expect(masked.map((s) => s.name)).toEqual(expect.arrayContaining(['dbcMember', 'staff', 'sysQuestion', 'xsSubmersibleFile']));
    console.log(
      `personal data: ${masked.length} schemas, ${masked.reduce((n, s) => n + s.fields.filter((f) => f.mask).length, 0)} masked properties`,
    );
  });

  it.each(masked.map((s) => [s.name, s] as [string, ResourceSpec]))(
    '%s: masked without the key, full with it, never overwritten by the mask',
    async (name, spec) => {
      const body = await sampleBody(t.app, admin, resources, spec, 0);
      const created = await t.app.inject({
        method: 'POST',
        url: `/${spec.path}`,
        headers: { ...bearer(admin), submit_id: submitId() },
        payload: body,
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<Created>().id;
      const stored = (await t.app.inject({ method: 'GET', url: `/${spec.path}?id=${id}`, headers: bearer(admin) })).json<Page>().content[0];
      const fields = spec.fields.filter((f) => f.mask && stored[f.name] !== null && stored[f.name] !== undefined && stored[f.name] !== '');
      expect(fields.length, `${name} sample has personal data`).toBeGreaterThan(0);

      const keys = (...actions: string[]) => actions.map((a) => permissionKey(spec, a));
      await createStaff(t.app, {
        username: `${name}_plain`.slice(0, 30),
        password: PASSWORD,
        permissions: keys('list', 'edit', 'download'),
        dataScope: '全部',
      });
      await createStaff(t.app, {
        username: `${name}_full`.slice(0, 30),
        password: PASSWORD,
        permissions: keys('list', 'sensitive'),
        dataScope: '全部',
      });
      const plain = await loginAs(t.app, `${name}_plain`.slice(0, 30), PASSWORD);
      const full = await loginAs(t.app, `${name}_full`.slice(0, 30), PASSWORD);

      // without the key: masked in the list and by id; the full value appears nowhere in the answer
      const seen = await t.app.inject({ method: 'GET', url: `/${spec.path}?id=${id}`, headers: bearer(plain) });
      expect(seen.statusCode).toBe(200);
      const record = seen.json<Page>().content[0];
      for (const f of fields) {
        expect(record[f.name], `${name}.${f.name}`).toBe(mask(f.mask!, stored[f.name]));
        // nowhere else in the answer either (unless another, open property holds the same text)
        const elsewhere = Object.entries(stored).some(
          ([k, v]) => k !== f.name && !fields.some((m) => m.name === k) && String(v).includes(String(stored[f.name])),
        );
        if (mask(f.mask!, stored[f.name]) !== String(stored[f.name]) && !elsewhere) expect(seen.body).not.toContain(String(stored[f.name]));
      }
      if (spec.queryAll) {
        const all = (await t.app.inject({ method: 'GET', url: `/${spec.path}/queryAll?id=${id}`, headers: bearer(plain) })).json<Row[]>();
        for (const f of fields) expect(all[0][f.name]).toBe(mask(f.mask!, stored[f.name]));
      }
      if (spec.actions.includes('download')) {
        const file = await t.app.inject({ method: 'GET', url: `/${spec.path}/download?id=${id}`, headers: bearer(plain) });
        expect(file.statusCode).toBe(200);
        const text = await sheetText(file.rawPayload);
        for (const f of fields) {
          const elsewhere = Object.entries(stored).some(
            ([k, v]) => k !== f.name && !fields.some((m) => m.name === k) && String(v).includes(String(stored[f.name])),
          );
          if (mask(f.mask!, stored[f.name]) !== String(stored[f.name]) && !elsewhere)
            expect(text, `${name}.${f.name} in the export`).not.toContain(String(stored[f.name]));
        }
      }

      // an edit of what the masked reader saw keeps the stored values
      if (spec.actions.includes('edit')) {
        const put = await t.app.inject({
          method: 'PUT',
          url: `/${spec.path}`,
          headers: { ...bearer(plain), submit_id: submitId() },
          payload: record,
        });
        expect(put.statusCode, put.body).toBe(204);
        const after = (await t.app.inject({ method: 'GET', url: `/${spec.path}?id=${id}`, headers: bearer(admin) })).json<Page>()
          .content[0];
        for (const f of fields) expect(after[f.name], `${name}.${f.name} after the masked edit`).toEqual(stored[f.name]);
      }

      // with the key: full values, and the read is logged
      const fullRead = (await t.app.inject({ method: 'GET', url: `/${spec.path}?id=${id}`, headers: bearer(full) })).json<Page>()
        .content[0];
      for (const f of fields) expect(fullRead[f.name]).toEqual(stored[f.name]);
      await t.app.personalReadLog.flush(); // written within a second; the test does not wait for it
      const logged = await t.app.database.db
        .selectFrom('sys_log')
        .select(['username', 'description'])
        .where('description', 'like', `查看完整个人信息：${spec.title}，%`)
        .execute();
      expect(logged.some((l) => l.username === `${name}_full`.slice(0, 30) && String(l.description).includes(String(id)))).toBe(true);
    },
    60_000,
  );

  it('hand-written look-ups of the same records mask too: roster look-ups, profit detail, the VIN look-up', async () => {
    const staffSpec = resources.find((s) => s.name === 'staff')!;
    const body = await sampleBody(t.app, admin, resources, staffSpec, 1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/staff',
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: body,
    });
    expect(created.statusCode, created.body).toBe(201);
    await createStaff(t.app, {
      username: 'lookup_plain',
      password: PASSWORD,
      permissions: ['staff:list', 'xsLrSjmx:list'],
      dataScope: '全部',
    });
    const plain = await loginAs(t.app, 'lookup_plain', PASSWORD);
    // a look-up by a mobile the caller sees masked is refused (it would confirm the number)
    const found = await t.app.inject({
      method: 'GET',
      url: `/api/staff/findByMobile?mobile=${String(body.mobile)}`,
      headers: bearer(plain),
    });
    expect(found.statusCode, found.body).toBe(403);
    expect(found.body).not.toContain(String(body.mobile));
    const onStaff = await t.app.inject({
      method: 'GET',
      url: `/api/staff/getAllOnStaff?orgId=${String(body.orgId)}&status=${body.status === 0 ? 0 : 1}`,
      headers: bearer(plain),
    });
    const listed = onStaff.json<Row[]>().find((r) => r.name === body.name);
    expect(listed?.mobile).toBe(mask('phone', body.mobile));
    expect(onStaff.body).not.toContain(String(body.mobile));
    const byAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/staff/findByMobile?mobile=${String(body.mobile)}`,
      headers: bearer(admin),
    });
    expect(byAdmin.json<Row>().mobile).toBe(body.mobile);
    const profit = resources.find((s) => s.name === 'xsLrSjmx')!;
    const row = await sampleBody(t.app, admin, resources, profit, 1);
    expect(
      (await t.app.inject({ method: 'POST', url: `/${profit.path}`, headers: { ...bearer(admin), submit_id: submitId() }, payload: row }))
        .statusCode,
    ).toBe(201);
    const all = (await t.app.inject({ method: 'GET', url: `/${profit.path}/getListAll`, headers: bearer(plain) })).json<Row[]>();
    expect(all.length).toBeGreaterThan(0);
    for (const r of all) expect(r.customerName).toBe(mask('name', r.customerName));
    expect(JSON.stringify(all)).not.toContain(String(row.customerName));
  });

  it('staff phones and e-mails: masked to user:list without user:sensitive, never written back, full and logged with it', async () => {
    const root = Number(
      (await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id,
    );
    const plainId = await createStaff(t.app, {
      username: 'users_plain',
      password: PASSWORD,
      permissions: ['user:list', 'user:edit'],
      dataScope: '全部',
    });
    const role = Number(
      (await t.app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', plainId).executeTakeFirstOrThrow())
        .role_id,
    );
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: {
        username: 'zhangsan_pd',
        nickName: '张三',
        phone: '13912340001',
        email: 'zhangsan@example.com',
        sex: 1,
        enabled: true,
        orgId: root,
        deptId: root,
        roles: [{ id: role }],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<Created>().id;
    await createStaff(t.app, {
      username: 'users_full',
      password: PASSWORD,
      permissions: ['user:list', 'user:sensitive'],
      dataScope: '全部',
    });
    const plain = await loginAs(t.app, 'users_plain', PASSWORD);
    const full = await loginAs(t.app, 'users_full', PASSWORD);
    const seen = await t.app.inject({ method: 'GET', url: '/api/users?blurry=zhangsan_pd', headers: bearer(plain) });
    const row = seen.json<Page>().content[0];
    expect([row.phone, row.email]).toEqual(['139****0001', 'zh******@example.com']);
    expect(seen.body).not.toContain('13912340001');
    expect(seen.body).not.toContain('zhangsan@example.com');
    // the edit dialog sends back what it holds: the masks are not written
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: { ...bearer(plain), submit_id: submitId() },
      payload: { ...row, nickName: '张三丰' },
    });
    expect(put.statusCode, put.body).toBe(204);
    const stored = await t.app.database.db
      .selectFrom('sys_user')
      .select(['phone', 'email', 'nick_name'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ phone: '13912340001', email: 'zhangsan@example.com', nick_name: '张三丰' });
    // with the key: full, and the read is logged
    const fullRow = (await t.app.inject({ method: 'GET', url: '/api/users?blurry=zhangsan_pd', headers: bearer(full) })).json<Page>()
      .content[0];
    expect([fullRow.phone, fullRow.email]).toEqual(['13912340001', 'zhangsan@example.com']);
    await t.app.personalReadLog.flush();
    const logged = await t.app.database.db
      .selectFrom('sys_log')
      .select(['username', 'description'])
      .where('description', 'like', '查看完整个人信息：用户，%')
      .execute();
    expect(logged.some((l) => l.username === 'users_full' && String(l.description).includes(String(id)))).toBe(true);
    expect(
      await t.app.database.db.selectFrom('sys_menu').select('id').where('permission', '=', 'user:sensitive').executeTakeFirst(),
    ).toBeDefined();
  });

  it('a user:add holder without user:sensitive writes no phone or e-mail: a taken number and a free one answer alike', async () => {
    const root = Number(
      (await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id,
    );
    const adderId = await createStaff(t.app, { username: 'users_adder', password: PASSWORD, permissions: ['user:add'], dataScope: '全部' });
    const role = Number(
      (await t.app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', adderId).executeTakeFirstOrThrow())
        .role_id,
    );
    const adder = await loginAs(t.app, 'users_adder', PASSWORD);
    const taken = String(
      (await t.app.database.db.selectFrom('sys_user').select('phone').where('phone', 'is not', null).executeTakeFirstOrThrow()).phone,
    );
    const make = (username: string, phone: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { ...bearer(adder), submit_id: submitId() },
        payload: {
          username,
          nickName: '新人',
          phone,
          email: 'x@example.com',
          sex: 1,
          enabled: true,
          orgId: root,
          deptId: root,
          roles: [{ id: role }],
        },
      });
    const a = await make('adder_new1', taken);
    const b = await make('adder_new2', '13900007777');
    expect([a.statusCode, b.statusCode], a.body).toEqual([201, 201]);
    const stored = await t.app.database.db
      .selectFrom('sys_user')
      .select(['phone', 'email'])
      .where('username', 'in', ['adder_new1', 'adder_new2'])
      .execute();
    expect(stored).toEqual([
      { phone: null, email: null },
      { phone: null, email: null },
    ]);
  });

  it('admin holds the key through its role, other roles do not', async () => {
    const row = await t.app.database.db
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', '=', 'dbcMember:sensitive')
      .executeTakeFirst();
    expect(row).toBeDefined();
  });
});

describe.each(testApps())('demo roles on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ seedDemo: true });
  }, 120_000);
  afterAll(() => t?.close());

  it('人事专员, 销售顾问 and 客服 sign in and read only their screens, personal data masked', async () => {
    const [hr, sales, kf] = await Promise.all(['hr01', 'sales01', 'kf01'].map((u) => loginAs(t.app, u, DEMO_PASSWORD)));
    const status = async (token: string, url: string) => (await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode;
    expect(await status(kf, '/api/sysQuestion')).toBe(200);
    expect(await status(kf, '/api/staff')).toBe(403);
    expect(await status(kf, '/api/dbc/dbcMember')).toBe(403);
    expect(await status(hr, '/api/staff')).toBe(200);
    expect(await status(hr, '/api/staffunZp')).toBe(200);
    expect(await status(hr, '/api/sysQuestion')).toBe(403);
    expect(await status(sales, '/api/xs/xsSubmersibleFile')).toBe(200);
    expect(await status(sales, '/api/staff')).toBe(403);
    // feedback of the demo data carries phone numbers: 客服 sees them masked, admin in full
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const full = (await t.app.inject({ method: 'GET', url: '/api/sysQuestion?size=100', headers: bearer(admin) }))
      .json<Page<Created>>()
      .content.filter((r) => r.mobile);
    const seen = (await t.app.inject({ method: 'GET', url: '/api/sysQuestion?size=100', headers: bearer(kf) })).json<Page<Created>>()
      .content;
    expect(full.length).toBeGreaterThan(0);
    for (const r of full) expect(seen.find((s) => s.id === r.id)?.mobile).toBe(mask('phone', r.mobile));
    // the pages every user opens: 操作文档 (header), 岗位说明, help pages and system messages
    for (const url of ['/api/system/userCzwd', '/api/jobExplain?enabled=true', '/api/menuPage', '/api/sysSocket'])
      expect(await status(kf, url), url).toBe(200);
    const roles = await t.app.database.db
      .selectFrom('sys_role')
      .select(['name', 'data_scope'])
      .where('name', 'in', ['人事专员', '销售顾问', '客服'])
      .orderBy('name')
      .execute();
    expect(roles.length).toBe(3);
  }, 60_000);
});
