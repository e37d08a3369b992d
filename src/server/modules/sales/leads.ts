/**
 * Sales leads (潜客档案, `api/xs/xsSubmersibleFile`): the calls beyond the generic CRUD.
 * A lead is a person who may buy a car from one company (orgId). It starts as a clue (阶段 线索:
 * a showroom visit or an online enquiry) or directly as a file (潜客), is allotted to a sales
 * consultant, processed by that consultant (followed up, defeated, won, put to sleep) and may
 * be activated again. Per company and mobile number one open lead is the main clue; others
 * for the same person are kept as secondary. See docs/reference/catalogues-expenses-sales-uploads.md.
 *
 * Keys: `xsSubmersibleFile:own` marks a sales consultant (getOwn, processClue on their leads);
 * `xsSubmersibleFile:allot` allots and moves leads between companies; `:add` and `:edit` as
 * for the generic routes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fieldByName, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import {
  assertReadable,
  assertRecordsInScope,
  fieldAccess,
  listPage,
  parseListQuery,
  scopedParams,
  tableChanged,
} from '../../crud/index.ts';
import { guardRecords } from '../../crud/access/personal-data.ts';
import { assertQueryable } from '../../crud/access/field-access.ts';
import type { Condition } from '../../crud/query/query.ts';
import { nowText } from '../../db/index.ts';
import { revisionActor } from '../../crud/history/revisions.ts';
import { actorOf } from '../../crud/routes.ts';
import { deptExists, staffHolding } from '../../auth/permission-holders.ts';
import { idList, idOf, mobileOf, objectBody, optionOf, orgIdOf, textOf } from './body.ts';
import { insertRecord, LeadStage, LeadStatus, leadsByIds, openMainClue, OPEN_STATUSES, updateLeads, type Lead } from './lead-store.ts';
import { plainText } from '../../../shared/text.ts';
import { readLimit } from '../../read-limits.ts';

export const CONSULTANT_KEY = 'xsSubmersibleFile:own';
export const ALLOT_KEY = 'xsSubmersibleFile:allot';
export const LEAD_NOT_FOUND = '潜客档案不存在';

const PROCESS_RESULTS = ['follow', 'defeat', 'won', 'sleep'] as const;
const RESULT_STATUS: Record<(typeof PROCESS_RESULTS)[number], number> = {
  follow: LeadStatus.following,
  defeat: LeadStatus.defeated,
  won: LeadStatus.won,
  sleep: LeadStatus.dormant,
};

function options(spec: ResourceSpec, name: string): Array<string | number | boolean> {
  return (fieldByName(spec, name)?.options ?? []).map((o) => o.value);
}

function isOpen(lead: Lead): boolean {
  return OPEN_STATUSES.includes(Number(lead.status));
}

export function registerLeadRoutes(app: FastifyInstance, file: ResourceSpec, contact: ResourceSpec): void {
  const base = `/${file.path}`;
  const database = () => app.database;
  const perm = (key: string) => app.requirePermission(key);
  // the consultant's own look-ups: the screen's key or the consultant key
  const leadReader = [app.requireAnyPermission([`${file.permission}:list`, CONSULTANT_KEY]), ...readLimit(app)];
  const userOf = (request: FastifyRequest) => request.user!;
  /** the revision's author of a change made through these calls */
  const who = (request: FastifyRequest) => revisionActor(actorOf(request));
  const may = (request: FastifyRequest, key: string) => userOf(request).isAdmin || userOf(request).permissions.has(key);
  const mobileField = fieldByName(file, 'mobile')!;
  /**
   * A look-up by mobile tells a stored number from a wrong guess, so it is asked only by a caller
   * who may read mobiles in full, as a filter on the field is (403 naming the field otherwise).
   */
  const mayAskByMobile = (request: FastifyRequest) => assertQueryable(fieldAccess(request, file), mobileField);

  /** One lead by id: a lead outside the caller's data scope is not there for them (404). */
  async function one(request: FastifyRequest, id: number): Promise<Lead> {
    const [lead] = await leadsByIds(database().db, file, [id]);
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    await assertReadable(database(), file, request, lead.orgId, LEAD_NOT_FOUND);
    return lead;
  }

  /** Only the lead's consultant (or whoever may allot) acts on an allotted lead. */
  function checkOwner(request: FastifyRequest, lead: Lead): void {
    if (may(request, ALLOT_KEY)) return;
    if (Number(lead.consultantId) !== userOf(request).id) throw forbidden('只能处理分配给自己的潜客');
  }

  const changed = () => {
    tableChanged(database(), file.table);
    tableChanged(database(), contact.table);
  };

  // GET getOwn: the signed-in consultant's own leads, with the list's paging, sort and filters
  app.get(`${base}/getOwn`, { preHandler: leadReader }, async (request) => {
    const query = { ...(request.query as Record<string, unknown>) };
    delete query.consultantId; // never someone else's
    const params = parseListQuery(file, query, fieldAccess(request, file));
    const field = fieldByName(file, 'consultantId')!;
    const own: Condition = { kind: 'eq', field, value: userOf(request).id };
    // inside the data scope as the list is; personal data masked without xsSubmersibleFile:sensitive
    // (a consultant's own leads are no exception: the rule is the key, see docs/security-and-personal-data.md)
    const scoped = await scopedParams(database(), file, request, {
      ...params,
      conditions: [...params.conditions, own],
      filterKey: `${params.filterKey}|own:${userOf(request).id}`,
    });
    const page = await listPage(database(), file, scoped);
    guardRecords(request, file, page.content);
    return page;
  });

  // POST isCreate {mobile, orgId}: may a new lead be created, or does an open main clue exist?
  app.post(`${base}/isCreate`, { preHandler: leadReader }, async (request) => {
    const body = objectBody(request.body);
    const mobile = mobileOf(body.mobile);
    const orgId = orgIdOf(body.orgId);
    mayAskByMobile(request);
    await assertRecordsInScope(database(), file, request, [orgId]);
    const main = await openMainClue(database().db, file, database().dialect, mobile, orgId);
    return main
      ? { create: false, fileId: main.id, consultantName: main.consultantName ?? null, message: '该客户已有有效线索，请勿重复建档' }
      : { create: true, fileId: null, consultantName: null };
  });

  // GET getValidMainClue?mobile=&orgId=: the open main clue of a number in a company, or null
  app.get(`${base}/getValidMainClue`, { preHandler: leadReader }, async (request) => {
    const q = request.query as Record<string, unknown>;
    const mobile = mobileOf(q.mobile);
    const orgId = orgIdOf(q.orgId);
    mayAskByMobile(request);
    await assertRecordsInScope(database(), file, request, [orgId]);
    const main = await openMainClue(database().db, file, database().dialect, mobile, orgId);
    return main ? guardRecords(request, file, [main])[0] : null;
  });

  // GET isTjgc?id=: has the lead been submitted as a purchase (提交购车: status 已成交)?
  app.get(`${base}/isTjgc`, { preHandler: leadReader }, async (request) => {
    const lead = await one(request, idOf((request.query as Record<string, unknown>).id));
    return { id: lead.id, tjgc: Number(lead.status) === LeadStatus.won };
  });

  // GET getSalesConsultant?orgId=: the consultants (holders of xsSubmersibleFile:own) of a company
  app.get(`${base}/getSalesConsultant`, { preHandler: leadReader }, async (request) => {
    const orgId = orgIdOf((request.query as Record<string, unknown>).orgId);
    const staff = await staffHolding(database().db, CONSULTANT_KEY, { orgId });
    return staff.map((s) => ({ id: s.id, username: s.username, nickName: s.nickName }));
  });

  // POST passengerFlowTransform: a showroom visit becomes a clue; a returning visitor adds a visit to the open main clue.
  // Whether the number already has an open main clue shows in the answer (201 or 200) and in the
  // list afterwards, so the visit is a look-up by mobile like isCreate: it needs the full read of
  // mobiles, and the company must be in the caller's data scope (decision in docs/decisions.md).
  app.post(`${base}/passengerFlowTransform`, { preHandler: perm(`${file.permission}:add`) }, async (request, reply) => {
    const body = objectBody(request.body);
    const mobile = mobileOf(body.mobile);
    const orgId = orgIdOf(body.orgId);
    const customerName = textOf(body.customerName, '客户姓名', 30, true)!;
    const intentModel = textOf(body.intentModel, '意向车型', 100);
    const remark = textOf(body.remark, '备注', 500);
    mayAskByMobile(request);
    if (!(await deptExists(database().db, orgId))) throw badRequest('所选公司不存在');
    await assertRecordsInScope(database(), file, request, [orgId]);
    const now = nowText();
    const user = userOf(request).username;
    const result = await database()
      .db.transaction()
      .execute(async (trx) => {
        const main = await openMainClue(trx, file, database().dialect, mobile, orgId);
        if (main) {
          await insertRecord(trx, contact, database().dialect, who(request), {
            fileId: main.id,
            contactTime: now,
            way: '到店',
            content: `客流到店${intentModel ? `，意向车型：${intentModel}` : ''}${remark ? `，${remark}` : ''}`,
            createTime: now,
            createUser: user,
          });
          return { created: false, lead: main };
        }
        const lead = await insertRecord(trx, file, database().dialect, who(request), {
          customerName,
          mobile,
          orgId,
          intentModel,
          remark,
          source: '客流',
          channel: '展厅',
          stage: LeadStage.clue,
          status: LeadStatus.unassigned,
          isMain: true,
          createTime: now,
          createUser: user,
        });
        await insertRecord(trx, contact, database().dialect, who(request), {
          fileId: lead.id,
          contactTime: now,
          way: '到店',
          content: '客流到店登记',
          createTime: now,
          createUser: user,
        });
        return { created: true, lead };
      });
    changed();
    return reply.status(result.created ? 201 : 200).send({ created: result.created, id: result.lead.id });
  });

  // POST clueConvertSubmersibleFile {ids}: clues become files (潜客); only open clues
  app.post(`${base}/clueConvertSubmersibleFile`, { preHandler: perm(`${file.permission}:edit`) }, async (request) => {
    const ids = idList(objectBody(request.body).ids);
    const count = await database()
      .db.transaction()
      .execute(async (trx) => {
        const leads = await leadsByIds(trx, file, ids);
        if (leads.length !== ids.length) throw notFound('潜客档案不存在或已被删除');
        for (const lead of leads) {
          if (Number(lead.stage) !== LeadStage.clue) throw badRequest(`「${plainText(lead.customerName)}」已是潜客档案，无需转换`);
          if (!isOpen(lead)) throw badRequest(`「${plainText(lead.customerName)}」已战败或已成交，不能转为潜客`);
        }
        return updateLeads(trx, file, database().dialect, who(request), ids, { stage: LeadStage.file });
      });
    changed();
    return { count };
  });

  // POST allot {ids, consultantId}: to a consultant of each lead's company (xsSubmersibleFile:allot)
  app.post(`${base}/allot`, { preHandler: perm(ALLOT_KEY) }, async (request) => {
    const body = objectBody(request.body);
    const ids = idList(body.ids);
    const consultantId = idOf(body.consultantId, '请选择销售顾问');
    const [consultant] = await staffHolding(database().db, CONSULTANT_KEY, { userIds: [consultantId] });
    if (!consultant) throw badRequest('所选人员不是在职的销售顾问');
    const count = await database()
      .db.transaction()
      .execute(async (trx) => {
        const leads = await leadsByIds(trx, file, ids);
        if (leads.length !== ids.length) throw notFound('潜客档案不存在或已被删除');
        for (const lead of leads) {
          if (!isOpen(lead)) throw badRequest(`「${plainText(lead.customerName)}」已战败或已成交，不能分配`);
          if (Number(lead.orgId) !== consultant.orgId) throw badRequest(`「${plainText(lead.customerName)}」与销售顾问不属于同一公司`);
        }
        return updateLeads(trx, file, database().dialect, who(request), ids, {
          consultantId: consultant.id,
          consultantName: consultant.nickName,
          status: LeadStatus.pending,
          allotTime: nowText(),
        });
      });
    changed();
    return { count };
  });

  // PUT processClue {id, result, content, defeatReason?, nextTime?}: the consultant's follow-up
  app.put(`${base}/processClue`, { preHandler: leadReader }, async (request) => {
    const body = objectBody(request.body);
    const lead = await one(request, idOf(body.id));
    if (!may(request, CONSULTANT_KEY) && !may(request, ALLOT_KEY)) throw forbidden('只有销售顾问可以处理潜客');
    checkOwner(request, lead);
    const result = optionOf(body.result, PROCESS_RESULTS, '请选择处理结果');
    const content = textOf(body.content, '处理说明', 1000, true)!;
    const defeatReason = textOf(body.defeatReason, '战败原因', 200, result === 'defeat');
    let nextTime: string | null = null;
    if (body.nextTime !== undefined && body.nextTime !== null && body.nextTime !== '') {
      nextTime = plainText(body.nextTime);
      if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(nextTime) || Number.isNaN(Date.parse(nextTime.replace(' ', 'T'))))
        throw badRequest('下次跟进时间格式错误');
    }
    if (lead.consultantId === null || lead.consultantId === undefined) throw badRequest('潜客尚未分配销售顾问，请先分配');
    if (Number(lead.status) !== LeadStatus.pending && Number(lead.status) !== LeadStatus.following)
      throw badRequest('只能处理待处理或跟进中的潜客');
    const now = nowText();
    await database()
      .db.transaction()
      .execute(async (trx) => {
        await updateLeads(trx, file, database().dialect, who(request), [lead.id], {
          status: RESULT_STATUS[result],
          processTime: now,
          defeatReason: result === 'defeat' ? defeatReason : null,
          nextTime: result === 'follow' ? nextTime : null,
        });
        const way = typeof body.way === 'string' ? optionOf(body.way, options(contact, 'way') as string[], '请选择正确的联系方式') : '电话';
        await insertRecord(trx, contact, database().dialect, who(request), {
          fileId: lead.id,
          contactTime: now,
          way,
          content,
          createTime: now,
          createUser: userOf(request).username,
        });
      });
    changed();
    return { id: lead.id, status: RESULT_STATUS[result] };
  });

  // PUT activation {id}: a defeated or dormant lead is worked again (its consultant, or whoever may allot)
  app.put(`${base}/activation`, { preHandler: leadReader }, async (request) => {
    const lead = await one(request, idOf(objectBody(request.body).id));
    checkOwner(request, lead);
    if (Number(lead.status) !== LeadStatus.defeated && Number(lead.status) !== LeadStatus.dormant)
      throw badRequest('只有已战败或休眠的潜客可以激活');
    const status = lead.consultantId ? LeadStatus.following : LeadStatus.unassigned;
    await database()
      .db.transaction()
      .execute(async (trx) => {
        // another open main clue for the person keeps its place; this one comes back as secondary
        const main = await openMainClue(trx, file, database().dialect, String(lead.mobile), Number(lead.orgId), lead.id);
        await updateLeads(trx, file, database().dialect, who(request), [lead.id], {
          status,
          isMain: !main,
          activationTime: nowText(),
          defeatReason: null,
        });
      });
    changed();
    return { id: lead.id, status };
  });

  // PUT upChannel {ids, channel}
  app.put(`${base}/upChannel`, { preHandler: perm(`${file.permission}:edit`) }, async (request) => {
    const body = objectBody(request.body);
    const ids = idList(body.ids);
    const channel = optionOf(body.channel, options(file, 'channel'), '请选择正确的渠道');
    const count = await database()
      .db.transaction()
      .execute(async (trx) => {
        const leads = await leadsByIds(trx, file, ids);
        if (leads.length !== ids.length) throw notFound('潜客档案不存在或已被删除');
        return updateLeads(trx, file, database().dialect, who(request), ids, { channel }, 'update');
      });
    changed();
    return { count };
  });

  // PUT upBatchOrgId {ids, orgId}: moves open leads to another company; they wait there for a consultant
  app.put(`${base}/upBatchOrgId`, { preHandler: perm(ALLOT_KEY) }, async (request) => {
    const body = objectBody(request.body);
    const ids = idList(body.ids);
    const orgId = orgIdOf(body.orgId);
    if (!(await deptExists(database().db, orgId))) throw badRequest('所选公司不存在');
    const count = await database()
      .db.transaction()
      .execute(async (trx) => {
        const leads = await leadsByIds(trx, file, ids);
        if (leads.length !== ids.length) throw notFound('潜客档案不存在或已被删除');
        for (const lead of leads) if (!isOpen(lead)) throw badRequest(`「${plainText(lead.customerName)}」已战败或已成交，不能调整公司`);
        let n = 0;
        for (const lead of leads) {
          // the person may already have an open main clue in the target company: this one joins as secondary
          const main = await openMainClue(trx, file, database().dialect, String(lead.mobile), orgId, lead.id);
          n += await updateLeads(trx, file, database().dialect, who(request), [lead.id], {
            orgId,
            isMain: !main,
            consultantId: null,
            consultantName: null,
            status: LeadStatus.unassigned,
            allotTime: null,
          });
        }
        return n;
      });
    changed();
    return { count };
  });
}
