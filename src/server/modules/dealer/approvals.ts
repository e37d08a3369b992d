/**
 * WeCom approvals (企业微信审批) of car-use demands:
 *   GET api/qywxapp/approval/approvalBizSync/{spNo}[?bizId=]   (dbcInfo:edit)
 * fetches the approval (cgi-bin/oa/getapprovaldetail) and brings the demand it belongs to in step:
 * 已通过 audits a demand still 审核中 as passed, 已驳回 as refused (审核意见: the approvers' last
 * remark, else 企业微信审批已驳回); 审批中, 已撤销, 通过后撤销, 已删除 change nothing. The demand is
 * the one this approval was synced to before, else the one named in the approval form's control
 * 业务单号 (or 用车需求编号), else `bizId` (the dialog of the demand sends it); an approval naming
 * another demand than `bizId` is a 400. Every sync is kept in wecom_approval (one row per approval
 * number: the demand, WeCom's status and what the sync did), which the demand's dialog shows.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ensureTables, type TableDef } from '../../auth/tables.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { WecomApprovalApi, WecomRefusal, type WecomApprovals } from '../../providers/wecom.ts';
import type { DbcAction } from '../../../shared/dbc-status.ts';
import { plainText } from '../../../shared/text.ts';

export const APPROVAL_TABLES: TableDef[] = [
  {
    name: 'wecom_approval',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'sp_no', type: 'varchar(64)', notNull: true, unique: true },
      { name: 'biz_type', type: 'varchar(32)', notNull: true },
      { name: 'biz_id', type: 'bigint', notNull: true },
      { name: 'sp_name', type: 'varchar(100)' },
      { name: 'sp_status', type: 'int', notNull: true },
      { name: 'applicant', type: 'varchar(64)' },
      { name: 'result', type: 'varchar(500)', notNull: true },
      { name: 'sync_user', type: 'varchar(64)', notNull: true },
      { name: 'sync_time', type: 'time', notNull: true },
    ],
    indexes: [{ name: 'wecom_approval_biz', columns: ['biz_type', 'biz_id'] }],
  },
];

export const SP_STATUS_NAMES: Record<number, string> = {
  1: '审批中',
  2: '已通过',
  3: '已驳回',
  4: '已撤销',
  6: '通过后撤销',
  7: '已删除',
  10: '已支付',
};
export const APPROVAL_MESSAGES = {
  notConfigured: '企业微信未配置：请设置 WECOM_CORP_ID、WECOM_AGENT_ID、WECOM_SECRET 后重启服务',
  badNo: '审批单号只能是1到64位数字',
  notLinked: '审批单未关联用车需求：请在审批表单的「业务单号」中填写用车需求编号，或在用车需求的处理窗口中同步',
  otherRecord: '该审批单属于另一条用车需求',
  rejected: '企业微信审批已驳回',
} as const;
const BIZ_FIELDS = ['业务单号', '用车需求编号', '业务ID'];
const BIZ_TYPE = 'dbcInfo';

type Transition = (
  id: number,
  action: DbcAction,
  actor: { kind: 'staff'; name: string },
  opts: { reason?: string | null },
) => Promise<void>;

export async function registerApprovalSync(
  app: FastifyInstance,
  table: string,
  transition: Transition,
  approvals: WecomApprovals = new WecomApprovalApi(app.config),
): Promise<void> {
  const database = app.database;
  await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:approval-setup'))`.execute(trx);
    await ensureTables(trx, database.dialect, APPROVAL_TABLES);
  });

  /** A wecom_approval row: the last synchronisation of one approval. */
  interface ApprovalRow {
    sp_no: string;
    biz_type: string;
    biz_id: number;
    sp_name: string | null;
    sp_status: number;
    applicant: string | null;
    result: string;
    sync_user: string;
    sync_time: string | Date;
  }

  const rowOut = (r: ApprovalRow) => ({
    spNo: String(r.sp_no),
    bizType: String(r.biz_type),
    bizId: Number(r.biz_id),
    spName: r.sp_name ?? '',
    spStatus: Number(r.sp_status),
    spStatusName: SP_STATUS_NAMES[Number(r.sp_status)] ?? `状态${r.sp_status}`,
    applicant: r.applicant ?? null,
    result: String(r.result),
    syncUser: String(r.sync_user),
    syncTime: r.sync_time instanceof Date ? nowText(r.sync_time) : String(r.sync_time),
  });

  app.get('/api/qywxapp/approval/approvalBizSync/:id', { preHandler: app.requirePermission('dbcInfo:edit') }, async (request) => {
    const spNo = (request.params as { id: string }).id;
    if (!/^\d{1,64}$/.test(spNo)) throw badRequest(APPROVAL_MESSAGES.badNo);
    const q = (request.query ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(q)) if (k !== 'bizId') throw badRequest(`不支持的查询参数: ${k}`);
    let asked: number | undefined;
    if (q.bizId !== undefined && q.bizId !== '') {
      if (Array.isArray(q.bizId) || !/^[1-9]\d{0,15}$/.test(plainText(q.bizId))) throw badRequest('用车需求编号必须是正整数');
      asked = Number(q.bizId);
    }
    if (!approvals.configured) throw badRequest(APPROVAL_MESSAGES.notConfigured);
    let approval;
    try {
      approval = await approvals.approvalDetail(spNo);
    } catch (err) {
      if (err instanceof WecomRefusal) throw new ApiError(502, `企业微信返回错误：${err.errmsg}`);
      throw err;
    }
    const known = await database.db.selectFrom('wecom_approval').select(['biz_id']).where('sp_no', '=', spNo).executeTakeFirst();
    const named = BIZ_FIELDS.map((f) => approval.fields[f]).find((v) => v !== undefined && v !== '');
    if (named !== undefined && !/^[1-9]\d{0,15}$/.test(named)) throw badRequest(`审批表单中的业务单号不正确：${named.slice(0, 40)}`);
    const bizId = known ? Number(known.biz_id) : named !== undefined ? Number(named) : asked;
    if (bizId === undefined) throw badRequest(APPROVAL_MESSAGES.notLinked);
    if (asked !== undefined && asked !== bizId) throw badRequest(APPROVAL_MESSAGES.otherRecord);
    const record = await database.db.selectFrom(table).select(['id', 'status', 'sh_status']).where('id', '=', bizId).executeTakeFirst();
    if (!record) throw notFound('用车需求不存在');
    const actor = { kind: 'staff' as const, name: `${request.user!.username}（企业微信审批）` };
    let result: string;
    const pending = Number(record.status) === 1;
    if (approval.spStatus === 2 && pending) {
      await transition(bizId, 'approve', actor, { reason: null });
      result = '已按企业微信审批结果审核通过';
    } else if (approval.spStatus === 3 && pending) {
      const reason = (approval.remarks.at(-1) ?? APPROVAL_MESSAGES.rejected).slice(0, 500);
      await transition(bizId, 'reject', actor, { reason });
      result = `已按企业微信审批结果审核不通过：${reason}`;
    } else if (approval.spStatus === 2 || approval.spStatus === 3) {
      result = '用车需求已审核，未作更改';
    } else {
      result = `审批状态：${SP_STATUS_NAMES[approval.spStatus] ?? approval.spStatus}，用车需求未作更改`;
    }
    const values = {
      biz_type: BIZ_TYPE,
      biz_id: bizId,
      sp_name: approval.spName.slice(0, 100) || null,
      sp_status: approval.spStatus,
      applicant: approval.applicant,
      result: result.slice(0, 500),
      sync_user: request.user!.username.slice(0, 64),
      sync_time: nowText(),
    };
    await database.db
      .insertInto('wecom_approval')
      .values({ sp_no: spNo, ...values })
      .onConflict((oc) => oc.column('sp_no').doUpdateSet(values))
      .execute();
    const after = await database.db
      .selectFrom(table)
      .select(['status', 'sh_status', 'audit_reason'])
      .where('id', '=', bizId)
      .$castTo<{ status: number; sh_status: number; audit_reason: string | null }>()
      .executeTakeFirstOrThrow();
    const row = await database.db
      .selectFrom('wecom_approval')
      .selectAll()
      .where('sp_no', '=', spNo)
      .$castTo<ApprovalRow>()
      .executeTakeFirstOrThrow();
    return { ...rowOut(row), status: Number(after.status), shStatus: Number(after.sh_status), auditReason: after.audit_reason ?? null };
  });
}
