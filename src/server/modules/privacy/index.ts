/**
 * 个人信息保护 (PIPL requests), all behind the key `pi:admin` (系统管理 → 个人信息保护):
 *   POST /api/privacy/search          {idNumber?, mobile?, reason}: every record, revision and
 *                                     log line holding the identifiers, in full; stored as a request
 *   POST /api/privacy/copy            the same with `format` json | xlsx: one file for the person
 *   POST /api/privacy/erase           erase the person by each schema's x-erase; the report answers
 *   GET  /api/privacy/requests        the requests (look-ups, copies, erasures, retention runs), newest
 *                                     first; `kind=retention` lists the retention runs alone
 *   GET  /api/privacy/requests/download   the same as xlsx, for an audit
 *   GET  /api/privacy/processing      records of processing (个人信息处理活动记录), from schemas and roles
 *   GET  /api/privacy/processing/markdown the same as a Markdown file
 *   GET  /api/privacy/retention       what the retention job would erase now (dry run: changes nothing)
 *   POST /api/privacy/retention/run   the retention job now; its report answers (stored as a request)
 * and the daily job privacyMaintenance.retention (定时任务 个人信息到期清理), which tells the
 * administrators what it erased, or that it failed.
 * Every POST is also a line of the operation log (with the identifiers masked).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { badRequest } from '../../errors.ts';
import { ensureTables } from '../../auth/tables.ts';
import { findPerson, type FindResult, type Subject } from './find.ts';
import { normalizeSubject } from './sources.ts';
import { PRIVACY_TABLES, REQUEST_TABLE } from './tables.ts';
import { ledgerSecret, storeRequest, toRequestRow, type RequestKind } from './requests.ts';
import { copyDocument, copyWorkbook, requestsWorkbook } from './copy.ts';
import { erasePerson } from './erase.ts';
import { readLedger, restoreLedger, type CarriedLedger } from './ledger.ts';
import { addRestoreHook } from '../backup/index.ts';
import { nowText } from '../../db/index.ts';
import { exportLimit } from '../../read-limits.ts';
import { XLSX_MIME, attachmentHeader } from '../../crud/sheets/spreadsheet.ts';
import { registerJobFunction } from '../jobs/registry.ts';
import { notifyAdmins } from '../messages/admin-notice.ts';
import type { Database } from '../../types.ts';
import { retentionDetail, retentionDryRun, runRetention, type RetentionReport } from './retention.ts';
import { processingMarkdown, processingRecords } from './processing.ts';

export const PI_KEY = 'pi:admin';
/** the newest requests an audit export holds */
const REQUESTS_EXPORT_MAX = 100_000;

export const REASON_REQUIRED = '请填写事由';
export const SUBJECT_REQUIRED = '请输入完整的身份证号或手机号';
export const BAD_ID_NUMBER = '请输入正确的身份证号（18位，末位可为X）';
export const BAD_MOBILE = '请输入正确的11位手机号码';

interface SubjectBody {
  idNumber?: string;
  mobile?: string;
  reason?: string;
}

const subjectBodySchema = {
  type: 'object',
  properties: {
    idNumber: { type: 'string', maxLength: 40 },
    mobile: { type: 'string', maxLength: 40 },
    reason: { type: 'string', maxLength: 500 },
  },
};

/** The identifiers and the reason of a request body; a 400 with a Chinese message otherwise. */
export function subjectsOf(body: SubjectBody | undefined): { subjects: Subject[]; reason: string } {
  const reason = (body?.reason ?? '').trim();
  if (!reason) throw badRequest(REASON_REQUIRED);
  const subjects: Subject[] = [];
  if (body?.idNumber?.trim()) {
    const v = normalizeSubject('id', body.idNumber);
    if (!v) throw badRequest(BAD_ID_NUMBER);
    subjects.push({ kind: 'id', value: v });
  }
  if (body?.mobile?.trim()) {
    const v = normalizeSubject('phone', body.mobile);
    if (!v) throw badRequest(BAD_MOBILE);
    subjects.push({ kind: 'phone', value: v });
  }
  if (!subjects.length) throw badRequest(SUBJECT_REQUIRED);
  return { subjects, reason };
}

/** What a request record keeps of a find: counts per resource, never the values. */
export function findSummary(found: FindResult) {
  return {
    groups: found.groups.map((g) => ({
      resource: g.resource,
      title: g.title,
      records: g.records.length,
      deleted: g.deletedIds.length,
      revisions: g.revisions.length,
    })),
    logs: found.logs.length,
  };
}

const userOf = (request: FastifyRequest) => request.user?.username ?? null;

export const RETENTION_REASON = '保留期限到期清理';
export const RETENTION_DONE_TITLE = '个人信息到期清理已完成';
export const RETENTION_FAILED_TITLE = '个人信息到期清理失败，请系统管理员处理';

/** The notice of a run that erased something: counts per entity, never a value. */
export function retentionNotice(report: RetentionReport): string {
  const parts = report.lines.filter((l) => l.count).map((l) => `${l.title}${l.action} ${l.count} 条`);
  const left = report.left ? `；另有 ${report.left} 条留待下次执行` : '';
  return `${report.time} 按保留期限处理个人信息 ${report.count} 条：${parts.join('，')}${left}。详见“系统管理 > 个人信息保护 > 保留期限”。`;
}

/** The app and the specs of a database (the job function gets only the database). */
const areas = new WeakMap<Database, { app: FastifyInstance; specs: ResourceSpec[] }>();

/**
 * One retention run, by the job or from the screen: the report stored as a request (failed runs
 * too), the administrators told when something was erased or the run failed.
 */
export async function retentionRun(app: FastifyInstance, specs: ResourceSpec[], username: string | null, now = new Date()) {
  const database = app.database;
  const secret = await ledgerSecret(database);
  let report: RetentionReport;
  try {
    report = await runRetention(database, specs, { dataDir: app.config.dataDir, now });
  } catch (err) {
    await storeRequest(database.db, secret, {
      kind: 'retention',
      subjects: [],
      reason: RETENTION_REASON,
      status: '失败',
      resultCount: 0,
      detail: { error: err instanceof Error ? err.message : String(err) },
      username,
    }).catch((e: unknown) => app.log.warn({ err: e }, 'retention failure not recorded'));
    await notifyAdmins(
      app,
      RETENTION_FAILED_TITLE,
      `${nowText(now)} 的个人信息到期清理没有完成，请在“系统管理 > 定时任务”的执行日志中查看原因。`,
    );
    throw err;
  }
  const requestId = await storeRequest(database.db, secret, {
    kind: 'retention',
    subjects: [],
    reason: RETENTION_REASON,
    status: '已完成',
    resultCount: report.count,
    detail: retentionDetail(report),
    username,
  });
  if (report.count) await notifyAdmins(app, RETENTION_DONE_TITLE, retentionNotice(report));
  app.log.info({ requestId, records: report.count, left: report.left }, 'retention run');
  return { requestId, ...report };
}

function registerRetentionJob(): void {
  registerJobFunction(
    'privacyMaintenance',
    'retention',
    async ({ database, now }) => {
      const area = areas.get(database);
      if (!area) throw new Error('个人信息保护模块未启用');
      const done = await retentionRun(area.app, area.specs, null, now);
      return `按保留期限处理个人信息 ${done.count} 条${done.left ? `，${done.left} 条留待下次` : ''}（请求记录 ${done.requestId}）`;
    },
    {
      name: '个人信息到期清理',
      cron: '0 30 3 * * ?',
      remark: '每天3:30按各数据的保存期限（x-retention）删除或匿名化到期的个人信息，报告见“个人信息保护 > 保留期限”，并通知管理员',
    },
  );
}

export async function registerPrivacy(app: FastifyInstance, specs: ResourceSpec[]): Promise<void> {
  const database = app.database;
  await ensureTables(database.db, database.dialect, PRIVACY_TABLES);
  const guard = { preHandler: app.requirePermission(PI_KEY) };
  areas.set(database, { app, specs });
  registerRetentionJob();

  const record = async (
    request: FastifyRequest,
    kind: RequestKind,
    subjects: Subject[],
    reason: string,
    found: FindResult,
    detail?: unknown,
  ) =>
    storeRequest(database.db, await ledgerSecret(database), {
      kind,
      subjects,
      reason,
      status: '已完成',
      resultCount: found.count,
      detail: detail ?? findSummary(found),
      username: userOf(request),
    });

  app.post<{ Body: SubjectBody }>('/api/privacy/search', { ...guard, schema: { body: subjectBodySchema } }, async (request) => {
    const { subjects, reason } = subjectsOf(request.body);
    const found = await findPerson(database, specs, subjects);
    const requestId = await record(request, 'search', subjects, reason, found);
    return { requestId, ...found };
  });

  app.post<{ Body: SubjectBody & { format?: 'json' | 'xlsx' } }>(
    '/api/privacy/copy',
    {
      ...guard,
      schema: {
        body: { ...subjectBodySchema, properties: { ...subjectBodySchema.properties, format: { type: 'string', enum: ['json', 'xlsx'] } } },
      },
    },
    async (request, reply) => {
      const { subjects, reason } = subjectsOf(request.body);
      const found = await findPerson(database, specs, subjects);
      const format = request.body.format ?? 'json';
      await record(request, 'copy', subjects, reason, found, { format, ...findSummary(found) });
      const stamp = nowText().replace(/[^0-9]/g, '');
      if (format === 'xlsx') {
        const file = await copyWorkbook(found, specs);
        return reply
          .header('content-type', XLSX_MIME)
          .header('content-disposition', attachmentHeader(`个人信息副本-${stamp}.xlsx`, `personal-data-${stamp}.xlsx`))
          .send(file);
      }
      return reply
        .header('content-disposition', attachmentHeader(`个人信息副本-${stamp}.json`, `personal-data-${stamp}.json`))
        .send(copyDocument(found, specs, nowText()));
    },
  );

  app.post<{ Body: SubjectBody }>('/api/privacy/erase', { ...guard, schema: { body: subjectBodySchema } }, async (request) => {
    const { subjects, reason } = subjectsOf(request.body);
    const secret = await ledgerSecret(database);
    const report = await erasePerson(database, specs, subjects, { secret, dataDir: app.config.dataDir });
    const requestId = await storeRequest(database.db, secret, {
      kind: 'erase',
      subjects,
      reason,
      status: '已完成',
      resultCount: report.count,
      detail: report,
      username: userOf(request),
    });
    request.log.info({ requestId, records: report.count }, 'personal data erased');
    return { requestId, ...report };
  });

  // an erased person stays erased when an older backup is restored
  addRestoreHook({
    name: 'privacy-ledger',
    before: (db) => readLedger(db),
    after: async (restored, carried) => {
      try {
        const reports = await restoreLedger(restored.database, specs, restored.config.dataDir, carried as CarriedLedger);
        restored.log.info({ erased: reports.reduce((n, r) => n + r.ledger, 0) }, 'erasure ledger applied after restore');
      } catch (err) {
        restored.log.error({ err }, 'erasure ledger not applied after restore');
      }
    },
  });

  app.get('/api/privacy/requests/download', guard, async (_request, reply) => {
    const rows = await database.db.selectFrom(REQUEST_TABLE).selectAll().orderBy('id', 'desc').limit(REQUESTS_EXPORT_MAX).execute();
    const file = await requestsWorkbook(rows.map(toRequestRow));
    const stamp = nowText().replace(/[^0-9]/g, '');
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', attachmentHeader(`个人信息请求记录-${stamp}.xlsx`, `pi-requests-${stamp}.xlsx`))
      .send(file);
  });

  app.get<{ Querystring: { page?: number; size?: number; kind?: RequestKind } }>(
    '/api/privacy/requests',
    {
      ...guard,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 0, default: 0 },
            size: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
            kind: { type: 'string', enum: ['search', 'copy', 'erase', 'retention'] },
          },
        },
      },
    },
    async (request) => {
      const page = request.query.page ?? 0;
      const size = request.query.size ?? 10;
      const kind = request.query.kind;
      const rows = await database.db
        .selectFrom(REQUEST_TABLE)
        .selectAll()
        .$if(!!kind, (q) => q.where('kind', '=', kind!))
        .orderBy('id', 'desc')
        .limit(size)
        .offset(page * size)
        .execute();
      const total = await database.db
        .selectFrom(REQUEST_TABLE)
        .select((eb) => eb.fn.countAll().as('n'))
        .$if(!!kind, (q) => q.where('kind', '=', kind!))
        .executeTakeFirstOrThrow();
      return { content: rows.map(toRequestRow), totalElements: Number(total.n) };
    },
  );

  app.get('/api/privacy/retention', guard, async () => retentionDryRun(database, specs));

  app.post('/api/privacy/retention/run', guard, async (request) => retentionRun(app, specs, userOf(request)));

  app.get('/api/privacy/processing', guard, async () => processingRecords(database.db, specs, nowText()));

  app.get(
    '/api/privacy/processing/markdown',
    { preHandler: [app.requirePermission(PI_KEY), ...exportLimit(app)] },
    async (_request, reply) => {
      const stamp = nowText();
      const text = processingMarkdown(await processingRecords(database.db, specs, stamp));
      const file = stamp.replace(/[^0-9]/g, '');
      return reply
        .header('content-type', 'text/markdown; charset=utf-8')
        .header('content-disposition', attachmentHeader(`个人信息处理活动记录-${file}.md`, `pi-processing-${file}.md`))
        .send(text);
    },
  );
}
