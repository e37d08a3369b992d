/**
 * Car-use demands (用车需求) and their state machine (src/shared/dbc-status.ts).
 * Dealer routes (token's company only; compId never read from a body or a query):
 *   POST comp/dbcCompany/submitDbcInfo      new demand for an own customer whose subscribe is 1
 *   POST comp/dbcCompany/getDbcInfos        own demands, paged (body: page, size, sort, blurry, status, shStatus, ddStatus)
 *   GET  comp/dbcCompany/getDbcInfo?id=     one own demand
 *   PUT  comp/dbcCompany/updateDbcInfo      edit while 审核中 or after 未通过; answers it to 审核中
 *   GET  comp/dbcCompany/getDbcInfoHistory?id=
 * Staff routes:
 *   POST api/dbc/dbcInfo/submitDbcInfo      for a dealer (submitDbcInfo:add), body compId
 *   PUT  api/dbc/dbcInfo                    audit {id, shStatus 2|3, reason}, or {id, status 4..7} (dbcInfo:edit)
 *   PUT  api/dbc/dbcInfo/status             {id, status 4..7} delivery, use, return, completion (dbcInfo:edit)
 *   GET  api/dbc/dbcInfo/history?id=        the status changes
 *   GET  api/other/otherSysDbx, api/dbc/dbcInfo/queryQmbcByVin   demands by VIN, paged
 * Every change of status runs in one transaction that re-reads the status under a row lock,
 * checks the transition, writes the request and one history row (who, when, from, to, reason).
 */
import type { Db } from '../../types.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import {
  fieldAccess,
  listPage,
  parseListQuery,
  positiveId,
  recordToRow,
  rewritePinyinKeys,
  rowToRecord,
  writePinyinKeys,
} from '../../crud/index.ts';
import { tableChanged } from '../../crud/query/count.ts';
import { badRequest, notFound } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { checkDemand, countPrice, DEMAND_MESSAGES, firstDemandError, type DemandValues } from '../../../shared/dbc-demand.ts';
import { ACTION_BY_TARGET, planTransition, STATUS_FLAGS, type DbcAction, type DbcStatus } from '../../../shared/dbc-status.ts';
import { DEALER_BASE } from './auth.ts';
import { checkCarTypePath } from './car-type.ts';
import { runPreHandler, takeOverRoute } from './take-over.ts';
import { bodyObject, memberValues, ownCustomer, queryObject } from './customers.ts';
import { NOT_REGISTERED, type MemberProvider } from './members.ts';
import { guardRecords } from '../../crud/access/personal-data.ts';
import { diffRecords, snapshotChanges, writeRevisions, type RevisionActor } from '../../crud/history/revisions.ts';
import { updateRecorded } from '../../crud/history/recorded-writes.ts';

export const REQUEST_NOT_FOUND = '用车需求不存在';
export const AUDIT_REASON_REQUIRED = '请填写审核意见';
export const TARGET_INVALID = '目标状态只能是租赁已交车、客户用车中、客户已还车或订单完结';
export const AUDIT_STATUS_INVALID = '审核结果只能是通过或不通过';

export interface Actor {
  kind: 'dealer' | 'staff';
  name: string;
}

/** The request's actor as record history names it (a dealer's login, or a staff user). */
const revisionBy = (actor: Actor): RevisionActor => ({ kind: actor.kind === 'dealer' ? 'dealer' : 'user', name: actor.name.slice(0, 64) });

const spec = () => resourceByName.dbcInfo;

/** A car request's stored values: the form's, its customer and member, and the price they come to. */
export function demandRecord(
  compId: number,
  values: DemandValues,
  customer: Record<string, unknown>,
  member: { surname: string; mobile: string; mid: string | null; subscribe: number },
  dailyPrice: number,
) {
  return {
    ...values,
    compId,
    duId: Number(customer.id),
    khName: member.surname,
    khMobile: member.mobile,
    mid: member.mid,
    subscribe: member.subscribe,
    countPrice: countPrice(values, dailyPrice),
  };
}

/** One status change of a request in its history (dbc_info_history). */
export async function recordStatusChange(
  trx: Db,
  infoId: number,
  from: number | null,
  to: number,
  action: string,
  reason: string | null,
  actor: Actor,
  at: string,
) {
  await trx
    .insertInto('dbc_info_history')
    .values({
      info_id: infoId,
      from_status: from,
      to_status: to,
      action,
      reason,
      actor_kind: actor.kind,
      actor: actor.name.slice(0, 64),
      create_time: at,
    })
    .execute();
}

export function registerRequestRoutes(
  app: FastifyInstance,
  members: MemberProvider,
): {
  transition: (
    id: number,
    action: DbcAction,
    actor: Actor,
    opts?: { compId?: number; reason?: string | null; extra?: Record<string, unknown> },
  ) => Promise<void>;
} {
  const database = app.database;
  const dealerPre = { preHandler: app.authenticateDealer };
  const columns = () => spec().fields.map((f) => f.column);

  /** Demand values, checked; the customer (own company) and its current subscribe flag. */
  async function prepareDemand(compId: number, body: Record<string, unknown>, actor: Actor, existing?: Record<string, unknown>) {
    const checked = checkDemand(body);
    if (!checked.ok) throw badRequest(firstDemandError(checked.errors));
    // the car type must be a branch of the brand tree; an edit keeping the saved one needs no new pick
    const kept = existing !== undefined && body.carTypeIds === undefined && checked.values.userCarType === existing.userCarType;
    if (!kept) await checkCarTypePath(database, checked.values.userCarType, body.carTypeIds);
    const customer = await ownCustomer(app, compId, positiveId(body.duId));
    const member = await members.findByMobile(String(customer.mobile));
    if (!member) throw badRequest(NOT_REGISTERED);
    // the customer keeps the member's current data (and the pinyin keys of its name)
    await database.db.transaction().execute((trx) =>
      updateRecorded(trx, resourceByName.dbcUserInfo, database.dialect, revisionBy(actor), [Number(customer.id)], {
        ...memberValues(member),
        updateTime: nowText(),
      }),
    );
    if (member.subscribe !== 1) throw badRequest(DEMAND_MESSAGES.notFollowing);
    return { values: checked.values, customer, member };
  }

  async function insertDemand(compId: number, body: Record<string, unknown>, actor: Actor) {
    const { values, customer, member } = await prepareDemand(compId, body, actor);
    const now = nowText();
    const record = {
      ...demandRecord(compId, values, customer, member, app.config.dbcDailyPrice),
      status: 1,
      ...STATUS_FLAGS[1],
      createTime: now,
      updateTime: now,
    };
    const inserted = await database.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto(spec().table)
        .values(recordToRow(spec(), record, database.dialect))
        .returning(columns())
        .executeTakeFirstOrThrow();
      await writePinyinKeys(trx, spec(), [row]);
      await recordStatusChange(trx, Number(row.id), null, 1, 'submit', null, actor, now);
      await writeRevisions(trx, database.dialect, spec(), revisionBy(actor), [
        { recordId: Number(row.id), action: 'create', changes: snapshotChanges(spec(), rowToRecord(spec(), row), 'new') },
      ]);
      return row;
    });
    tableChanged(database, spec().table);
    return rowToRecord(spec(), inserted);
  }

  /**
   * Moves request `id` by `action` in one transaction: the status is read under a lock, the
   * transition checked, the request updated (plus `extra` values) and the history written.
   */
  async function transition(
    id: number,
    action: DbcAction,
    actor: Actor,
    opts: { compId?: number; reason?: string | null; extra?: Record<string, unknown> } = {},
  ) {
    await database.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom(spec().table)
        .select(columns())
        .where('id', '=', id)
        .$if(database.dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!row || (opts.compId !== undefined && Number(row.comp_id) !== opts.compId)) throw notFound(REQUEST_NOT_FOUND);
      const from = Number(row.status);
      const plan = planTransition(from, action, actor.kind);
      if (!plan.ok) throw badRequest(plan.message);
      const now = nowText();
      const values: Record<string, unknown> = { ...(opts.extra ?? {}), status: plan.to, ...STATUS_FLAGS[plan.to], updateTime: now };
      if (opts.reason !== undefined) values.auditReason = opts.reason;
      const written = recordToRow(spec(), values, database.dialect);
      await trx.updateTable(spec().table).set(written).where('id', '=', id).execute();
      // an edit may change the customer's name: its pinyin keys follow (other fields leave them)
      await rewritePinyinKeys(trx, spec(), id, written);
      // the revision of the move (record history): the written fields that changed, in the same transaction
      const changes = diffRecords(spec(), rowToRecord(spec(), row), rowToRecord(spec(), written));
      if (Object.keys(changes).length)
        await writeRevisions(trx, database.dialect, spec(), revisionBy(actor), [
          { recordId: id, action: plan.to !== from ? 'status' : 'update', changes },
        ]);
      // a status record says where the request moved: an edit while 审核中 stays 审核中 and moves nowhere
      if (plan.to !== from) await recordStatusChange(trx, id, from, plan.to, action, opts.reason ?? null, actor, now);
    });
    tableChanged(database, spec().table);
  }

  async function ownRequest(compId: number, id: number | undefined) {
    if (id === undefined) throw badRequest('ID必须是正整数');
    const row = await database.db.selectFrom(spec().table).select(columns()).where('id', '=', id).executeTakeFirst();
    if (!row || Number(row.comp_id) !== compId) throw notFound(REQUEST_NOT_FOUND);
    return rowToRecord(spec(), row);
  }

  async function historyOf(id: number) {
    const rows = await database.db
      .selectFrom('dbc_info_history')
      .selectAll()
      .where('info_id', '=', id)
      .orderBy('id', 'asc')
      .$castTo<{
        id: number;
        from_status: number | null;
        to_status: number;
        action: string;
        reason: string | null;
        actor_kind: string;
        actor: string;
        create_time: string | Date;
      }>()
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      fromStatus: r.from_status === null ? null : Number(r.from_status),
      toStatus: Number(r.to_status),
      action: r.action,
      reason: r.reason ?? null,
      actorKind: r.actor_kind,
      actor: r.actor,
      createTime: r.create_time instanceof Date ? nowText(r.create_time) : String(r.create_time),
    }));
  }

  // ---------- dealer ----------
  app.post(`${DEALER_BASE}/submitDbcInfo`, dealerPre, async (request, reply) => {
    const d = request.dealer!;
    return reply.status(201).send(await insertDemand(d.compId, bodyObject(request), { kind: 'dealer', name: d.username }));
  });

  app.post(`${DEALER_BASE}/getDbcInfos`, dealerPre, async (request) => {
    const body = request.body === undefined || request.body === null ? {} : bodyObject(request);
    const query: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body))
      if (v !== null && v !== '' && v !== undefined) query[k] = typeof v === 'number' ? String(v) : v;
    query.compId = String(request.dealer!.compId);
    const page = await listPage(database, spec(), parseListQuery(spec(), query, fieldAccess(request, spec())));
    guardRecords(request, spec(), page.content);
    return page;
  });

  app.get(`${DEALER_BASE}/getDbcInfo`, dealerPre, async (request) =>
    ownRequest(request.dealer!.compId, positiveId(queryObject(request).id)),
  );

  app.get(`${DEALER_BASE}/getDbcInfoHistory`, dealerPre, async (request) => {
    const r = await ownRequest(request.dealer!.compId, positiveId(queryObject(request).id));
    return historyOf(Number(r.id));
  });

  app.put(`${DEALER_BASE}/updateDbcInfo`, dealerPre, async (request, reply) => {
    const d = request.dealer!;
    const body = bodyObject(request);
    const existing = await ownRequest(d.compId, positiveId(body.id));
    const allowed = planTransition(existing.status, 'resubmit', 'dealer');
    if (!allowed.ok) throw badRequest(allowed.message);
    const { values, customer, member } = await prepareDemand(
      d.compId,
      { ...body, duId: body.duId ?? existing.duId },
      { kind: 'dealer', name: d.username },
      existing,
    );
    const extra = demandRecord(d.compId, values, customer, member, app.config.dbcDailyPrice);
    await transition(Number(existing.id), 'resubmit', { kind: 'dealer', name: d.username }, { compId: d.compId, extra, reason: null });
    return reply.status(204).send();
  });

  // ---------- staff ----------
  app.post(`/${spec().path}/submitDbcInfo`, { preHandler: app.requirePermission('submitDbcInfo:add') }, async (request, reply) => {
    const body = bodyObject(request);
    const compId = positiveId(body.compId);
    if (compId === undefined) throw badRequest('经销商不能为空');
    const company = await database.db.selectFrom('dbc_company').select('id').where('id', '=', compId).executeTakeFirst();
    if (!company) throw badRequest('经销商不存在');
    return reply.status(201).send(await insertDemand(compId, body, { kind: 'staff', name: request.user!.username }));
  });

  takeOverRoute(app, 'PUT', `/${spec().path}`, async (request, reply) => {
    await runPreHandler(app, app.requirePermission('dbcInfo:edit'), request, reply);
    const body = bodyObject(request);
    // the console's one dialog: {id, shStatus, reason} audits, {id, status} moves on after the audit
    if (body.shStatus === undefined && body.status !== undefined) {
      const id = positiveId(body.id);
      if (id === undefined) throw badRequest('ID不能为空');
      const next = ACTION_BY_TARGET[Number(body.status) as DbcStatus];
      if (!next) throw badRequest(TARGET_INVALID);
      await transition(id, next, { kind: 'staff', name: request.user!.username });
      return reply.status(204).send();
    }
    const { id, action, reason } = auditBody(body);
    await transition(id, action, { kind: 'staff', name: request.user!.username }, { reason });
    return reply.status(204).send();
  });

  app.put(`/${spec().path}/status`, { preHandler: app.requirePermission('dbcInfo:edit') }, async (request, reply) => {
    const body = bodyObject(request);
    const id = positiveId(body.id);
    if (id === undefined) throw badRequest('ID不能为空');
    const action = ACTION_BY_TARGET[Number(body.status) as DbcStatus];
    if (!action) throw badRequest(TARGET_INVALID);
    await transition(id, action, { kind: 'staff', name: request.user!.username });
    return reply.status(204).send();
  });

  app.get(`/${spec().path}/history`, { preHandler: app.requirePermission('dbcInfo:list') }, async (request) => {
    const id = positiveId(queryObject(request).id);
    if (id === undefined) throw badRequest('ID必须是正整数');
    const found = await database.db.selectFrom(spec().table).select('id').where('id', '=', id).executeTakeFirst();
    if (!found) throw notFound(REQUEST_NOT_FOUND);
    return historyOf(id);
  });

  const byVin = async (request: FastifyRequest) => {
    const query = queryObject(request);
    const vin = typeof query.vin === 'string' ? query.vin.trim().toUpperCase() : '';
    if (!vin) throw badRequest('底盘号不能为空');
    if (!/^[A-Z0-9]{1,17}$/.test(vin)) throw badRequest('请输入正确的底盘号');
    delete query.vin;
    query.userVin = vin;
    const page = await listPage(database, spec(), parseListQuery(spec(), query, fieldAccess(request, spec())));
    guardRecords(request, spec(), page.content);
    return page;
  };
  app.get('/api/other/otherSysDbx', { preHandler: app.requirePermission('dbcInfo:list') }, byVin);
  app.get(`/${spec().path}/queryQmbcByVin`, { preHandler: app.requirePermission('dbcInfo:list') }, byVin);
  return { transition };
}

/** The staff audit: PUT api/dbc/dbcInfo {id, shStatus: 2 | 3, reason} (reason required to refuse). */
export function auditBody(body: Record<string, unknown>): { id: number; action: DbcAction; reason: string | null } {
  const id = positiveId(body.id);
  if (id === undefined) throw badRequest('ID不能为空');
  const sh = Number(body.shStatus);
  if (sh !== 2 && sh !== 3) throw badRequest(AUDIT_STATUS_INVALID);
  const reason = typeof body.reason === 'string' ? body.reason.trim() : body.reason === undefined || body.reason === null ? '' : null;
  if (reason === null) throw badRequest('审核意见格式不正确');
  if ([...reason].length > 500) throw badRequest('审核意见长度不能超过500个字符');
  if (sh === 3 && !reason) throw badRequest(AUDIT_REASON_REQUIRED);
  return { id, action: sh === 2 ? 'approve' : 'reject', reason: reason || null };
}
