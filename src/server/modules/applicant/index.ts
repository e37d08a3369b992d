/**
 * Public applicant onboarding (area `applicant`):
 *   POST /api/staffun                 public, rate-limited: registers an applicant (schema
 *                                     `applicant` + ID / region / posting rules) and answers
 *                                     201 {id, token}: the applicant token for the next steps.
 *                                     Every registration is a new application, whatever ID
 *                                     number it carries: an answer that differed for a known
 *                                     one would tell anyone whether that person applied.
 *                                     Coming back to an unfinished one is 继续填写 (resume.ts)
 *   POST /api/staffun/resume/sendCode, POST /api/staffun/resume   public: come back with ID
 *                                     number + mobile + SMS code on any device (resume.ts)
 *   POST /api/staffun/staffJoin       applicant token: 确认填写完毕, status 已提交, token ended
 *   GET  /api/staffunZp/public        public, rate-limited: enabled postings, public fields only
 *   GET  /api/staffunZp/public/getZpById?id=   one enabled posting, public fields only
 *   POST /api/staffjlk/staffJoin      staff with staff:add: copies an applicant into the roster
 * The education / training / work entries use the generic routes of their schemas, which
 * accept the applicant token for the applicant's own records (x-entity.ownedByApplicant).
 */
import { markIdentity } from '../../auth/route-catalogue.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { ensureTables } from '../../auth/tables.ts';
import { checkRecord, positiveId, recordToRow, rowToRecord, tableChanged, writePinyinKeys } from '../../crud/index.ts';
import { nowText } from '../../db/index.ts';
import { revisionActor, snapshotChanges, writeRevisions } from '../../crud/history/revisions.ts';
import { actorOf, applicantActor } from '../../crud/routes.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import { sql } from 'kysely';
import { registerResumeRoutes } from './resume.ts';
import { addEntryRules, registrationProblem } from './rules.ts';
import { APPLICANT_TABLES, ApplicantTokens, bearerOf, isApplicantToken } from './tokens.ts';
import { registerStaffJoin } from './staff-join.ts';

/** Fields the server owns on an applicant record: never taken from the public form. */
const SERVER_OWNED = ['status', 'openid', 'unid', 'nickname', 'img', 'roleId', 'id'];
/** Posting fields an applicant may read. */
const PUBLIC_POSTING_FIELDS = ['id', 'job', 'money', 'address', 'jobNum', 'jobZz', 'jobYq'];
export const APPLICANT_TOKEN_NEEDED = '请先填写应聘人员信息登记表';
export const NO_EDUCATION = '请至少填写一条教育信息';

const REGISTER_LIMIT = { max: 20, timeWindow: 10 * 60_000 };
const PUBLIC_READ_LIMIT = { max: 120, timeWindow: 60_000 };

function publicPosting(spec: ResourceSpec, row: Record<string, unknown>): Record<string, unknown> {
  const record = rowToRecord(spec, row);
  return Object.fromEntries(PUBLIC_POSTING_FIELDS.map((k) => [k, record[k] ?? null]));
}

export async function registerApplicantArea(app: FastifyInstance): Promise<void> {
  const applicantSpec = resourceByName.applicant;
  if (!applicantSpec) return;
  const postingSpec = resourceByName.staffunZp;
  const database = app.database;
  await ensureTables(database.db, database.dialect, APPLICANT_TABLES);
  const tokens = new ApplicantTokens(database.db);
  app.decorate('resolveApplicant', (request) => tokens.resolve(request));
  addEntryRules(applicantSpec.table);
  // the ID number finds the applicant (registration, resume)
  await sql`create index if not exists ${sql.id(`idx_${applicantSpec.table}_card`)} on ${sql.table(applicantSpec.table)} (card)`.execute(
    database.db,
  );
  registerResumeRoutes(app, applicantSpec, tokens);

  app.post(`/${applicantSpec.path}`, { config: { rateLimit: REGISTER_LIMIT } }, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('请求内容格式错误');
    const input = { ...(body as Record<string, unknown>) };
    for (const key of SERVER_OWNED) delete input[key];
    if (typeof input.card === 'string') input.card = input.card.trim().toUpperCase();
    const result = checkRecord(applicantSpec, input, 'create');
    if (!result.ok) throw badRequest(result.error.message);
    const problem = await registrationProblem(result.values, database, postingSpec);
    if (problem) throw badRequest(problem);
    const now = nowText();
    const values = { ...result.values, status: 1, createTime: now, updateTime: now };
    const row = recordToRow(applicantSpec, values, database.dialect);
    const { id, token } = await database.db.transaction().execute(async (trx) => {
      const inserted = await trx.insertInto(applicantSpec.table).values(row).returning('id').executeTakeFirstOrThrow();
      const newId = Number(inserted.id);
      await writePinyinKeys(trx, applicantSpec, [{ ...row, id: newId }]);
      await writeRevisions(trx, database.dialect, applicantSpec, revisionActor(applicantActor(newId)), [
        { recordId: newId, action: 'create', changes: snapshotChanges(applicantSpec, values, 'new') },
      ]);
      return { id: newId, token: await tokens.issue(trx, newId) };
    });
    tableChanged(database, applicantSpec.table);
    return reply.status(201).send({ id, token });
  });

  // a promise either way: Fastify waits for a hook that answers one
  const applicantOnly = markIdentity(
    (request: FastifyRequest) =>
      isApplicantToken(bearerOf(request)) ? Promise.resolve() : Promise.reject(unauthorized(APPLICANT_TOKEN_NEEDED)),
    'applicant',
  );
  app.post(`/${applicantSpec.path}/staffJoin`, { preHandler: applicantOnly }, async (request) => {
    const applicant = (await tokens.resolve(request))!;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const given = typeof body === 'object' && !Array.isArray(body) ? (body.id ?? body.staffunId) : undefined;
    if (given !== undefined && positiveId(given) !== applicant.staffunId) throw forbidden('无权访问其他应聘人员的信息');
    const education = resourceByName.staffunEducation;
    if (education) {
      const owner = education.fields.find((f) => f.name === education.ownedByApplicant)!.column;
      const one = await database.db
        .selectFrom(education.table)
        .select('id')
        .where(owner, '=', applicant.staffunId)
        .limit(1)
        .executeTakeFirst();
      if (!one) throw badRequest(NO_EDUCATION);
    }
    await database.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom(applicantSpec.table).select('status').where('id', '=', applicant.staffunId).executeTakeFirst();
      const updated = await trx
        .updateTable(applicantSpec.table)
        .set({ status: 2, update_time: nowText() })
        .where('id', '=', applicant.staffunId)
        .executeTakeFirst();
      if (!before || Number(updated.numUpdatedRows) === 0) throw notFound('应聘人员不存在');
      if (Number(before.status) !== 2)
        await writeRevisions(trx, database.dialect, applicantSpec, revisionActor(actorOf(request)), [
          { recordId: applicant.staffunId, action: 'status', changes: { status: [Number(before.status), 2] } },
        ]);
      await tokens.revoke(trx, applicant.staffunId);
    });
    tableChanged(database, applicantSpec.table);
    return { id: applicant.staffunId, status: 2 };
  });

  if (postingSpec) {
    const enabled = database.dialect === 'postgres' ? true : 1;
    const columns = postingSpec.fields.map((f) => f.column);
    app.get(`/${postingSpec.path}/public`, { config: { rateLimit: PUBLIC_READ_LIMIT } }, async () => {
      const rows = await database.db
        .selectFrom(postingSpec.table)
        .select(columns)
        .where('enabled', '=', enabled as never)
        .orderBy('id', 'desc')
        .limit(500)
        .execute();
      const content = rows.map((r) => publicPosting(postingSpec, r));
      return { content, totalElements: content.length };
    });
    app.get(`/${postingSpec.path}/public/getZpById`, { config: { rateLimit: PUBLIC_READ_LIMIT } }, async (request) => {
      const raw = (request.query as Record<string, unknown>).id;
      const id = positiveId(Array.isArray(raw) ? undefined : raw);
      if (id === undefined) throw badRequest('ID必须是正整数');
      const row = await database.db
        .selectFrom(postingSpec.table)
        .select(columns)
        .where('id', '=', id)
        .where('enabled', '=', enabled as never)
        .executeTakeFirst();
      if (!row) throw notFound('招聘信息不存在或已停止招聘');
      return publicPosting(postingSpec, row);
    });
  }

  registerStaffJoin(app, applicantSpec);
}
