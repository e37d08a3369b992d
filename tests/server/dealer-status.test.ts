import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { addCustomer, addMember, createCompany, dealerToken, demand, submitDemand } from './dealer-helpers.ts';
import { planTransition, TRANSITIONS } from '../../src/shared/dbc-status.ts';
import type { Row } from '../support/answers.ts';

/** one entry of a demand's status history */
interface HistoryEntry {
  fromStatus: number | null;
  toStatus: number;
  action: string;
  actorKind: string;
  actor: string;
  reason: string | null;
  createTime: string;
}

describe.each(testApps())('car-use demand state machine on %s', (_name, start) => {
  let t: TestApp;
  let staff: string;
  let dealer: string;
  let cust: number;
  const inject = (method: string, url: string, token: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'PUT',
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const statusOf = async (id: number) => {
    const r = await t.app.database.db
      .selectFrom('dbc_info')
      .select(['status', 'sh_status', 'dd_status', 'audit_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { status: Number(r.status), sh: Number(r.sh_status), dd: Number(r.dd_status), reason: r.audit_reason as string | null };
  };
  const audit = (id: number, shStatus: number, reason?: string) => inject('PUT', '/api/dbc/dbcInfo', staff, { id, shStatus, reason });
  const move = (id: number, status: number) => inject('PUT', '/api/dbc/dbcInfo/status', staff, { id, status });
  const resubmit = (id: number, overrides: Record<string, unknown> = {}) =>
    inject('PUT', '/comp/dbcCompany/updateDbcInfo', dealer, { ...demand(cust), id, ...overrides });

  beforeAll(async () => {
    t = await start();
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createCompany(t.app, admin, 'dealera');
    dealer = await dealerToken(t.app, 'dealera');
    await addMember(t.app, { mobile: '13800000001', surname: '张伟', subscribe: 1 });
    cust = await addCustomer(t.app, dealer, '13800000001');
    await createStaff(t.app, { username: 'auditor', password: 'Auditor@1', permissions: ['dbcInfo:list', 'dbcInfo:edit'] });
    staff = await loginAs(t.app, 'auditor', 'Auditor@1');
  });
  afterAll(() => t.close());

  it('runs the whole legal path 1 → 2 → 4 → 5 → 6 → 7 and records who and when', async () => {
    const id = await submitDemand(t.app, dealer, cust);
    expect(await statusOf(id)).toMatchObject({ status: 1, sh: 1, dd: 0 });
    expect((await audit(id, 2, '资料齐全')).statusCode).toBe(204);
    expect(await statusOf(id)).toMatchObject({ status: 2, sh: 2, dd: 0, reason: '资料齐全' });
    for (const [to, dd] of [
      [4, 1],
      [5, 1],
      [6, 1],
      [7, 2],
    ]) {
      // the console's dialog sends the move to PUT api/dbc/dbcInfo, the status route takes it too
      const res = to % 2 ? await inject('PUT', '/api/dbc/dbcInfo', staff, { id, status: to }) : await move(id, to);
      expect(res.statusCode, `to ${to}`).toBe(204);
      expect(await statusOf(id)).toMatchObject({ status: to, sh: 2, dd });
    }
    const history = (await inject('GET', `/api/dbc/dbcInfo/history?id=${id}`, staff)).json<HistoryEntry[]>();
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.action, h.actorKind, h.actor])).toEqual([
      [null, 1, 'submit', 'dealer', 'dealera'],
      [1, 2, 'approve', 'staff', 'auditor'],
      [2, 4, 'deliver', 'staff', 'auditor'],
      [4, 5, 'startUse', 'staff', 'auditor'],
      [5, 6, 'return', 'staff', 'auditor'],
      [6, 7, 'complete', 'staff', 'auditor'],
    ]);
    expect(history.every((h) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(h.createTime))).toBe(true);
    const dealerView = (await inject('GET', `/comp/dbcCompany/getDbcInfoHistory?id=${id}`, dealer)).json<HistoryEntry[]>();
    expect(dealerView).toHaveLength(6);
    // record history: the dealer's submission and each move, field by field, written with the move
    const revisions = (await inject('GET', `/api/dbc/dbcInfo/${id}/history`, staff)).json<{
      content: Array<{
        action: string;
        actorKind: string;
        actorName: string;
        changes: Array<{ field: string; old: unknown; new: unknown }>;
      }>;
    }>().content;
    expect(revisions.map((r) => [r.action, r.actorKind, r.actorName])).toEqual([
      ['status', 'user', 'auditor'],
      ['status', 'user', 'auditor'],
      ['status', 'user', 'auditor'],
      ['status', 'user', 'auditor'],
      ['status', 'user', 'auditor'],
      ['create', 'dealer', 'dealera'],
    ]);
    expect(revisions[0].changes.find((c) => c.field === 'status')).toMatchObject({ old: 6, new: 7 });
    expect(revisions[4].changes.find((c) => c.field === 'auditReason')).toMatchObject({ old: null, new: '资料齐全' });
    // nothing follows 订单完结
    for (const to of [4, 5, 6, 7]) expect((await move(id, to)).statusCode).toBe(400);
    expect(errorOf(await audit(id, 2)).message).toBe('用车需求当前状态为「订单完结」，不能审核通过');
    expect(errorOf(await resubmit(id)).message).toBe('用车需求当前状态为「订单完结」，只有审核中或未通过的需求可以修改');
  });

  it('refuses every illegal transition with a 400 and changes nothing', async () => {
    const id = await submitDemand(t.app, dealer, cust);
    // from 1: no delivery, use, return or completion
    for (const to of [4, 5, 6, 7]) {
      const res = await move(id, to);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toMatch(/^用车需求当前状态为「用车申请审核中」，不能/);
    }
    expect(errorOf(await move(id, 2)).message).toBe('目标状态只能是租赁已交车、客户用车中、客户已还车或订单完结');
    expect(errorOf(await move(id, 1)).status).toBe(400);
    expect(errorOf(await audit(id, 1)).message).toBe('审核结果只能是通过或不通过');
    expect(errorOf(await audit(id, 3)).message).toBe('请填写审核意见');
    expect(errorOf(await audit(id, 3, '   ')).message).toBe('请填写审核意见');
    expect(await statusOf(id)).toMatchObject({ status: 1, sh: 1, dd: 0 });
    // approved: no second audit, no skipping
    expect((await audit(id, 2)).statusCode).toBe(204);
    expect(errorOf(await audit(id, 3, '不行')).message).toBe('用车需求当前状态为「用车申请已通过」，不能审核不通过');
    expect(errorOf(await move(id, 5)).message).toBe('用车需求当前状态为「用车申请已通过」，不能开始用车');
    expect(errorOf(await resubmit(id)).message).toBe('用车需求当前状态为「用车申请已通过」，只有审核中或未通过的需求可以修改');
    expect((await move(id, 4)).statusCode).toBe(204);
    expect(errorOf(await move(id, 6)).message).toBe('用车需求当前状态为「租赁已交车」，不能还车');
    expect(errorOf(await move(id, 4)).status).toBe(400);
    expect(await statusOf(id)).toMatchObject({ status: 4, sh: 2, dd: 1 });
    expect((await audit(999999, 2)).statusCode).toBe(404);
  });

  it('lets the dealer edit while 审核中 and resubmit after 未通过, back to 审核中', async () => {
    const id = await submitDemand(t.app, dealer, cust);
    const edit = await resubmit(id, { wxts: 9 });
    expect(edit.statusCode).toBe(204);
    expect(await statusOf(id)).toMatchObject({ status: 1 });
    expect((await audit(id, 3, '底盘号与保单不符')).statusCode).toBe(204);
    expect(await statusOf(id)).toMatchObject({ status: 3, sh: 3, dd: 0, reason: '底盘号与保单不符' });
    // a bad edit changes nothing
    expect(errorOf(await resubmit(id, { userCph: 'x' })).message).toBe('请输入正确的车牌号');
    expect(await statusOf(id)).toMatchObject({ status: 3 });
    expect((await resubmit(id, { bah: 'BA-NEW' })).statusCode).toBe(204);
    const after = (await inject('GET', `/comp/dbcCompany/getDbcInfo?id=${id}`, dealer)).json<Row>();
    expect(after).toMatchObject({ status: 1, shStatus: 1, ddStatus: 0, bah: 'BA-NEW', auditReason: null });
    const history = (await inject('GET', `/api/dbc/dbcInfo/history?id=${id}`, staff)).json<HistoryEntry[]>();
    // the edit while 审核中 moved nothing: no record 用车申请审核中 -> 用车申请审核中
    expect(history.map((h) => h.action)).toEqual(['submit', 'reject', 'resubmit']);
    expect(history.every((h) => h.fromStatus !== h.toStatus)).toBe(true);
    expect(history[1].reason).toBe('底盘号与保单不符');
  });

  it('keeps audit and status moves to staff with dbcInfo:edit', async () => {
    const id = await submitDemand(t.app, dealer, cust);
    await createStaff(t.app, { username: 'reader', password: 'Reader@1', permissions: [] });
    const reader = await loginAs(t.app, 'reader', 'Reader@1');
    expect((await inject('PUT', '/api/dbc/dbcInfo', reader, { id, shStatus: 2 })).statusCode).toBe(403);
    expect((await inject('PUT', '/api/dbc/dbcInfo/status', reader, { id, status: 4 })).statusCode).toBe(403);
    expect((await inject('PUT', '/api/dbc/dbcInfo', dealer, { id, shStatus: 2 })).statusCode).toBe(401);
    expect((await inject('PUT', '/api/dbc/dbcInfo', staff, [1])).statusCode).toBe(400);
    expect(await statusOf(id)).toMatchObject({ status: 1 });
  });

  it('the state machine table answers every action from every status', () => {
    const allowed = new Set(TRANSITIONS.flatMap((tr) => tr.from.map((f) => `${tr.action}:${f}:${tr.by}`)));
    for (const tr of TRANSITIONS) {
      for (let from = 1; from <= 7; from++) {
        for (const actor of ['dealer', 'staff'] as const) {
          const plan = planTransition(from, tr.action, actor);
          expect(plan.ok, `${tr.action} from ${from} by ${actor}`).toBe(allowed.has(`${tr.action}:${from}:${actor}`));
        }
      }
    }
  });
});
