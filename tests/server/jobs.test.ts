import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../src/server/db/index.ts';
import { loadConfig } from '../../src/server/config.ts';
import { checkCron, normalizeCron } from '../../src/server/modules/jobs/cron.ts';
import { registerJobFunction, schedulerOf } from '../../src/server/modules/jobs/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';
import { elapse, steady, until } from '../support/wait.ts';

/** a row of api/dj as these tests read it */
interface Job {
  id: number;
  project: string;
  methodName: string;
  isPause: boolean;
}

/** a row of the job log; fireTime is null on a manual run */
interface JobLog extends Row {
  fireTime: number | null;
  isSuccess: boolean;
}

/** the answer of 执行 */
interface ExecAnswer {
  success: boolean;
  message: string;
}

/** Calls of the test job functions, per app instance tag in params. */
const calls: string[] = [];
registerJobFunction('testJobs', 'record', ({ params }) => {
  calls.push(params);
  return `记录 ${params}`;
});
registerJobFunction('testJobs', 'fail', () => {
  throw new Error('故意失败');
});
/** A run that takes 2.5 s, so the next firings come while it is still going. */
let slowRuns = 0;
registerJobFunction('testJobs', 'slow', async () => {
  slowRuns++;
  await elapse(2500); // simulated work, long enough for the next firings to come while it runs
});

describe('cron expressions', () => {
  it('accepts 5, 6 and 7 fields, ? and Quartz start/step', () => {
    expect(checkCron('*/5 * * * *').ok).toBe(true);
    expect(checkCron('0 0 3 * * ?').ok).toBe(true);
    expect(checkCron('0 0 12 ? * MON-FRI *').ok).toBe(true);
    expect(normalizeCron('0/10 * * * * ?')).toBe('0-59/10 * * * * ?');
    expect(normalizeCron('5/15 * * * *')).toBe('5-59/15 * * * *');
    const every10 = checkCron('0/10 * * * * ?', new Date(2030, 0, 1, 0, 0, 3));
    expect(every10.ok && every10.next.getSeconds()).toBe(10);
  });

  it('refuses a bad or never-firing expression, naming it', () => {
    expect(checkCron('bad cron')).toEqual({ ok: false, message: 'Cron表达式不正确：bad cron' });
    expect(checkCron('61 * * * * *')).toEqual({ ok: false, message: 'Cron表达式不正确：61 * * * * *' });
    expect(checkCron('0 0 3 31 2 ?')).toEqual({ ok: false, message: 'Cron表达式不正确：0 0 3 31 2 ?（不会再触发）' });
    expect(checkCron('')).toEqual({ ok: false, message: 'Cron表达式不能为空' });
  });
});

describe('job settings', () => {
  it('JOBS_ENABLED and JOBS_POLL_SECONDS are read and checked', () => {
    expect(loadConfig({})).toMatchObject({ jobsEnabled: true, jobsPollSeconds: 10 });
    expect(loadConfig({ JOBS_ENABLED: 'false', JOBS_POLL_SECONDS: '30' })).toMatchObject({ jobsEnabled: false, jobsPollSeconds: 30 });
    expect(() => loadConfig({ JOBS_POLL_SECONDS: '0' })).toThrow(/JOBS_POLL_SECONDS/);
    expect(() => loadConfig({ JOBS_ENABLED: 'sometimes' })).toThrow(/JOBS_ENABLED/);
  });
});

describe.each(testApps())('an instance with JOBS_ENABLED=false on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ jobsEnabled: false });
  });
  afterAll(async () => t?.close());

  it('schedules nothing, still seeds the rows and runs a job on 执行', async () => {
    expect(schedulerOf(t.app)).toBeUndefined();
    const admin = bearer(await loginAs(t.app, 'admin', ADMIN_PASSWORD));
    const rows = (await t.app.inject({ method: 'GET', url: '/api/dj?page=0&size=50', headers: admin })).json<Page<Job>>().content;
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const res = await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${rows[0].id}`, headers: admin });
    expect(res.json<ExecAnswer>().success).toBe(true);
  });
});

describe.each(testApps())('scheduled jobs on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;

  const job = (over: Record<string, unknown> = {}) => ({
    money: '测试任务',
    project: 'testJobs',
    methodName: 'record',
    params: 'x',
    cronExpression: '0 0 3 * * ?',
    remark: '测试',
    ...over,
  });
  const create = async (body: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/dj', headers: admin, payload: body });
  const logs = async (jobId: number) => {
    const res = await app.inject({ method: 'GET', url: `/api/jobs/logs?jobId=${jobId}&page=0&size=50`, headers: admin });
    expect(res.statusCode).toBe(200);
    return res.json<Page<JobLog>>();
  };

  beforeAll(async () => {
    t = await start({ jobsPollSeconds: 1 });
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
  });
  afterAll(async () => t?.close());

  it('seeds the maintenance jobs once, as rows of api/dj', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/dj?page=0&size=50&sort=id,asc', headers: admin });
    const rows = res.json<Page<Job>>().content;
    const keys = rows.map((r) => `${r.project}.${r.methodName}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'authMaintenance.purgeExpiredCaptchas',
        'authMaintenance.purgeExpiredSessions',
        'authMaintenance.passwordAgeReminders',
        'jobMaintenance.purgeJobLogs',
        'codeMaintenance.purgeExpiredCodes',
        'logMaintenance.deleteOldLogs',
        'downloadMaintenance.deleteExpiredDownloads',
      ]),
    );
    expect(rows.every((r) => r.isPause === false)).toBe(true);
    // deleted by an administrator, it stays deleted after a restart
    const sessions = rows.find((r) => r.methodName === 'purgeExpiredSessions')!;
    expect((await app.inject({ method: 'DELETE', url: '/api/dj', headers: admin, payload: [sessions.id] })).statusCode).toBe(200);
    const again = await t.reopen();
    const after = await again.inject({ method: 'GET', url: '/api/dj?page=0&size=50', headers: admin });
    expect(after.json<Page<Job>>().content.some((r) => r.methodName === 'purgeExpiredSessions')).toBe(false);
    expect(after.json<Page>().totalElements).toBe(rows.length - 1);
    await again.close();
  });

  it('requires task name, bean, method and cron with the Chinese messages', async () => {
    for (const [field, message] of [
      ['money', '任务名称不能为空'],
      ['project', 'Bean名称不能为空'],
      ['methodName', '执行方法不能为空'],
      ['cronExpression', 'Cron表达式不能为空'],
    ]) {
      const body = job();
      delete (body as Record<string, unknown>)[field];
      const res = await create(body);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(message);
    }
  });

  it('refuses a bad cron expression (400 naming it) and an unregistered bean or method', async () => {
    let res = await create(job({ cronExpression: '0 0 25 * * ?' }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Cron表达式不正确：0 0 25 * * ?');
    res = await create(job({ project: 'childProcess', methodName: 'exec' }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toContain('未注册的任务：childProcess.exec');
    res = await create(job({ methodName: 'nothingHere' }));
    expect(res.statusCode).toBe(400);
    res = await create(job({ project: 'jobMaintenance', methodName: 'purgeJobLogs', params: '三十天' }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('参数应为日志保留天数（1到3650的整数），收到：三十天');
    expect((await create(job({ money: '日志保留', project: 'jobMaintenance', methodName: 'purgeJobLogs', params: '90' }))).statusCode).toBe(
      201,
    );
    await app.database.db.deleteFrom('sys_job').where('money', '=', '日志保留').execute();
    res = await create(job({ project: 'a.b' }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Bean名称只能包含字母、数字和下划线');
    const count = await app.database.db
      .selectFrom('sys_job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('money', '=', '测试任务')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('an update is checked against the stored row with the changes on top', async () => {
    const created = await create(job());
    expect(created.statusCode).toBe(201);
    const id = created.json<Created>().id;
    let res = await app.inject({ method: 'PUT', url: '/api/dj', headers: admin, payload: { ...job(), id, cronExpression: 'nope' } });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Cron表达式不正确：nope');
    res = await app.inject({ method: 'PUT', url: '/api/dj', headers: admin, payload: { ...job(), id, methodName: 'unknownMethod' } });
    expect(res.statusCode).toBe(400);
    res = await app.inject({ method: 'PUT', url: '/api/dj', headers: admin, payload: { ...job(), id, cronExpression: '0 30 4 * * ?' } });
    expect(res.statusCode).toBe(204);
    res = await app.inject({
      method: 'PUT',
      url: '/api/dj',
      headers: admin,
      payload: { ...job(), id: 999999, cronExpression: '0 30 4 * * ?' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('runs now (执行成功), logs start, duration and outcome, and logs a failure with its error', async () => {
    const id = (await create(job({ params: 'now' }))).json<Created>().id;
    const before = calls.length;
    let res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${id}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: '记录 now' });
    expect(calls.slice(before)).toEqual(['now']);
    let page = await logs(id);
    expect(page.totalElements).toBe(1);
    expect(page.content[0]).toMatchObject({
      jobId: id,
      trigger: 'manual',
      isSuccess: true,
      result: '记录 now',
      fireTime: null,
      beanName: 'testJobs',
      methodName: 'record',
    });
    expect(page.content[0].startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(typeof page.content[0].time).toBe('number');

    const failing = (await create(job({ methodName: 'fail' }))).json<Created>().id;
    res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${failing}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: false, message: '执行失败：故意失败' });
    page = await logs(failing);
    expect(page.content[0]).toMatchObject({ isSuccess: false, result: '故意失败' });
    expect(page.content[0].exceptionDetail).toContain('故意失败');

    // the answer of a function without a result text is the spec's notice
    registerJobFunction('testJobs', 'silent', () => undefined);
    const silent = (await create(job({ methodName: 'silent' }))).json<Created>().id;
    res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${silent}`, headers: admin });
    expect(res.json()).toMatchObject({ success: true, message: '执行成功' });

    for (const url of ['/api/jobs/exec/0', '/api/jobs/exec/abc', '/api/jobs/exec/1e3']) {
      res = await app.inject({ method: 'PUT', url, headers: admin });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('任务ID必须是正整数');
    }
    res = await app.inject({ method: 'PUT', url: '/api/jobs/exec/987654', headers: admin });
    expect(res.statusCode).toBe(404);
    res = await app.inject({ method: 'GET', url: '/api/jobs/logs?jobId=x', headers: admin });
    expect(res.statusCode).toBe(400);
    res = await app.inject({ method: 'GET', url: '/api/jobs/logs?size=5000', headers: admin });
    expect(res.statusCode).toBe(400);
  });

  it('pause and resume toggle isPause and the timer; timing keys are enforced', async () => {
    const id = (await create(job())).json<Created>().id;
    const scheduler = schedulerOf(app)!;
    expect(scheduler.scheduledIds()).toContain(id);
    let res = await app.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, isPause: true });
    expect(scheduler.scheduledIds()).not.toContain(id);
    const listed = await app.inject({ method: 'GET', url: `/api/dj?isPause=true&page=0&size=50`, headers: admin });
    expect(listed.json<Page<Job>>().content.map((r) => r.id)).toContain(id);
    res = await app.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: admin });
    expect(res.json()).toEqual({ id, isPause: false });
    expect(scheduler.scheduledIds()).toContain(id);

    await createStaff(app, { username: 'viewer', password: 'Viewer@2024', permissions: ['timing:list'] });
    const viewer = bearer(await loginAs(app, 'viewer', 'Viewer@2024'));
    expect((await app.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: viewer })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: `/api/jobs/exec/${id}`, headers: viewer })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/dj', headers: viewer, payload: job() })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: `/api/jobs/exec/${id}` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: `/api/jobs/logs?jobId=${id}`, headers: viewer })).statusCode).toBe(200);
  });

  it('fires on schedule, logging the firing time; a paused job does not fire; deleting stops it', async () => {
    const tag = `tick-${Date.now()}`;
    const id = (await create(job({ params: tag, cronExpression: '* * * * * *' }))).json<Created>().id;
    await expect
      .poll(async () => (await logs(id)).content.filter((r) => r.isSuccess === true).length, { timeout: 8000, interval: 250 })
      .toBeGreaterThanOrEqual(2);
    const page = await logs(id);
    for (const row of page.content) {
      expect(row.trigger).toBe('schedule');
      expect(row.fireTime! % 1000).toBe(0);
      expect(row.isSuccess).toBe(true);
    }
    await app.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: admin });
    // a job firing every second that keeps firing never stays quiet for 1.5 s (steady then times out)
    await steady(() => calls.filter((c) => c === tag).length, 'the calls of the paused job', { quietMs: 1500 });
    await app.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: admin });
    await app.inject({ method: 'DELETE', url: '/api/dj', headers: admin, payload: [id] });
    expect(schedulerOf(app)!.scheduledIds()).not.toContain(id);
  });

  it('a firing while the previous run is still going is skipped, not piled up', async () => {
    const scheduler = schedulerOf(app)!;
    const skippedBefore = scheduler.stats.skippedBusy;
    slowRuns = 0;
    const id = (await create(job({ methodName: 'slow', cronExpression: '* * * * * *' }))).json<Created>().id;
    // a firing comes while the first run (2.5 s) is still going and is skipped; then the job is paused
    await until(() => scheduler.stats.skippedBusy > skippedBefore, 'a firing skipped while the run is busy');
    await app.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: admin });
    expect(slowRuns).toBe(1);
    // the one run finishes about 2.5 s after it started
    await expect.poll(async () => (await logs(id)).content[0]?.isSuccess, { timeout: 5000, interval: 200 }).toBe(true);
    const page = await logs(id);
    expect(page.totalElements).toBe(1);
    expect(page.content[0]).toMatchObject({ isSuccess: true, trigger: 'schedule' });
    expect(page.content[0].time).toBeGreaterThanOrEqual(2400);
  });

  it('maintenance jobs purge expired captchas and sessions', async () => {
    const { db } = app.database;
    await db
      .insertInto('sys_captcha')
      .values([
        { uuid: 'old-1', answer: '1', expires: Date.now() - 1000 },
        { uuid: 'new-1', answer: '2', expires: Date.now() + 60_000 },
      ])
      .execute();
    await db
      .insertInto('sys_session')
      .values({ id: 'f'.repeat(64), user_id: 1, kind: 'staff', remember: 0, expires: Date.now() - 1000, created: nowText() })
      .execute();
    const rows = (await app.inject({ method: 'GET', url: '/api/dj?page=0&size=50', headers: admin })).json<Page<Job>>().content;
    const captchas = rows.find((r) => r.methodName === 'purgeExpiredCaptchas')!;
    let res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${captchas.id}`, headers: admin });
    expect(res.json()).toMatchObject({ success: true, message: '删除过期验证码 1 条' });
    expect(
      (await db.selectFrom('sys_captcha').select('uuid').where('uuid', 'in', ['old-1', 'new-1']).execute()).map((r): unknown => r.uuid),
    ).toEqual(['new-1']);
    // the sessions job was deleted above; an administrator can add it back by its registered name
    res = await create(job({ money: '清理过期会话', project: 'authMaintenance', methodName: 'purgeExpiredSessions', params: '' }));
    expect(res.statusCode).toBe(201);
    const sessionsJob = res.json<Created>().id;
    res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${sessionsJob}`, headers: admin });
    expect(res.json<ExecAnswer>().success).toBe(true);
    expect(await db.selectFrom('sys_session').select('id').where('id', '=', 'f'.repeat(64)).executeTakeFirst()).toBeUndefined();
    // the signed-in admin's own session is still valid
    expect((await app.inject({ method: 'GET', url: '/api/jobs/functions', headers: admin })).statusCode).toBe(200);
  });

  it('maintenance jobs purge expired codes, old operation logs and expired export files', async () => {
    const { db } = app.database;
    const now = Date.now();
    const day = 86_400_000;
    await db
      .insertInto('sys_verify_code')
      .values([
        {
          target: '13900000001',
          purpose: 'test',
          code_hash: 'a'.repeat(64),
          sent_at: now - day,
          expires: now - day + 300_000,
          attempts: 0,
          used: 0,
        },
        { target: '13900000002', purpose: 'test', code_hash: 'b'.repeat(64), sent_at: now, expires: now + 300_000, attempts: 0, used: 0 },
      ])
      .execute();
    await db
      .insertInto('sys_log')
      .values([
        { username: 'admin', description: '旧日志', time: 1, log_type: 'INFO', create_time: nowText(new Date(now - 400 * day)) },
        { username: 'admin', description: '新日志', time: 1, log_type: 'INFO', create_time: nowText(new Date(now - day)) },
      ])
      .execute();
    await db
      .insertInto('sys_download_file')
      .values([
        { id: 'expired-file', user_id: 1, file_name: 'a.xlsx', mime: 'x', size: 0, complete: 1, expires: now - 1000 },
        { id: 'fresh-file', user_id: 1, file_name: 'b.xlsx', mime: 'x', size: 0, complete: 1, expires: now + 600_000 },
      ])
      .execute();
    const rows = (await app.inject({ method: 'GET', url: '/api/dj?page=0&size=50', headers: admin })).json<Page<Job>>().content;
    const run = async (method: string) => {
      const res = await app.inject({
        method: 'PUT',
        url: `/api/jobs/exec/${rows.find((r) => r.methodName === method)!.id}`,
        headers: admin,
      });
      expect(res.json<ExecAnswer>().success, res.body).toBe(true);
      return res.json<ExecAnswer>().message;
    };
    expect(await run('purgeExpiredCodes')).toBe('删除过期的短信和邮箱验证码 1 条');
    expect(
      (await db.selectFrom('sys_verify_code').select('target').where('purpose', '=', 'test').execute()).map((r): unknown => r.target),
    ).toEqual(['13900000002']);
    expect(await run('deleteOldLogs')).toMatch(/^删除180天前的操作日志 1 条$/);
    expect(
      (await db.selectFrom('sys_log').select('description').where('description', 'in', ['旧日志', '新日志']).execute()).map(
        (r): unknown => r.description,
      ),
    ).toEqual(['新日志']);
    expect(await run('deleteExpiredDownloads')).toBe('删除过期的导出文件 1 个');
    expect(
      (await db.selectFrom('sys_download_file').select('id').where('id', 'in', ['expired-file', 'fresh-file']).execute()).map(
        (r): unknown => r.id,
      ),
    ).toEqual(['fresh-file']);
  });

  it('password-age reminders: users at 80-89 days get one reminder, shown to them until read', async () => {
    const { db } = app.database;
    const daysAgo = (d: number) => nowText(new Date(Date.now() - d * 86_400_000 - 60_000));
    const aging = await createStaff(app, { username: 'aging', password: 'Aging@2024', permissions: [] });
    const fresh = await createStaff(app, { username: 'fresh', password: 'Fresh@2024', permissions: [] });
    const token = bearer(await loginAs(app, 'aging', 'Aging@2024'));
    await db
      .updateTable('sys_user')
      .set({ pwd_reset_time: daysAgo(85) })
      .where('id', '=', aging)
      .execute();
    await db
      .updateTable('sys_user')
      .set({ pwd_reset_time: daysAgo(95) })
      .where('id', '=', fresh)
      .execute();
    const rows = (await app.inject({ method: 'GET', url: '/api/dj?page=0&size=50', headers: admin })).json<Page<Job>>().content;
    const reminders = rows.find((r) => r.methodName === 'passwordAgeReminders')!;
    let res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${reminders.id}`, headers: admin });
    expect(res.json()).toMatchObject({ success: true, message: '新增密码到期提醒 1 条' });
    res = await app.inject({ method: 'PUT', url: `/api/jobs/exec/${reminders.id}`, headers: admin });
    expect(res.json<ExecAnswer>().message).toBe('新增密码到期提醒 0 条');
    res = await app.inject({ method: 'GET', url: '/api/jobs/passwordReminder', headers: token });
    expect(res.json<{ reminder: { days: number; message: string } | null }>().reminder).toMatchObject({ days: 85 });
    expect(res.json<{ reminder: { days: number; message: string } | null }>().reminder?.message).toContain('您的密码已使用85天');
    res = await app.inject({ method: 'PUT', url: '/api/jobs/passwordReminder/read', headers: token });
    expect(res.statusCode).toBe(204);
    res = await app.inject({ method: 'GET', url: '/api/jobs/passwordReminder', headers: token });
    expect(res.json<{ reminder: { days: number; message: string } | null }>().reminder).toBeNull();
  });

  it('two instances on one database: each firing runs exactly once; changes reach the other instance', async () => {
    const second = await t.reopen();
    try {
      const tag = `pair-${Date.now()}`;
      const id = (await create(job({ params: tag, cronExpression: '* * * * * *' }))).json<Created>().id;
      const b = schedulerOf(second)!;
      const a = schedulerOf(app)!;
      const lostBefore = a.stats.claimedElsewhere + b.stats.claimedElsewhere;
      // the second instance sees the new row at its next poll (1 s in this test)
      await expect.poll(() => b.scheduledIds().includes(id), { timeout: 5000, interval: 100 }).toBe(true);
      // then both compete for every firing; each loser skips it
      await expect
        .poll(() => a.stats.claimedElsewhere + b.stats.claimedElsewhere, { timeout: 8000, interval: 200 })
        .toBeGreaterThan(lostBefore + 1);
      // a pause through one instance stops the other at its next firing check
      await app.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: admin });
      // a job still firing every second on either instance never stays quiet for 1.6 s (steady then times out)
      await steady(() => calls.filter((c) => c === tag).length, 'the calls of the paused job on both instances', { quietMs: 1600 });
      expect(b.scheduledIds()).not.toContain(id);
      // every firing ran once: one log row per firing time, one call per row
      const page = await logs(id);
      const fires = page.content.map((r) => r.fireTime);
      expect(fires.length).toBeGreaterThanOrEqual(2);
      expect(new Set(fires).size).toBe(fires.length);
      expect(calls.filter((c) => c === tag).length).toBe(fires.length);
      expect(page.content.every((r) => r.isSuccess === true)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('an instance that stops (SIGTERM closes the app) finishes its run in progress and holds nothing back: another instance takes the following firings', async () => {
    const first = schedulerOf(app)!;
    await first.stop(); // two other instances compete, so the one that stops can be chosen
    const b = await t.reopen();
    const c = await t.reopen();
    try {
      const id = (await create(job({ methodName: 'slow', cronExpression: '*/3 * * * * ?' }))).json<Created>().id;
      const [sb, sc] = [schedulerOf(b)!, schedulerOf(c)!];
      await expect
        .poll(() => sb.scheduledIds().includes(id) && sc.scheduledIds().includes(id), { timeout: 5000, interval: 100 })
        .toBe(true);
      await expect.poll(() => sb.busy + sc.busy, { timeout: 8000, interval: 50 }).toBe(1);
      const [stopping, staying] = sb.busy ? [b, c] : [c, b];
      const started = Date.now();
      await stopping.close();
      // the close waited for the run, whose log row has its outcome
      expect(Date.now() - started).toBeGreaterThan(500);
      const rows = async () =>
        (
          await staying.database.db
            .selectFrom('sys_job_log')
            .select(['fire_time', 'time', 'is_success'])
            .where('job_id', '=', id)
            .orderBy('fire_time')
            .execute()
        ).map((r) => ({
          fire: Number(r.fire_time),
          time: r.time === null ? null : Number(r.time),
          ok: Boolean(r.is_success),
        }));
      const run = (await rows())[0];
      expect(run.time).toBeGreaterThanOrEqual(2400);
      expect(run.ok).toBe(true);
      // the next firing is run by the instance that stays
      await expect
        .poll(async () => (await rows()).filter((r) => r.fire > started && r.time !== null).length, { timeout: 9000, interval: 250 })
        .toBeGreaterThanOrEqual(1);
      await staying.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: admin });
    } finally {
      await b.close();
      await c.close();
      await first.start();
    }
  }, 30_000);
});
