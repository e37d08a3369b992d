/**
 * Sales leads (潜客档案) through their calls: passenger flow to clue, duplicate checks, clue to
 * file, allotment to a consultant of the same company, the consultant's own list and
 * processing, activation, channel and company changes; ownership and keys on the server.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowText } from '../../src/server/db/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';

const F = '/api/xs/xsSubmersibleFile';

describe.each(testApps())('sales leads on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  let gu: string; // consultant 1
  let wang: string; // consultant 2
  let clerk: string; // may add, no consultant key, sees mobiles masked
  let front: string; // front desk: may add and reads mobiles in full (registers showroom visits)
  let localFront: string; // the same keys, own company only
  let desk: string; // reads mobiles in full (xsSubmersibleFile:sensitive), every company
  let localDesk: string; // the same key, own company only
  let guId: number;
  let plainId: number;
  let orgId: number;
  let otherOrg: number;
  let leadId: number;

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const lead = async (id: number) => (await call(admin, 'GET', `${F}?id=${id}`)).json<Page>().content[0];
  const contacts = async (id: number) =>
    (await call(admin, 'GET', `/api/xs/xsSubmersibleContact?fileId=${id}&size=100`)).json<Page>().content;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    guId = await createStaff(t.app, { username: 'gu_xs', password: 'Consult@2024', permissions: ['xsSubmersibleFile:own'] });
    await createStaff(t.app, { username: 'wang_xs', password: 'Consult@2024', permissions: ['xsSubmersibleFile:own'] });
    plainId = await createStaff(t.app, {
      username: 'clerk_xs',
      password: 'Clerk@20240',
      permissions: ['xsSubmersibleFile:list', 'xsSubmersibleFile:add'],
      dataScope: '全部',
    });
    gu = await loginAs(t.app, 'gu_xs', 'Consult@2024');
    wang = await loginAs(t.app, 'wang_xs', 'Consult@2024');
    clerk = await loginAs(t.app, 'clerk_xs', 'Clerk@20240');
    await createStaff(t.app, {
      username: 'desk_xs',
      password: 'Desk@202400',
      permissions: ['xsSubmersibleFile:list', 'xsSubmersibleFile:sensitive'],
      dataScope: '全部',
    });
    await createStaff(t.app, {
      username: 'desk_local',
      password: 'Desk@202400',
      permissions: ['xsSubmersibleFile:list', 'xsSubmersibleFile:sensitive'],
    });
    await createStaff(t.app, {
      username: 'front_xs',
      password: 'Front@202400',
      permissions: ['xsSubmersibleFile:list', 'xsSubmersibleFile:add', 'xsSubmersibleFile:sensitive'],
      dataScope: '全部',
    });
    await createStaff(t.app, {
      username: 'front_local',
      password: 'Front@202400',
      permissions: ['xsSubmersibleFile:list', 'xsSubmersibleFile:add', 'xsSubmersibleFile:sensitive'],
    });
    front = await loginAs(t.app, 'front_xs', 'Front@202400');
    localFront = await loginAs(t.app, 'front_local', 'Front@202400');
    desk = await loginAs(t.app, 'desk_xs', 'Desk@202400');
    localDesk = await loginAs(t.app, 'desk_local', 'Desk@202400');
    const root = await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow();
    orgId = Number(root.id);
    const other = await t.app.database.db
      .insertInto('sys_dept')
      .values({ pid: null, name: '郑州二店', sort: 2, enabled: 1, create_time: nowText() })
      .returning('id')
      .executeTakeFirstOrThrow();
    otherOrg = Number(other.id);
  });
  afterAll(() => t?.close());

  it('seeds the consultant and allot keys under the leads menu', async () => {
    const keys = (
      await t.app.database.db.selectFrom('sys_menu').select('permission').where('permission', 'like', 'xsSubmersibleFile:%').execute()
    ).map((r): unknown => r.permission);
    expect(keys).toEqual(expect.arrayContaining(['xsSubmersibleFile:own', 'xsSubmersibleFile:allot']));
  });

  it('getSalesConsultant answers the holders of xsSubmersibleFile:own in the company', async () => {
    const res = await call(clerk, 'GET', `${F}/getSalesConsultant?orgId=${orgId}`);
    expect(res.statusCode).toBe(200);
    const names = res.json<Array<{ username: string }>>().map((s) => s.username);
    expect(names.sort()).toEqual(['gu_xs', 'wang_xs']);
    expect((await call(clerk, 'GET', `${F}/getSalesConsultant?orgId=${otherOrg}`)).json()).toEqual([]);
    const missing = await call(clerk, 'GET', `${F}/getSalesConsultant`);
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toBe('请选择公司');
  });

  it('passengerFlowTransform makes a clue, and a returning visitor a visit on the same clue', async () => {
    const denied = await call(gu, 'POST', `${F}/passengerFlowTransform`, { customerName: '张三', mobile: '13912345678', orgId });
    expect(denied.statusCode).toBe(403);
    const bad = await call(front, 'POST', `${F}/passengerFlowTransform`, { customerName: '张三', mobile: '1391234', orgId });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toBe('请输入正确的11位手机号码');
    const noName = await call(front, 'POST', `${F}/passengerFlowTransform`, { mobile: '13912345678', orgId });
    expect(errorOf(noName).message).toBe('客户姓名不能为空');

    const first = await call(front, 'POST', `${F}/passengerFlowTransform`, {
      customerName: '张三',
      mobile: '13912345678',
      orgId,
      intentModel: '帕萨特',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json<Created<{ created: boolean }>>().created).toBe(true);
    leadId = first.json<Created>().id;
    expect(await lead(leadId)).toMatchObject({
      stage: 1,
      status: 0,
      source: '客流',
      channel: '展厅',
      isMain: true,
      consultantId: null,
      createUser: 'front_xs',
    });
    const again = await call(front, 'POST', `${F}/passengerFlowTransform`, { customerName: '张三', mobile: '13912345678', orgId });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ created: false, id: leadId });
    expect(await contacts(leadId)).toHaveLength(2);
  });

  it('a visit is a look-up by mobile: refused alike for a number on file and a new one without the full read, and outside the data scope', async () => {
    const before = await contacts(leadId);
    for (const mobile of ['13912345678', '13912345670']) {
      const res = await call(clerk, 'POST', `${F}/passengerFlowTransform`, { customerName: '张三', mobile, orgId });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).message).toBe('无权按「手机号」查询或排序：该字段为个人信息，需要查看完整个人信息的权限');
    }
    // a 本级 front desk registers visits in its own company only, whether the number is known there or not
    for (const mobile of ['13912345678', '13912345670']) {
      expect(
        (await call(localFront, 'POST', `${F}/passengerFlowTransform`, { customerName: '张三', mobile, orgId: otherOrg })).statusCode,
      ).toBe(403);
    }
    expect(await contacts(leadId)).toHaveLength(before.length);
    const stored = await call(admin, 'GET', `${F}?mobile=13912345670`);
    expect(stored.json<Page>().totalElements).toBe(0);
  });

  it('isCreate and getValidMainClue see the open main clue of a number in a company', async () => {
    const taken = await call(desk, 'POST', `${F}/isCreate`, { mobile: '13912345678', orgId });
    expect(taken.json()).toMatchObject({ create: false, fileId: leadId });
    expect((await call(desk, 'POST', `${F}/isCreate`, { mobile: '13912345678', orgId: otherOrg })).json<{ create: boolean }>().create).toBe(
      true,
    );
    expect((await call(desk, 'POST', `${F}/isCreate`, { mobile: '13800000000', orgId })).json<{ create: boolean }>().create).toBe(true);
    expect((await call(desk, 'POST', `${F}/isCreate`, { mobile: '13800000000' })).statusCode).toBe(400);
    const main = await call(desk, 'GET', `${F}/getValidMainClue?mobile=13912345678&orgId=${orgId}`);
    expect(main.json()).toMatchObject({ id: leadId, customerName: '张三', mobile: '13912345678' });
    expect((await call(desk, 'GET', `${F}/getValidMainClue?mobile=13800000000&orgId=${orgId}`)).json()).toBeNull();
    // a 本级 user asks about a company outside the data scope: refused
    expect((await call(localDesk, 'POST', `${F}/isCreate`, { mobile: '13912345678', orgId: otherOrg })).statusCode).toBe(403);
    expect((await call(localDesk, 'GET', `${F}/getValidMainClue?mobile=13912345678&orgId=${otherOrg}`)).statusCode).toBe(403);
  });

  it('a caller who sees mobiles masked may not look a lead up by mobile: one 403 for a stored number and a wrong guess', async () => {
    for (const mobile of ['13912345678', '13912345679']) {
      for (const res of [
        await call(clerk, 'POST', `${F}/isCreate`, { mobile, orgId }),
        await call(clerk, 'GET', `${F}/getValidMainClue?mobile=${mobile}&orgId=${orgId}`),
        await call(gu, 'POST', `${F}/isCreate`, { mobile, orgId }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(errorOf(res).message).toBe('无权按「手机号」查询或排序：该字段为个人信息，需要查看完整个人信息的权限');
      }
    }
  });

  it('clueConvertSubmersibleFile turns clues into files once', async () => {
    expect((await call(clerk, 'POST', `${F}/clueConvertSubmersibleFile`, { ids: [leadId] })).statusCode).toBe(403);
    const ok = await call(admin, 'POST', `${F}/clueConvertSubmersibleFile`, { ids: [leadId] });
    expect(ok.json()).toEqual({ count: 1 });
    expect((await lead(leadId)).stage).toBe(2);
    const twice = await call(admin, 'POST', `${F}/clueConvertSubmersibleFile`, { ids: [leadId] });
    expect(twice.statusCode).toBe(400);
    expect(errorOf(twice).message).toContain('已是潜客档案');
    expect((await call(admin, 'POST', `${F}/clueConvertSubmersibleFile`, { ids: [] })).statusCode).toBe(400);
  });

  it('allot needs xsSubmersibleFile:allot, a consultant of the same company, and is all or nothing', async () => {
    expect((await call(gu, 'POST', `${F}/allot`, { ids: [leadId], consultantId: guId })).statusCode).toBe(403);
    const notConsultant = await call(admin, 'POST', `${F}/allot`, { ids: [leadId], consultantId: plainId });
    expect(notConsultant.statusCode).toBe(400);
    expect(errorOf(notConsultant).message).toBe('所选人员不是在职的销售顾问');
    const partial = await call(admin, 'POST', `${F}/allot`, { ids: [leadId, 987654], consultantId: guId });
    expect(partial.statusCode).toBe(404);
    expect((await lead(leadId)).consultantId).toBeNull();
    const ok = await call(admin, 'POST', `${F}/allot`, { ids: [leadId], consultantId: guId });
    expect(ok.json()).toEqual({ count: 1 });
    expect(await lead(leadId)).toMatchObject({ consultantId: guId, consultantName: 'gu_xs', status: 1 });
    expect((await lead(leadId)).allotTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("getOwn answers only the signed-in consultant's leads", async () => {
    const own = await call(gu, 'GET', `${F}/getOwn?page=0&size=10`);
    expect(own.json()).toMatchObject({ totalElements: 1, content: [{ id: leadId }] });
    // the consultant's own leads are masked too without xsSubmersibleFile:sensitive
    expect(own.json<Page>().content[0]).toMatchObject({ customerName: '张*', mobile: '139****5678' });
    expect(own.body).not.toContain('13912345678');
    expect((await call(wang, 'GET', `${F}/getOwn`)).json<Page>().totalElements).toBe(0);
    // asking for someone else's does not widen it
    expect((await call(wang, 'GET', `${F}/getOwn?consultantId=${guId}`)).json<Page>().totalElements).toBe(0);
    expect((await call(gu, 'GET', `${F}/getOwn?status=1&status=2`)).json<Page>().totalElements).toBe(1);
    expect((await call(gu, 'GET', `${F}/getOwn?nope=1`)).statusCode).toBe(400);
  });

  it('the generic edit cannot move a lead to another consultant or status', async () => {
    const record = await lead(leadId);
    const put = await call(admin, 'PUT', F, { ...record, consultantId: 1, status: 4, level: 'H' });
    expect(put.statusCode).toBe(204);
    expect(await lead(leadId)).toMatchObject({ consultantId: guId, status: 1, level: 'H' });
  });

  it("processClue: only the lead's consultant; defeat needs its reason; each step is a contact record", async () => {
    const other = await call(wang, 'PUT', `${F}/processClue`, { id: leadId, result: 'follow', content: '电话回访' });
    expect(other.statusCode).toBe(403);
    expect(errorOf(other).message).toBe('只能处理分配给自己的潜客');
    const clerkTry = await call(clerk, 'PUT', `${F}/processClue`, { id: leadId, result: 'follow', content: '电话回访' });
    expect(clerkTry.statusCode).toBe(403);
    const noReason = await call(gu, 'PUT', `${F}/processClue`, { id: leadId, result: 'defeat', content: '客户已购竞品' });
    expect(errorOf(noReason).message).toBe('战败原因不能为空');
    const badResult = await call(gu, 'PUT', `${F}/processClue`, { id: leadId, result: 'maybe', content: 'x' });
    expect(errorOf(badResult).message).toBe('请选择处理结果');
    const before = (await contacts(leadId)).length;
    const follow = await call(gu, 'PUT', `${F}/processClue`, {
      id: leadId,
      result: 'follow',
      content: '电话回访，周末到店',
      nextTime: '2026-12-01 10:00:00',
      way: '电话',
    });
    expect(follow.statusCode).toBe(200);
    expect(await lead(leadId)).toMatchObject({ status: 2, nextTime: '2026-12-01 10:00:00' });
    expect(await contacts(leadId)).toHaveLength(before + 1);
    const defeat = await call(gu, 'PUT', `${F}/processClue`, {
      id: leadId,
      result: 'defeat',
      content: '客户已购竞品',
      defeatReason: '价格',
    });
    expect(defeat.json()).toEqual({ id: leadId, status: 3 });
    expect((await lead(leadId)).defeatReason).toBe('价格');
    const closed = await call(gu, 'PUT', `${F}/processClue`, { id: leadId, result: 'follow', content: '再次回访' });
    expect(errorOf(closed).message).toBe('只能处理待处理或跟进中的潜客');
    // a defeated lead is no longer the open main clue
    expect((await call(desk, 'POST', `${F}/isCreate`, { mobile: '13912345678', orgId })).json<{ create: boolean }>().create).toBe(true);
  });

  it('activation brings a defeated lead back to its consultant; isTjgc follows a won lead', async () => {
    expect((await call(wang, 'PUT', `${F}/activation`, { id: leadId })).statusCode).toBe(403);
    const ok = await call(gu, 'PUT', `${F}/activation`, { id: leadId });
    expect(ok.json()).toEqual({ id: leadId, status: 2 });
    expect(await lead(leadId)).toMatchObject({ status: 2, isMain: true, defeatReason: null });
    expect((await call(gu, 'PUT', `${F}/activation`, { id: leadId })).statusCode).toBe(400);
    expect((await call(gu, 'GET', `${F}/isTjgc?id=${leadId}`)).json()).toEqual({ id: leadId, tjgc: false });
    await call(gu, 'PUT', `${F}/processClue`, { id: leadId, result: 'won', content: '签订合同' });
    expect((await call(gu, 'GET', `${F}/isTjgc?id=${leadId}`)).json()).toEqual({ id: leadId, tjgc: true });
    expect((await call(gu, 'GET', `${F}/isTjgc?id=abc`)).statusCode).toBe(400);
    expect((await call(gu, 'GET', `${F}/isTjgc?id=987654`)).statusCode).toBe(404);
  });

  it('upChannel changes the channel of several leads; upBatchOrgId moves open leads to another company', async () => {
    const open = (
      await call(front, 'POST', `${F}/passengerFlowTransform`, { customerName: '李四', mobile: '13700001111', orgId })
    ).json<Created>().id;
    await call(admin, 'POST', `${F}/allot`, { ids: [open], consultantId: guId });
    const badChannel = await call(admin, 'PUT', `${F}/upChannel`, { ids: [open], channel: '电视' });
    expect(errorOf(badChannel).message).toBe('请选择正确的渠道');
    expect((await call(gu, 'PUT', `${F}/upChannel`, { ids: [open], channel: '网销' })).statusCode).toBe(403);
    expect((await call(admin, 'PUT', `${F}/upChannel`, { ids: [open, leadId], channel: '网销' })).json()).toEqual({ count: 2 });
    expect((await lead(open)).channel).toBe('网销');

    const won = await call(admin, 'PUT', `${F}/upBatchOrgId`, { ids: [open, leadId], orgId: otherOrg });
    expect(won.statusCode).toBe(400);
    expect((await lead(open)).orgId).toBe(orgId);
    expect((await call(admin, 'PUT', `${F}/upBatchOrgId`, { ids: [open], orgId: 987654 })).statusCode).toBe(400);
    expect((await call(gu, 'PUT', `${F}/upBatchOrgId`, { ids: [open], orgId: otherOrg })).statusCode).toBe(403);
    const moved = await call(admin, 'PUT', `${F}/upBatchOrgId`, { ids: [open], orgId: otherOrg });
    expect(moved.json()).toEqual({ count: 1 });
    expect(await lead(open)).toMatchObject({ orgId: otherOrg, consultantId: null, status: 0 });
  });

  it('新增 and 导入 keep one open main clue per number and company: a second lead of the number is 次线索', async () => {
    const add = async (token: string, mobile: string, org: number) => {
      const res = await call(token, 'POST', F, { customerName: '周七', mobile, orgId: org });
      expect(res.statusCode).toBe(201);
      return lead(res.json<Created>().id);
    };
    expect(await add(clerk, '13722220001', orgId)).toMatchObject({ isMain: true });
    // the same number and company: secondary, whoever adds it
    expect(await add(clerk, '13722220001', orgId)).toMatchObject({ isMain: false });
    expect(await add(admin, '13722220001', orgId)).toMatchObject({ isMain: false });
    // another company, or another number: a main clue of its own
    expect(await add(clerk, '13722220001', otherOrg)).toMatchObject({ isMain: true });
    expect(await add(clerk, '13722220002', orgId)).toMatchObject({ isMain: true });

    // an import: the rows are checked against the stored leads and against each other
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('潜客档案');
    const template = await call(admin, 'GET', `${F}/template`);
    expect(template.statusCode).toBe(200);
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const header = (read.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    ws.addRow(header);
    const row = (name: string, mobile: string) =>
      header.map((h) => ({ 客户姓名: name, 手机号: mobile, 所属公司: orgId })[h as '客户姓名'] ?? null);
    ws.addRow(row('吴八', '13722220003'));
    ws.addRow(row('吴八', '13722220003'));
    ws.addRow(row('周七', '13722220002'));
    const content = Buffer.from(await wb.xlsx.writeBuffer());
    const boundary = `----leads${Math.random().toString(16).slice(2)}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leads.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    );
    const imported = await t.app.inject({
      method: 'POST',
      url: `${F}/import`,
      payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      headers: { ...bearer(admin), submit_id: submitId(), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const mains = async (mobile: string) =>
      (await call(admin, 'GET', `${F}?mobile=${mobile}&orgId=${orgId}&size=50&sort=id,asc`)).json<Page>().content.map((r) => r.isMain);
    expect(await mains('13722220003')).toEqual([true, false]);
    expect(await mains('13722220002')).toEqual([true, false]);
    expect(await mains('13722220001')).toEqual([true, false, false]);
  });

  it('deleting a lead deletes its cars and contact records in the same call', async () => {
    const car = await call(admin, 'POST', '/api/xs/xsSubmersibleCar', { fileId: leadId, brand: '大众', cx: '帕萨特 2026款' });
    expect(car.statusCode).toBe(201);
    expect((await contacts(leadId)).length).toBeGreaterThan(0);
    expect((await call(admin, 'DELETE', F, [leadId])).statusCode).toBe(200);
    expect(await contacts(leadId)).toHaveLength(0);
    expect((await call(admin, 'GET', `/api/xs/xsSubmersibleCar?fileId=${leadId}`)).json<Page>().totalElements).toBe(0);
  });
});
