import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import {
  addCustomer,
  addMember,
  consentCode,
  CAR_TYPE_IDS,
  createCompany,
  dealerToken,
  demand,
  seedCarTypes,
  submitDemand,
  VIN_B,
} from './dealer-helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';

/** a node of the brand tree */
interface TreeNode {
  name: string;
  children?: TreeNode[];
}

describe.each(testApps())('dealer customers and demands on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let a: string;
  let b: string;
  let compA: number;
  let compB: number;
  let custA: number;
  let custB: number;
  const inject = (method: string, url: string, token: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await start({ dbcDailyPrice: 150 });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    compA = await createCompany(t.app, admin, 'dealera');
    compB = await createCompany(t.app, admin, 'dealerb');
    a = await dealerToken(t.app, 'dealera');
    b = await dealerToken(t.app, 'dealerb');
    await addMember(t.app, { mobile: '13800000001', surname: '张伟', subscribe: 1 });
    await addMember(t.app, { mobile: '13800000002', surname: '李娜', subscribe: 0, sex: 0 });
    await addMember(t.app, { mobile: '13800000009', surname: '未注册', subscribe: 1, status: 0 });
    custA = await addCustomer(t.app, a, '13800000001');
    custB = await addCustomer(t.app, b, '13800000001');
    await seedCarTypes(t.app);
  });
  afterAll(() => t.close());

  it('looks members up by mobile after the consent code and warns about unknown ones', async () => {
    const code = await consentCode(t.app, a, '13800000001');
    const ok = await inject('GET', `/comp/dbcCompany/getMember?mobile=13800000001&code=${code}`, a);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      mobile: '13800000001',
      surname: '张伟',
      sex: 1,
      mid: 'M0001',
      idno: '4101*********71230',
      status: 1,
      subscribe: 1,
    });
    expect(ok.json<Row>().birthday).not.toBe('1990-03-07');
    // the code is used up
    expect(errorOf(await inject('GET', `/comp/dbcCompany/getMember?mobile=13800000001&code=${code}`, a)).message).toBe(
      '验证码错误或已过期',
    );
    for (const mobile of ['13800000077', '13800000009']) {
      const res = await inject('GET', `/comp/dbcCompany/getMember?mobile=${mobile}&code=${await consentCode(t.app, a, mobile)}`, a);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toBe('您好您还未注册公众号账户请注册后再来');
    }
    expect(errorOf(await inject('GET', '/comp/dbcCompany/getMember?mobile=', a)).message).toBe('请输入电话号码');
    expect(errorOf(await inject('GET', '/comp/dbcCompany/getMember?mobile=1234', a)).message).toBe('请输入正确的11位手机号码');
    expect(errorOf(await inject('GET', '/comp/dbcCompany/getMember?mobile=a&mobile=b', a)).status).toBe(400);
  });

  it('adds customers from the member data only, once per company, with the consent code', async () => {
    const res = await inject('GET', `/comp/dbcCompany/getDbcUserInfo?id=${custA}`, a);
    expect(res.json()).toMatchObject({ compId: compA, mobile: '13800000001', surname: '张伟', subscribe: 1, idno: '4101*********71230' });
    // the stored customer keeps the full ID number (staff with the key read it)
    const stored = await t.app.database.db.selectFrom('dbc_user_info').select('idno').where('id', '=', custA).executeTakeFirstOrThrow();
    expect(stored.idno).toBe('410102199003071230');
    // body fields other than the mobile and code are ignored: the member's data wins
    const forged = await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, {
      mobile: '13800000002',
      code: await consentCode(t.app, a, '13800000002'),
      surname: '伪造',
      subscribe: 1,
      compId: compB,
    });
    expect(forged.statusCode).toBe(201);
    expect(forged.json()).toMatchObject({ compId: compA, surname: '李娜', subscribe: 0, idno: '4101*********71230' });
    expect(errorOf(await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, { mobile: '13800000002' })).message).toBe(
      '该手机号的客户已存在',
    );
    const unknown = { mobile: '13800000077', code: await consentCode(t.app, a, '13800000077') };
    expect(errorOf(await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, unknown)).message).toBe(
      '您好您还未注册公众号账户请注册后再来',
    );
    expect(errorOf(await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, {})).message).toBe('请输入电话号码');
    expect(errorOf(await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, [1])).status).toBe(400);
  });

  it('shows a dealer only its own customers: by list, by id, by crafted query and body', async () => {
    const listA = await inject('GET', '/comp/dbcCompany/getDbcUserInfos?page=0&size=10', a);
    expect(listA.json<Page>().content.every((c) => c.compId === compA)).toBe(true);
    expect(listA.json<Page>().totalElements).toBe(2);
    const crafted = await inject('GET', `/comp/dbcCompany/getDbcUserInfos?compId=${compB}`, a);
    expect(crafted.json<Page>().content.every((c) => c.compId === compA)).toBe(true);
    const search = await inject('GET', '/comp/dbcCompany/getDbcUserInfos?mobile=0002', a);
    expect(search.json<Page>().content.map((c) => c.surname)).toEqual(['李娜']);
    const byId = await inject('GET', `/comp/dbcCompany/getDbcUserInfo?id=${custB}`, a);
    expect(byId.statusCode).toBe(404);
    expect(errorOf(byId).message).toBe('客户不存在');
    const edit = await inject('PUT', '/comp/dbcCompany/updateDbcUserInfo', a, { id: custB, mobile: '13800000001' });
    expect(edit.statusCode).toBe(404);
    expect(errorOf(await inject('GET', '/comp/dbcCompany/getDbcUserInfos?sort=password,desc', a)).status).toBe(400);
  });

  it('checks every rule of the demand form on the server', async () => {
    const post = (overrides: Record<string, unknown>) => inject('POST', '/comp/dbcCompany/submitDbcInfo', a, demand(custA, overrides));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ userCph: '' }, '车牌号不能为空'],
      [{ userCph: 'AB12345' }, '请输入正确的车牌号'],
      [{ userCph: '豫I12345' }, '请输入正确的车牌号'],
      [{ userVin: 'LSVAU2180N2183294' }, '请输入正确的底盘号'],
      [{ userVin: 'LSVAU218XN218329' }, '请输入正确的底盘号'],
      [{ userVin: null }, '底盘号不能为空'],
      [{ wxgsf: -1 }, '请输入正确的工时费'],
      [{ wxgsf: 'abc' }, '请输入正确的工时费'],
      [{ wxgsf: undefined }, '预估工时费不能为空'],
      [{ wxts: 0 }, '请输入正整数'],
      [{ mfts: 1.5 }, '请输入正整数'],
      [{ zfts: -2 }, '请输入正整数'],
      [{ foregiftPrice: 3000 }, '押金只能是2000或4000'],
      [{ startTime: '' }, '开始时间不能为空'],
      [{ startTime: '2026-02-30 10:00:00' }, '时间格式不正确，应为yyyy-MM-dd HH:mm:ss'],
      [{ endTime: '2026-10-30 09:00:00' }, '结束时间必须晚于开始时间'],
      [{ endTime: '2026-11-01 09:00:00' }, '结束时间必须晚于开始时间'],
      [{ userCarType: '大众' }, '请选择完整的车型（品牌/车系/车型）'],
      [{ userCarType: '大众//朗逸' }, '请选择完整的车型（品牌/车系/车型）'],
      [{ bah: ' ' }, '报案号不能为空'],
      [{ createUser: '' }, '申请人不能为空'],
      [{ duId: 'x' }, '客户ID必须是正整数'],
    ];
    for (const [overrides, message] of cases) {
      const res = await post(overrides);
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(errorOf(res).message, JSON.stringify(overrides)).toBe(message);
    }
    const count = await t.app.database.db.selectFrom('dbc_info').select(t.app.database.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('accepts a demand only when the customer follows the official account', async () => {
    const lina = (await inject('GET', '/comp/dbcCompany/getDbcUserInfos?mobile=13800000002', a)).json<Page<Created>>().content[0];
    const res = await inject('POST', '/comp/dbcCompany/submitDbcInfo', a, demand(lina.id));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('客户还未关注公众号，请先关注公众号');
    // once the member follows, the demand goes through (the flag is read again at submit)
    await t.app.database.db.updateTable('dbc_member').set({ subscribe: 1 }).where('mobile', '=', '13800000002').execute();
    const ok = await inject('POST', '/comp/dbcCompany/submitDbcInfo', a, demand(lina.id, { userVin: VIN_B }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ subscribe: 1, khName: '李娜' });
  });

  it('computes countPrice and takes compId from the token, whatever the body says', async () => {
    const res = await inject(
      'POST',
      '/comp/dbcCompany/submitDbcInfo',
      a,
      demand(custA, { compId: compB, countPrice: 1, status: 7, shStatus: 2, zfts: 3, foregiftPrice: 4000, userCph: '豫ad12345' }),
    );
    expect(res.statusCode).toBe(201);
    const r = res.json<Row>();
    expect(r).toMatchObject({
      compId: compA,
      duId: custA,
      status: 1,
      shStatus: 1,
      ddStatus: 0,
      countPrice: 3 * 150 + 4000,
      khName: '张伟',
      khMobile: '13800000001',
      userCph: '豫AD12345',
    });
    // a demand for another company's customer is refused
    const other = await inject('POST', '/comp/dbcCompany/submitDbcInfo', a, demand(custB));
    expect(other.statusCode).toBe(404);
    // staff cannot delete a customer that has demands
    const del = await inject('DELETE', '/api/dbc/dbcUserInfo', admin, [custA]);
    expect(errorOf(del).message).toBe('该客户还有用车需求，不能删除');
    const delCompany = await inject('DELETE', '/api/system/dbcCompany', admin, [compA]);
    expect(errorOf(delCompany).message).toBe('该经销商下还有客户或用车需求，不能删除，可改为禁用');
    expect((await inject('GET', `/comp/dbcCompany/getDbcUserInfo?id=${custA}`, a)).statusCode).toBe(200);
  });

  it('shows a dealer only its own demands: by list, by id, by update', async () => {
    const idB = await submitDemand(t.app, b, custB);
    const listA = await inject('POST', '/comp/dbcCompany/getDbcInfos', a, { page: 0, size: 10, compId: compB });
    expect(listA.statusCode).toBe(200);
    expect(listA.json<Page>().content.length).toBeGreaterThan(0);
    expect(listA.json<Page>().content.every((r) => r.compId === compA)).toBe(true);
    const listB = await inject('POST', '/comp/dbcCompany/getDbcInfos', b, { blurry: '张伟' });
    expect(listB.json<Page>().content.map((r) => r.id)).toEqual([idB]);
    expect((await inject('GET', `/comp/dbcCompany/getDbcInfo?id=${idB}`, a)).statusCode).toBe(404);
    expect((await inject('GET', `/comp/dbcCompany/getDbcInfoHistory?id=${idB}`, a)).statusCode).toBe(404);
    const edit = await inject('PUT', '/comp/dbcCompany/updateDbcInfo', a, { ...demand(custA), id: idB });
    expect(edit.statusCode).toBe(404);
    const stolen = await inject('PUT', '/comp/dbcCompany/updateDbcInfo', b, { ...demand(custA), id: idB });
    expect(stolen.statusCode).toBe(404);
    const row = await t.app.database.db.selectFrom('dbc_info').select(['comp_id', 'du_id']).where('id', '=', idB).executeTakeFirstOrThrow();
    expect([Number(row.comp_id), Number(row.du_id)]).toEqual([compB, custB]);
    expect(errorOf(await inject('POST', '/comp/dbcCompany/getDbcInfos', a, { status: 'abc' })).status).toBe(400);
    expect(errorOf(await inject('POST', '/comp/dbcCompany/getDbcInfos', a, { password: 'x' })).status).toBe(400);
  });

  it('lets staff submit for a dealer only with submitDbcInfo:add', async () => {
    await createStaff(t.app, { username: 'agent', password: 'Agent@123', permissions: ['submitDbcInfo:add', 'dbcInfo:list'] });
    await createStaff(t.app, { username: 'viewer', password: 'Viewer@123', permissions: [] });
    const agent = await loginAs(t.app, 'agent', 'Agent@123');
    const viewer = await loginAs(t.app, 'viewer', 'Viewer@123');
    expect((await inject('POST', '/api/dbc/dbcInfo/submitDbcInfo', viewer, { ...demand(custA), compId: compA })).statusCode).toBe(403);
    // the customer must belong to the company named
    expect((await inject('POST', '/api/dbc/dbcInfo/submitDbcInfo', agent, { ...demand(custB), compId: compA })).statusCode).toBe(404);
    const ok = await inject('POST', '/api/dbc/dbcInfo/submitDbcInfo', agent, { ...demand(custA), compId: compA });
    expect(ok.statusCode).toBe(201);
    expect(ok.json<Row>().compId).toBe(compA);
    const lookup = await inject(
      'GET',
      `/api/dbc/dbcInfo/queryQmbcByVin?vin=${ok.json<{ userVin: string }>().userVin}&page=0&size=10&sort=id,desc`,
      agent,
    );
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json<Page>().content.length).toBeGreaterThan(0);
    expect(lookup.json<Page>().content.every((r) => r.userVin === ok.json<Row>().userVin)).toBe(true);
    const other = await inject('GET', `/api/other/otherSysDbx?vin=${VIN_B}&page=0&size=10&sort=id,desc`, agent);
    expect(other.json<Page>().content.every((r) => r.userVin === VIN_B)).toBe(true);
    expect(errorOf(await inject('GET', '/api/other/otherSysDbx?vin=', agent)).message).toBe('底盘号不能为空');
  });

  const flag = (v: boolean) => (t.app.database.dialect === 'postgres' ? v : Number(v));

  it('answers the brand tree to a dealer token only (getTree?levels)', async () => {
    const tree = await inject('GET', '/comp/dbcCompany/getTree?levels=4', a);
    expect(tree.statusCode).toBe(200);
    const vw = tree.json<TreeNode[]>().find((n) => n.name === '大众')!;
    expect(vw.children!.map((n) => n.name)).toEqual(['朗逸', '途观L']);
    expect(vw.children![0].children![0].children!.map((n) => n.name)).toEqual(['舒适版', '豪华版']);
    const two = (await inject('GET', '/comp/dbcCompany/getTree?levels=2', a)).json<TreeNode[]>();
    expect(two[0].children![0].children).toBeUndefined();
    expect(errorOf(await inject('GET', '/comp/dbcCompany/getTree?levels=9', a)).message).toBe('参数levels必须是1到5的整数');
    // a disabled node hides its branch
    await t.app.database.db
      .updateTable('brand_tree')
      .set({ enabled: flag(false) })
      .where('name', '=', '途观L')
      .execute();
    expect((await inject('GET', '/comp/dbcCompany/getTree', a)).json<TreeNode[]>()[0].children!.map((n) => n.name)).toEqual(['朗逸']);
    await t.app.database.db
      .updateTable('brand_tree')
      .set({ enabled: flag(true) })
      .where('name', '=', '途观L')
      .execute();
    expect((await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/getTree?levels=4' })).statusCode).toBe(401);
    expect((await inject('GET', '/comp/dbcCompany/getTree?levels=4', admin)).statusCode).toBe(401);
  });

  it('takes a car type only as a branch of the brand tree down to the configuration', async () => {
    const before = await t.app.database.db.selectFrom('dbc_info').select(t.app.database.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const cases: Array<[Record<string, unknown>, string]> = [
      // made up, or names that do not match the picked ids
      [{ userCarType: '大众/朗逸/2099款 火星版' }, '所选车型在品牌车型中不存在或已停用，请重新选择'],
      [{ userCarType: '大众/途观L/2024款 1.5L' }, '所选车型在品牌车型中不存在或已停用，请重新选择'],
      [{ carTypeIds: [1, 2, 3, 999] }, '所选车型在品牌车型中不存在或已停用，请重新选择'],
      // ids of another branch (途观L's configuration under 朗逸's model)
      [{ carTypeIds: [1, 2, 3, 8] }, '所选车型在品牌车型中不存在或已停用，请重新选择'],
      // too short: stops at the model, or no pick at all
      [{ carTypeIds: [1, 2, 3] }, '请选择到车型配置（第4级）'],
      [{ carTypeIds: undefined }, '请选择到车型配置（第4级）'],
      [{ carTypeIds: '1,2,3,4' }, '车型数据格式不正确，请重新选择车型'],
      [{ carTypeIds: [1, 2, -3, 4] }, '车型数据格式不正确，请重新选择车型'],
    ];
    for (const [overrides, message] of cases) {
      for (const [url, token, extra] of [
        ['/comp/dbcCompany/submitDbcInfo', a, {}],
        ['/api/dbc/dbcInfo/submitDbcInfo', admin, { compId: compA }],
      ] as const) {
        const res = await inject('POST', url, token, { ...demand(custA, overrides), ...extra });
        expect(res.statusCode, `${url} ${JSON.stringify(overrides)}`).toBe(400);
        expect(errorOf(res).message, `${url} ${JSON.stringify(overrides)}`).toBe(message);
      }
    }
    // a disabled configuration is no longer offered
    await t.app.database.db
      .updateTable('brand_tree')
      .set({ enabled: flag(false) })
      .where('id', '=', 4)
      .execute();
    expect(errorOf(await inject('POST', '/comp/dbcCompany/submitDbcInfo', a, demand(custA))).message).toBe(
      '所选车型在品牌车型中不存在或已停用，请重新选择',
    );
    await t.app.database.db
      .updateTable('brand_tree')
      .set({ enabled: flag(true) })
      .where('id', '=', 4)
      .execute();
    const after = await t.app.database.db.selectFrom('dbc_info').select(t.app.database.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // valid paths: the saved value is the brand/series/model names
    const ok = await inject(
      'POST',
      '/comp/dbcCompany/submitDbcInfo',
      a,
      demand(custA, { userCarType: '大众/朗逸/2024款 1.5L', carTypeIds: [1, 2, 3, 5] }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json<Row>().userCarType).toBe('大众/朗逸/2024款 1.5L');
    const id = ok.json<Created>().id;
    // an edit: a new made-up path is refused, the saved one may stay without a new pick, a new pick is checked
    const edit = (overrides: Record<string, unknown>) =>
      inject('PUT', '/comp/dbcCompany/updateDbcInfo', a, { ...demand(custA, overrides), id });
    expect(errorOf(await edit({ userCarType: '大众/朗逸/不存在', carTypeIds: undefined })).message).toBe('请选择到车型配置（第4级）');
    expect(errorOf(await edit({ userCarType: '大众/途观L/2024款 330TSI', carTypeIds: [1, 6, 7] })).message).toBe(
      '请选择到车型配置（第4级）',
    );
    expect((await edit({ carTypeIds: undefined })).statusCode).toBe(204);
    expect((await edit({ userCarType: '大众/途观L/2024款 330TSI', carTypeIds: [1, 6, 7, 8] })).statusCode).toBe(204);
    expect((await inject('GET', `/comp/dbcCompany/getDbcInfo?id=${id}`, a)).json<Row>().userCarType).toBe('大众/途观L/2024款 330TSI');
    expect(CAR_TYPE_IDS).toEqual([1, 2, 3, 4]);
  });
});
