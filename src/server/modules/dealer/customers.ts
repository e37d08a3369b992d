/**
 * Dealer customers (用车客户), every route limited to the signed-in dealer's company:
 *   GET  comp/dbcCompany/getMember?mobile=&code=  official-account member by mobile, after the customer's consent
 *                                               (or 您好您还未注册公众号账户请注册后再来)
 *   GET  comp/dbcCompany/getDbcUserInfos        own customers, paged; filter mobile (contains)
 *   GET  comp/dbcCompany/getDbcUserInfo?id=     one own customer
 *   POST comp/dbcCompany/submitDbcUserInfo      {mobile, code}: a registered member becomes a customer
 *   PUT  comp/dbcCompany/updateDbcUserInfo      {id, mobile, code}: re-reads the member data (code when the mobile changes)
 * The member's data (name, sex, member id, ID number, birthday, status, subscribe) always comes
 * from the member look-up, never from the body; compId always from the token.
 *
 * Consent first: a membership look-up by mobile needs the SMS code (sendMessage type 5 客户授权)
 * the customer received, and the code is checked BEFORE the member is looked up, so a missing or
 * wrong code answers the same 400 for a member and a non-member. The three look-ups share one
 * limit per dealer company (not per address), counted across instances on PostgreSQL.
 * A dealer never reads a member's ID number or birthday in full: every answer passes through the
 * dealer's field access (guardRecords); the stored customer keeps the full values for staff
 * holding dbcUserInfo:sensitive.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import { fieldAccess, findById, listPage, parseListQuery, positiveId } from '../../crud/index.ts';
import { tableChanged } from '../../crud/query/count.ts';
import { insertRecorded, updateRecorded } from '../../crud/history/recorded-writes.ts';
import type { RevisionActor } from '../../crud/history/revisions.ts';
import { badRequest, notFound } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { isMobile } from '../../../shared/validators.ts';
import { guardRecords } from '../../crud/access/personal-data.ts';
import { DEALER_BASE } from './auth.ts';
import { runPreHandler } from './take-over.ts';
import { permissionKey } from '../../../shared/resource-spec.ts';
import { NOT_REGISTERED, type Member, type MemberProvider } from './members.ts';

/** a dealer as the author of a change (revisions) */
export const dealerActor = (request: FastifyRequest): RevisionActor => ({ kind: 'dealer', name: request.dealer!.username.slice(0, 64) });

export const MOBILE_EMPTY = '请输入电话号码';
export const MOBILE_INVALID = '请输入正确的11位手机号码';
export const CUSTOMER_EXISTS = '该手机号的客户已存在';
export const CUSTOMER_NOT_FOUND = '客户不存在';
export const CONSENT_CODE_EMPTY = '请输入客户收到的验证码';
export const CONSENT_CODE_WRONG = '验证码错误或已过期';
/** membership look-ups (getMember, submit, update) one dealer company may make per minute */
export const MEMBER_LOOKUPS_PER_MINUTE = 30;

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

/** Checks (and uses up) the consent code (sendMessage type 5 客户授权) sent to a customer's mobile. */
export type ConsentCheck = (mobile: string, code: string) => Promise<boolean>;

export function registerCustomerRoutes(app: FastifyInstance, members: MemberProvider, consentGiven: ConsentCheck): void {
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

  // one counter per dealer company for every membership look-up, shared by the three routes
  const perDealer = app.rateLimit({
    max: MEMBER_LOOKUPS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `dealer:${request.dealer?.compId ?? request.ip}`,
  });
  const limited = { preHandler: [app.authenticateDealer, perDealer] };
  /** The customer's consent: the type 5 code sent to this mobile (used up), checked before any look-up. */
  const consent = async (mobile: string, code: unknown) => {
    const text = typeof code === 'string' ? code.trim() : typeof code === 'number' ? String(code) : '';
    if (!text) throw badRequest(CONSENT_CODE_EMPTY);
    if (!/^\d{6}$/.test(text) || !(await consentGiven(mobile, text))) throw badRequest(CONSENT_CODE_WRONG);
  };
  const dealerView = <T extends Record<string, unknown>>(request: FastifyRequest, record: T): T => guardRecords(request, spec, [record])[0];

  app.get(`${DEALER_BASE}/getMember`, limited, async (request) => {
    const query = queryObject(request);
    const mobile = mobileOf(query.mobile);
    await consent(mobile, query.code);
    const member = await members.findByMobile(mobile);
    if (!member) throw notFound(NOT_REGISTERED);
    return dealerView(request, { ...member });
  });

  app.get(`${DEALER_BASE}/getDbcUserInfos`, pre, async (request) => {
    const query = queryObject(request);
    query.compId = String(request.dealer!.compId);
    const page = await listPage(database, spec, parseListQuery(spec, query, fieldAccess(request, spec)));
    guardRecords(request, spec, page.content);
    return page;
  });

  app.get(`${DEALER_BASE}/getDbcUserInfo`, pre, async (request) => {
    return dealerView(request, await ownCustomer(app, request.dealer!.compId, positiveId(queryObject(request).id)));
  });

  app.post(`${DEALER_BASE}/submitDbcUserInfo`, limited, async (request, reply) => {
    const compId = request.dealer!.compId;
    const body = bodyObject(request);
    const mobile = mobileOf(body.mobile);
    // the dealer's own customers only: says nothing about membership
    if (await duplicate(compId, mobile)) throw badRequest(CUSTOMER_EXISTS);
    await consent(mobile, body.code);
    const member = await lookup(mobile);
    const now = nowText();
    // the name's pinyin keys (the customer search) and the record's revision are written with the row
    const inserted = await database.db.transaction().execute((trx) =>
      insertRecorded(trx, spec, database.dialect, dealerActor(request), {
        ...memberValues(member),
        compId,
        createTime: now,
        updateTime: now,
      }),
    );
    tableChanged(database, spec.table);
    return reply.status(201).send(dealerView(request, inserted));
  });

  app.put(`${DEALER_BASE}/updateDbcUserInfo`, limited, async (request, reply) => {
    const compId = request.dealer!.compId;
    const body = bodyObject(request);
    const existing = await ownCustomer(app, compId, positiveId(body.id));
    const mobile = body.mobile === undefined ? String(existing.mobile) : mobileOf(body.mobile);
    if (await duplicate(compId, mobile, Number(existing.id))) throw badRequest(CUSTOMER_EXISTS);
    // the customer consented for the stored mobile; a new mobile needs the new holder's consent
    if (mobile !== String(existing.mobile)) await consent(mobile, body.code);
    const member = await lookup(mobile);
    // ownCustomer found it in the dealer's own company
    await database.db.transaction().execute((trx) =>
      updateRecorded(trx, spec, database.dialect, dealerActor(request), [Number(existing.id)], {
        ...memberValues(member),
        updateTime: nowText(),
      }),
    );
    tableChanged(database, spec.table);
    return reply.status(204).send();
  });
}
