/**
 * POST /api/staffjlk/staffJoin {id, deptId?, orgId?, job?, entryDate?}: HR moves an applicant into the
 * staff roster (员工花名册, schema `staff`). Copies name, mobile, sex, ID number, birthday,
 * e-mail, highest education and current address (region names + street); the department and
 * job come from the body or else from the posting applied for; the company (orgId) from the
 * body or else the department's top-level department; the entry date from the body or
 * else today; status 在职; staffunId links back. The applicant becomes 已入职. One transaction;
 * an applicant already in the roster is refused. Needs the key staff:add.
 */
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { regionText } from '../../../shared/regions.ts';
import {
  assertRecordsInScope,
  checkRecord,
  findById,
  positiveId,
  recordToRow,
  rowToRecord,
  tableChanged,
  writePinyinKeys,
} from '../../crud/index.ts';
import { dateText } from '../../crud/values.ts';
import { nowText } from '../../db/index.ts';
import { revisionActor, snapshotChanges, writeRevisions } from '../../crud/history/revisions.ts';
import { actorOf } from '../../crud/routes.ts';
import { badRequest, notFound } from '../../errors.ts';
import { companyOf, staffRecordProblem } from '../staff/rules.ts';

export const ALREADY_JOINED = '该应聘人员已入职';

export function registerStaffJoin(app: FastifyInstance, applicantSpec: ResourceSpec): void {
  const staffSpec = resourceByName.staff;
  if (!staffSpec) return;
  const postingSpec = resourceByName.staffunZp;
  const database = app.database;

  app.post('/api/staffjlk/staffJoin', { preHandler: app.requirePermission('staff:add') }, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('请求内容格式错误');
    const input = body as Record<string, unknown>;
    const id = positiveId(input.id);
    if (id === undefined) throw badRequest('请选择应聘人员');
    const applicant = await findById(database, applicantSpec, id);
    if (!applicant) throw notFound('应聘人员不存在');
    if (applicant.status === 3) throw badRequest(ALREADY_JOINED);
    const posting = postingSpec && applicant.staffunZpId ? await findById(database, postingSpec, Number(applicant.staffunZpId)) : undefined;
    const address = [regionText(applicant.nowProvince, applicant.nowCity, applicant.nowCounty), applicant.nowAddress]
      .filter(Boolean)
      .join(' ');
    const candidate = {
      name: applicant.name,
      mobile: applicant.mobile,
      sex: applicant.sex,
      card: applicant.card,
      birthday: applicant.birthday,
      email: applicant.email,
      edu: applicant.edu,
      address: address.slice(0, 200),
      deptId: input.deptId ?? posting?.deptId,
      job: input.job ?? posting?.job,
      entryDate: input.entryDate ?? dateText(new Date()),
      status: 1,
      staffunId: id,
      remark: input.remark,
    };
    // the company: the body's, else the department's (its top-level department)
    const deptId = positiveId(candidate.deptId);
    const orgId = input.orgId ?? (deptId === undefined ? undefined : await companyOf(database.db, deptId));
    const checked = checkRecord(staffSpec, { ...candidate, orgId }, 'create');
    if (!checked.ok) throw badRequest(checked.error.message);
    const problem = await staffRecordProblem(database.db, staffSpec, resourceByName.jpType, checked.values);
    if (problem) throw badRequest(problem);
    await assertRecordsInScope(database, staffSpec, request, [checked.values.orgId]);
    const now = nowText();
    const username = request.user?.username ?? null;
    const row = recordToRow(
      staffSpec,
      { ...checked.values, createTime: now, updateTime: now, createUser: username, updateUser: username },
      database.dialect,
    );
    const actor = revisionActor(actorOf(request));
    const created = await database.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom(applicantSpec.table).select('status').where('id', '=', id).executeTakeFirst();
      // the status check and the move happen together: a second click cannot add the person twice
      const moved = await trx
        .updateTable(applicantSpec.table)
        .set({ status: 3, update_time: now })
        .where('id', '=', id)
        .where('status', '<>', 3)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) throw badRequest(ALREADY_JOINED);
      const inserted = await trx
        .insertInto(staffSpec.table)
        .values(row)
        .returning(staffSpec.fields.map((f) => f.column))
        .executeTakeFirstOrThrow();
      await writePinyinKeys(trx, staffSpec, [inserted]);
      // both records' histories: the application's move to 已入职, the roster entry's creation
      await writeRevisions(trx, database.dialect, applicantSpec, actor, [
        { recordId: id, action: 'status', changes: { status: [before ? Number(before.status) : null, 3] } },
      ]);
      const record = rowToRecord(staffSpec, inserted);
      await writeRevisions(trx, database.dialect, staffSpec, actor, [
        { recordId: Number(record.id), action: 'create', changes: snapshotChanges(staffSpec, record, 'new') },
      ]);
      return inserted;
    });
    tableChanged(database, staffSpec.table);
    tableChanged(database, applicantSpec.table);
    return reply.status(201).send(rowToRecord(staffSpec, created));
  });
}
