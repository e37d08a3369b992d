/**
 * Scheduled jobs (定时任务). The job rows are the generic resource `dj` (api/dj, keys
 * timing:add|edit|del|download); this area adds:
 *   - the save rules: cron expression parses (400 naming it), bean + method registered (400);
 *   - POST api/code, PUT api/code   the spec's base of scheduled tasks: the same create (201) and
 *                              update (204) as api/dj, same rules and keys (timing:add, timing:edit);
 *                              GET api/code stays the sign-in captcha
 *   - PUT api/jobs/{id}        pause / resume (timing:edit) -> 200 {isPause}
 *   - PUT api/jobs/exec/{id}   run now (timing:edit) -> 200 {success, message, time, logId}
 *   - GET api/jobs/logs?jobId=&page=&size=   the run log of a job, newest first
 *   - GET api/jobs/functions   the registered bean/method pairs (for the dialog)
 *   - GET api/jobs/passwordReminder, PUT api/jobs/passwordReminder/read   the signed-in user's reminder
 *   - the scheduler of this instance (started when the app is ready, stopped on close) and the
 *     default rows of registered jobs, written once.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { crudWriteHandlers, positiveId, setRecordHooks, tableChanged } from '../../crud/index.ts';
import { permissionKey } from '../../../shared/resource-spec.ts';
import { resourceByName } from '../../../generated/resources.ts';
import { badRequest, notFound } from '../../errors.ts';
import { ensureTables, flag } from '../../auth/tables.ts';
import { nowText } from '../../db/index.ts';
import { checkCron } from './cron.ts';
import { registerMaintenanceJobs } from './maintenance.ts';
import { findJobFunction, registeredJobs } from './registry.ts';
import { PASSWORD_REMINDER_TABLE, REMINDER_TABLES } from './reminders.ts';
import { runJob } from './runner.ts';
import { JOB_TABLE, JobScheduler, readJob } from './scheduler.ts';
import { plainText } from '../../../shared/text.ts';
import { JOB_LOG_TABLE, JOB_TABLES } from './tables.ts';

export { registerJobFunction, type JobFunction, type JobContext, type JobOptions } from './registry.ts';
export { checkCron } from './cron.ts';

const schedulers = new WeakMap<FastifyInstance, JobScheduler>();

/** The scheduler of an app (undefined when JOBS_ENABLED is off). */
export function schedulerOf(app: FastifyInstance): JobScheduler | undefined {
  return schedulers.get(app);
}

export const SEEDED_KEY = 'jobs.seededDefaults';
export const EXEC_SUCCESS = '执行成功';

/** Save rules of a job row beyond its schema. */
export function checkJobRecord(record: Record<string, unknown>): void {
  const cron = checkCron(record.cronExpression);
  if (!cron.ok) throw badRequest(cron.message);
  const bean = plainText(record.project ?? '');
  const method = plainText(record.methodName ?? '');
  const registered = findJobFunction(bean, method);
  if (!registered) throw badRequest(`未注册的任务：${bean}.${method}，请填写已注册的Bean名称和执行方法`);
  const problem = registered.options.checkParams?.(plainText(record.params ?? '').trim());
  if (problem) throw badRequest(problem);
}

/** A sys_job_log row: one run of a job. */
interface JobLogRow {
  id: number;
  job_id: number;
  job_name: string | null;
  bean_name: string | null;
  method_name: string | null;
  params: string | null;
  /** epoch ms of the scheduled firing; null for a manual run */
  fire_time: number | null;
  run_kind: string;
  start_time: string;
  time: number | null;
  is_success: number | boolean | null;
  result: string | null;
  exception_detail: string | null;
  instance: string | null;
}

function pathId(params: unknown): number {
  const id = positiveId((params as { id?: unknown }).id);
  if (id === undefined) throw badRequest('任务ID必须是正整数');
  return id;
}

function pageParams(query: Record<string, unknown>): { page: number; size: number } {
  const one = (v: unknown) => (Array.isArray(v) ? undefined : v);
  const page = one(query.page) === undefined ? 0 : Number(one(query.page));
  const size = one(query.size) === undefined ? 10 : Number(one(query.size));
  if (!Number.isInteger(page) || page < 0 || page > 1_000_000) throw badRequest('页码必须是非负整数');
  if (!Number.isInteger(size) || size < 1 || size > 1000) throw badRequest('每页条数必须在1到1000之间');
  return { page, size };
}

/** Writes each registered default job once (remembered in sys_config, so a deleted one stays deleted). */
async function seedDefaultJobs(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  await db.transaction().execute(async (trx) => {
    if (app.database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${SEEDED_KEY}))`.execute(trx);
    const row = await trx.selectFrom('sys_config').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
    let seeded: string[];
    try {
      seeded = row?.value ? (JSON.parse(String(row.value)) as string[]) : [];
    } catch {
      seeded = [];
    }
    const now = nowText();
    let changed = false;
    for (const job of registeredJobs()) {
      const key = `${job.bean}.${job.method}`;
      if (!job.defaultJob || seeded.includes(key)) continue;
      await trx
        .insertInto(JOB_TABLE)
        .values({
          money: job.defaultJob.name,
          project: job.bean,
          method_name: job.method,
          params: job.defaultJob.params ?? null,
          cron_expression: job.defaultJob.cron,
          is_pause: flag(false),
          remark: job.defaultJob.remark ?? null,
          create_time: now,
        })
        .execute();
      seeded.push(key);
      changed = true;
    }
    if (!changed) return;
    const value = JSON.stringify(seeded);
    if (row) await trx.updateTable('sys_config').set({ value, update_time: now }).where('key', '=', SEEDED_KEY).execute();
    else await trx.insertInto('sys_config').values({ key: SEEDED_KEY, value, update_time: now }).execute();
  });
}

export async function registerJobs(app: FastifyInstance): Promise<void> {
  const spec = resourceByName.dj;
  if (!spec) return;
  const { db, dialect } = app.database;
  await ensureTables(db, dialect, [...JOB_TABLES, ...REMINDER_TABLES]);
  await db.schema.createIndex('sys_job_log_firing').ifNotExists().unique().on(JOB_LOG_TABLE).columns(['job_id', 'fire_time']).execute();
  await db.schema
    .createIndex('sys_password_reminder_key')
    .ifNotExists()
    .unique()
    .on(PASSWORD_REMINDER_TABLE)
    .columns(['user_id', 'pwd_reset_time'])
    .execute();
  registerMaintenanceJobs();

  const reload = async () => {
    await schedulers.get(app)?.reload();
  };
  setRecordHooks(spec.name, {
    beforeWrite: ({ record }) => checkJobRecord(record),
    afterWrite: async ({ app: writer }) => {
      await schedulers.get(writer)?.reload();
    },
  });

  const writes = crudWriteHandlers(app, spec);
  app.post('/api/code', { preHandler: app.requirePermission(permissionKey(spec, 'add')) }, writes.create);
  app.put('/api/code', { preHandler: app.requirePermission(permissionKey(spec, 'edit')) }, writes.update);

  const edit = app.requirePermission('timing:edit');

  app.put('/api/jobs/:id', { preHandler: edit }, async (request) => {
    const id = pathId(request.params);
    const job = await readJob(app, id);
    if (!job) throw notFound('任务不存在');
    const isPause = !job.paused;
    await db
      .updateTable(JOB_TABLE)
      .set({ is_pause: flag(isPause) })
      .where('id', '=', id)
      .execute();
    tableChanged(app.database, JOB_TABLE);
    await reload();
    return { id, isPause };
  });

  app.put('/api/jobs/exec/:id', { preHandler: edit }, async (request) => {
    const id = pathId(request.params);
    const job = await readJob(app, id);
    if (!job) throw notFound('任务不存在');
    const outcome = await runJob(app, job, null);
    if (!outcome) throw badRequest('任务执行失败');
    return {
      logId: outcome.logId,
      success: outcome.success,
      time: outcome.time,
      message: outcome.success ? outcome.message || EXEC_SUCCESS : `执行失败：${outcome.message}`,
    };
  });

  app.get('/api/jobs/logs', { preHandler: app.requirePermission('timing:list') }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const jobId = query.jobId === undefined ? undefined : positiveId(Array.isArray(query.jobId) ? undefined : query.jobId);
    if (query.jobId !== undefined && jobId === undefined) throw badRequest('任务ID必须是正整数');
    const { page, size } = pageParams(query);
    let base = db.selectFrom(JOB_LOG_TABLE);
    if (jobId !== undefined) base = base.where('job_id', '=', jobId);
    const [rows, total] = await Promise.all([
      base
        .selectAll()
        .orderBy('id', 'desc')
        .limit(size)
        .offset(page * size)
        .$castTo<JobLogRow>()
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        jobId: Number(r.job_id),
        jobName: r.job_name,
        beanName: r.bean_name,
        methodName: r.method_name,
        params: r.params,
        trigger: r.run_kind,
        fireTime: r.fire_time === null ? null : Number(r.fire_time),
        startTime: r.start_time,
        time: r.time === null ? null : Number(r.time),
        isSuccess: r.is_success === null ? null : Boolean(r.is_success),
        result: r.result,
        exceptionDetail: r.exception_detail,
        instance: r.instance,
      })),
      totalElements: Number(total.n),
    };
  });

  app.get('/api/jobs/functions', { preHandler: app.requirePermission('timing:list') }, () =>
    registeredJobs().map((j) => ({ bean: j.bean, method: j.method, name: j.defaultJob?.name ?? null })),
  );

  app.get('/api/jobs/passwordReminder', { preHandler: app.authenticate }, async (request) => {
    const user = request.user!;
    const current = await db.selectFrom('sys_user').select('pwd_reset_time').where('id', '=', user.id).executeTakeFirst();
    const row = await db
      .selectFrom(PASSWORD_REMINDER_TABLE)
      .select(['id', 'days', 'pwd_reset_time', 'create_time'])
      .where('user_id', '=', user.id)
      .where('is_read', '=', dialect === 'postgres' ? sql<boolean>`false` : 0)
      .orderBy('id', 'desc')
      .$castTo<{ id: number; days: number; pwd_reset_time: string | null; create_time: string }>()
      .executeTakeFirst();
    // a reminder about a password that has since been changed is stale
    if (!row || String(row.pwd_reset_time) !== String(current?.pwd_reset_time ?? '')) return { reminder: null };
    return {
      reminder: {
        id: Number(row.id),
        days: Number(row.days),
        createTime: row.create_time,
        message: `您的密码已使用${Number(row.days)}天，请尽快修改密码；密码使用满90天将提示修改，满100天将无法登录。`,
      },
    };
  });

  app.put('/api/jobs/passwordReminder/read', { preHandler: app.authenticate }, async (request, reply) => {
    await db
      .updateTable(PASSWORD_REMINDER_TABLE)
      .set({ is_read: flag(true) })
      .where('user_id', '=', request.user!.id)
      .execute();
    return reply.status(204).send();
  });

  if (app.config.jobsEnabled) {
    const scheduler = new JobScheduler(app, app.config.jobsPollSeconds);
    schedulers.set(app, scheduler);
    app.addHook('onReady', async () => {
      await seedDefaultJobs(app);
      await scheduler.start();
    });
    app.addHook('preClose', async () => scheduler.stop());
  } else {
    app.addHook('onReady', async () => seedDefaultJobs(app));
  }
}
