/**
 * Dealer customers (用车客户), every route limited to the signed-in dealer's company:
 *   GET  comp/dbcCompany/getMember?mobile=      official-account member by mobile, ID number masked, 60 a minute
 *                                               (or 您好您还未注册公众号账户请注册后再来)
 *   GET  comp/dbcCompany/getDbcUserInfos        own customers, paged; filter mobile (contains)
 *   GET  comp/dbcCompany/getDbcUserInfo?id=     one own customer
 *   POST comp/dbcCompany/submitDbcUserInfo      {mobile}: a registered member becomes a customer
 *   PUT  comp/dbcCompany/updateDbcUserInfo      {id, mobile}: re-reads the member data
 * The member's data (name, sex, member id, ID number, birthday, status, subscribe) always comes
 * from the member look-up, never from the body; compId always from the token.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import { fieldAccess, findById, listPage, parseListQuery, positiveId, recordToRow, rowToRecord } from '../../crud/index.ts';
import { tableChanged } from '../../crud/count.ts';
import { badRequest, notFound } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { isMobile } from '../../../shared/validators.ts';
import { maskIdNumber } from '../../../shared/masks.ts';
import { DEALER_BASE } from './auth.ts';
import { runPreHandler } from './take-over.ts';
import { permissionKey } from '../../../shared/resource-spec.ts';
import { NOT_REGISTERED, type Member, type MemberProvider } from './members.ts';

export const MOBILE_EMPTY = '请输入电话号码';
export const MOBILE_INVALID = '请输入正确的11位手机号码';
export const CUSTOMER_EXISTS = '该手机号的客户已存在';
export const CUSTOMER_NOT_FOUND = '客户不存在';

export function mobileOf(v: unknown): string {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) throw badRequest(MOBILE_EMPTY);
  const t = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  if (!isMobile(t)) throw badRequest(MOBILE_INVALID);
  return t;
}

export function bodyObject(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw badRequest('请求内容必须是JSON对象');
  return b as Record<string, unknown>;
}

export function queryObject(request: FastifyRequest): Record<string, unknown> {
  return { ...((request.query ?? {}) as Record<string, unknown>) };
}

/** Customer fields from a member. */
export const memberValues = (m: Member) => ({
  mobile: m.mobile,
  surname: m.surname,
  sex: m.sex,
  mid: m.mid,
  idno: m.idno,
  birthday: m.birthday,
  status: m.status,
  subscribe: m.subscribe,
});

/** One customer of the company, or 404 (another company's customer looks the same as none). */
export async function ownCustomer(app: FastifyInstance, compId: number, id: number | undefined): Promise<Record<string, unknown>> {
  if (id === undefined) throw badRequest('客户ID必须是正整数');
  const record = await findById(app.database, resourceByName.dbcUserInfo, id);
  if (!record || Number(record.compId) !== compId) throw notFound(CUSTOMER_NOT_FOUND);
  return record;
}

export const CUSTOMER_IN_USE = '该客户还有用车需求，不能删除';

export function registerCustomerRoutes(app: FastifyInstance, members: MemberProvider): void {
  const spec = resourceByName.dbcUserInfo;
  const database = app.database;
  const pre = { preHandler: app.authenticateDealer };

  // staff delete (generic route): a customer with demands stays, so no demand loses its customer
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'DELETE' || request.routeOptions.url !== `/${spec.path}` || !Array.isArray(request.body)) return;
    const ids = (request.body as unknown[]).map((v) => positiveId(v)).filter((v): v is number => v !== undefined);
    if (!ids.length) return;
    await runPreHandler(app, app.requirePermission(permissionKey(spec, 'del')), request, undefined as never);
    const used = await database.db
      .selectFrom('dbc_info')
      .select('id')
      .where('du_id', 'in', ids.slice(0, 10_000))
      .limit(1)
      .executeTakeFirst();
    if (used) throw badRequest(CUSTOMER_IN_USE);
  });

  const lookup = async (mobile: string) => {
    const member = await members.findByMobile(mobile);
    if (!member) throw badRequest(NOT_REGISTERED);
    return member;
  };
  const duplicate = async (compId: number, mobile: string, exceptId?: number) => {
    let q = database.db.selectFrom(spec.table).select('id').where('comp_id', '=', compId).where('mobile', '=', mobile);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return !!(await q.executeTakeFirst());
  };

  // any mobile may be looked up before it is a customer: the ID number is masked and the calls
  // are limited per address, so the member list cannot be harvested through this door
  app.get(`${DEALER_BASE}/getMember`, { ...pre, config: { rateLimit: { max: 60, timeWindow: 60_000 } } }, async (request) => {
    const mobile = mobileOf(queryObject(request).mobile);
    const member = await members.findByMobile(mobile);
    if (!member) throw notFound(NOT_REGISTERED);
    return { ...member, idno: member.idno ? maskIdNumber(member.idno) : null };
  });

  app.get(`${DEALER_BASE}/getDbcUserInfos`, pre, async (request) => {
    const query = queryObject(request);
    query.compId = String(request.dealer!.compId);
    return listPage(database, spec, parseListQuery(spec, query, fieldAccess(request, spec)));
  });

  app.get(`${DEALER_BASE}/getDbcUserInfo`, pre, async (request) => {
    return ownCustomer(app, request.dealer!.compId, positiveId(queryObject(request).id));
  });

  app.post(`${DEALER_BASE}/submitDbcUserInfo`, pre, async (request, reply) => {
    const compId = request.dealer!.compId;
    const mobile = mobileOf(bodyObject(request).mobile);
    const member = await lookup(mobile);
    if (await duplicate(compId, mobile)) throw badRequest(CUSTOMER_EXISTS);
    const now = nowText();
    const row = recordToRow(spec, { ...memberValues(member), compId, createTime: now, updateTime: now }, database.dialect);
    const inserted = await database.db
      .insertInto(spec.table)
      .values(row)
      .returning(spec.fields.map((f) => f.column))
      .executeTakeFirstOrThrow();
    tableChanged(database, spec.table);
    return reply.status(201).send(rowToRecord(spec, inserted));
  });

  app.put(`${DEALER_BASE}/updateDbcUserInfo`, pre, async (request, reply) => {
    const compId = request.dealer!.compId;
    const body = bodyObject(request);
    const existing = await ownCustomer(app, compId, positiveId(body.id));
    const mobile = body.mobile === undefined ? String(existing.mobile) : mobileOf(body.mobile);
    const member = await lookup(mobile);
    if (await duplicate(compId, mobile, Number(existing.id))) throw badRequest(CUSTOMER_EXISTS);
    const row = recordToRow(spec, { ...memberValues(member), updateTime: nowText() }, database.dialect);
    await database.db.updateTable(spec.table).set(row).where('id', '=', Number(existing.id)).where('comp_id', '=', compId).execute();
    tableChanged(database, spec.table);
    return reply.status(204).send();
  });
}
