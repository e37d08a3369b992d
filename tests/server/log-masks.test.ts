/**
 * The operation log is no copy of personal data, generated over the schemas: every schema with
 * personal fields (`x-mask`, and the properties titled as a person's name) gets a record written
 * through its own create route, and the staff users' phones and e-mails through 用户管理; then a
 * role holding only `log:list` reads the log (and the stored rows are read too): no full value of
 * any kind (mobile, ID number, bank card, e-mail, address, birthday, name) may appear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { isLuhn } from '../../src/shared/masks.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';

const PASSWORD = 'Log_masks1';
const PERSON_NAME_TITLE = /^(姓名|客户姓名|客户名称|联系人|真实姓名)$/;
const personal = resources.filter(
  (s) => s.actions.includes('add') && s.fields.some((f) => f.mask || (f.type === 'string' && PERSON_NAME_TITLE.test(f.title))),
);

describe.each(testApps())('the operation log masks personal data on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  /** full values written, with where they came from */
  const written: Array<{ where: string; value: string }> = [];

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('writes every kind through every area, and a log:list role reads none of it in full', async () => {
    const kinds = new Set<string>();
    for (const spec of personal) {
      const body = await sampleBody(t.app, admin, resources, spec, 0);
      // a birthday of its own, so that no other date of the record (entry dates...) holds the same text
      for (const f of spec.fields) if (f.mask === 'date' && f.name in body) body[f.name] = '1988-07-16';
      const res = await t.app.inject({
        method: 'POST',
        url: `/${spec.path}`,
        headers: { ...bearer(admin), submit_id: submitId() },
        payload: body,
      });
      // a create refused by the resource's own rules is still logged with its parameters
      expect(res.statusCode, `${spec.name}: ${res.body}`).toBeLessThan(500);
      for (const f of spec.fields) {
        const kind = f.mask ?? (PERSON_NAME_TITLE.test(f.title) ? 'name' : undefined);
        const v = body[f.name];
        if (!kind || typeof v !== 'string' || [...v].length < 3) continue;
        kinds.add(kind);
        written.push({ where: `${spec.name}.${f.name} (${kind})`, value: v });
      }
    }
    const root = Number(
      (await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id,
    );
    const readerId = await createStaff(t.app, { username: 'log_reader', password: PASSWORD, permissions: ['log:list'], dataScope: '全部' });
    const role = Number(
      (await t.app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', readerId).executeTakeFirstOrThrow())
        .role_id,
    );
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: {
        username: 'log_person',
        nickName: '日志',
        phone: '13600001111',
        email: 'log.person@example.com',
        sex: 1,
        enabled: true,
        orgId: root,
        deptId: root,
        roles: [{ id: role }],
      },
    });
    expect(user.statusCode, user.body).toBe(201);
    written.push({ where: 'user.phone', value: '13600001111' }, { where: 'user.email', value: 'log.person@example.com' });
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['address', 'bankCard', 'date', 'email', 'id', 'name', 'phone']));

    const reader = await loginAs(t.app, 'log_reader', PASSWORD);
    const page = await t.app.inject({ method: 'GET', url: '/api/logs?size=1000', headers: bearer(reader) });
    expect(page.statusCode, page.body).toBe(200);
    const stored = JSON.stringify(
      await t.app.database.db.selectFrom('sys_log').select(['params', 'exception_detail', 'description']).execute(),
    );
    // the log did record the writes
    const methods = await t.app.database.db.selectFrom('sys_log').select('method').execute();
    for (const spec of personal) expect(methods.map((m) => String(m.method))).toContain(`POST /${spec.path}`);
    const leaks = written.filter((w) => page.body.includes(w.value) || stored.includes(w.value)).map((w) => `${w.where}: ${w.value}`);
    console.log(`log masks: ${written.length} personal values of ${kinds.size} kinds written through ${personal.length + 1} areas`);
    expect(leaks).toEqual([]);
  }, 120_000);

  it('masks personal values typed into free text, where no key says what they are', async () => {
    // each kind the free-text rules know, as a person would type it into a title, a description or a search
    const values = {
      id: '11010519491231002X',
      bankCard: '6214830102030409',
      phone: '13922334455',
      email: 'wang.xiaoming@163.com',
    };
    expect(isLuhn(values.bankCard)).toBe(true); // a card number that fails the check is not taken for one
    const text = `身份证${values.id}，卡号 ${values.bankCard}，电话${values.phone}，邮箱 ${values.email}`;
    const before = await t.app.database.db
      .selectFrom('sys_log')
      .select(({ fn }) => fn.max('id').as('top'))
      .executeTakeFirst();
    const top = Number(before?.top ?? 0);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/sysQuestion',
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: { userType: '员工', model: '其他', title: text.slice(0, 100), content: text, remark: text },
    });
    expect(posted.statusCode, posted.body).toBeLessThan(500);
    // a refused search is logged too (with its query)
    await t.app.inject({ method: 'GET', url: `/api/sysQuestion?blurry=${encodeURIComponent(text)}`, headers: bearer(admin) });
    const rows = await t.app.database.db
      .selectFrom('sys_log')
      .select(['method', 'params', 'exception_detail', 'description'])
      .where('id', '>', top)
      .execute();
    const stored = JSON.stringify(rows);
    expect(stored).toContain('POST /api/sysQuestion');
    const leaks = Object.entries(values).filter(([, v]) => stored.includes(v));
    expect(leaks).toEqual([]);
    // what is there is the masked form of each
    for (const shown of ['1101*********1002X', '139****4455']) expect(stored).toContain(shown);
    expect(stored).toMatch(/\*{8,}0409/);
    expect(stored).toMatch(/\*+@163\.com/);
  });
});
