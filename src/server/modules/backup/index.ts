/**
 * 备份管理: backups of the database and the uploaded files, and restoring one.
 *   GET    /api/backups                      the backups in BACKUP_DIR, newest first, with the
 *                                            running task and the last scheduled run (backup:list)
 *   GET    /api/backups/task                 the running (or last) backup/restore of this instance (backup:list)
 *   POST   /api/backups                      back up now (backup:add)
 *   GET    /api/backups/{name}/download      the archive (backup:download)
 *   DELETE /api/backups/{name}               (backup:del)
 *   POST   /api/backups/{name}/restore       restore a listed backup (backup:restore), body {password}
 *   POST   /api/backups/restore              restore an uploaded archive, multipart fields `password`
 *                                            then `file` (backup:restore)
 * A restore replaces every record, so the key alone is not enough: the caller needs the admin
 * role's level and gives their own password again (step-up, RSA-encrypted as at sign-in); every
 * attempt is in the operation log (the password left out).
 * A backup or restore answers when done (200 with the result); one still running near the
 * request deadline answers 202 with the task, which GET /api/backups/task then follows.
 * The scheduled job backupMaintenance.scheduledBackup writes one and keeps the newest BACKUP_KEEP.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import { checkPassword } from '../../auth/passwords.ts';
import { loadOrCreateKeys } from '../../auth/rsa.ts';
import { assertLevel, MIN_LEVEL } from '../access/levels.ts';
import { plainPassword } from '../account/password-policy.ts';
import { DEMO_KEY_NOTICE, keyState, NO_KEY } from './keys.ts';
import { nowText } from '../../db/index.ts';
import { invalidateAccess } from '../../auth/access.ts';
import { tableChanged } from '../../crud/index.ts';
import type { Database } from '../../types.ts';
import { registerJobFunction } from '../jobs/registry.ts';
import { JOB_LOG_TABLE } from '../jobs/tables.ts';
import { exclusively, writeBackup } from './create.ts';
import { notifyAdmins } from '../messages/admin-notice.ts';
import { restoreBackup, type RestoreResult } from './restore.ts';
import { copyToS3 } from './s3-copy.ts';
import { deleteBackup, isBackupName, keepNewest, listBackups, type BackupInfo } from './store.ts';
import { announce, BACKUP_FAILED_TITLE, failedMessage, RESTORED_TITLE, restoredMessage } from './notices.ts';

export const BACKUP_PERMISSIONS = {
  list: 'backup:list',
  add: 'backup:add',
  del: 'backup:del',
  download: 'backup:download',
  restore: 'backup:restore',
} as const;

export const NO_SUCH_BACKUP = '备份不存在或已被删除';
const NO_FILE = '请选择要恢复的备份文件（.tar.gz.enc）';
export const STEP_UP_PROMPT = '恢复备份需要再次输入当前登录账号的密码';
export const STEP_UP_WRONG = '密码错误，未恢复';
/** largest uploaded backup */
const UPLOAD_MAX_BYTES = 20 * 1024 * 1024 * 1024;

export interface TaskState {
  kind: 'backup' | 'restore';
  stage: string;
  startedAt: string;
  finishedAt?: string;
  ok?: boolean;
  message?: string;
}

interface BackupArea {
  task: TaskState | null;
}

const areas = new WeakMap<Database, { app: FastifyInstance; state: BackupArea }>();

/** The app of a database (the job function gets only the database). */
const appOf = (database: Database) => areas.get(database)?.app;

/** Forgets what this instance keeps in memory about table contents (counts, permissions). */
function forgetCaches(app: FastifyInstance, tables: string[]): void {
  invalidateAccess();
  for (const t of tables) tableChanged(app.database, t);
}

/**
 * Work other areas do around a restore: `before` reads what must outlive the replaced database
 * (the erasure ledger of personal information requests), `after` applies it to the restored one.
 */
export interface RestoreHook {
  name: string;
  before(database: Database): Promise<unknown>;
  after(app: FastifyInstance, carried: unknown): Promise<void>;
}
const restoreHooks: RestoreHook[] = [];
export function addRestoreHook(hook: RestoreHook): void {
  if (!restoreHooks.some((h) => h.name === hook.name)) restoreHooks.push(hook);
}

/** After a restore: caches forgotten, everyone told. */
async function afterRestore(app: FastifyInstance, name: string, result: RestoreResult): Promise<void> {
  forgetCaches(app, Object.keys(result.manifest.tables));
  await announce(app, app.database, RESTORED_TITLE, restoredMessage(result.manifest.createdAt, name, result.before.name)).catch(
    (err: unknown) => app.log.warn({ err }, 'restore notice not sent'),
  );
}

/**
 * Backs up for the schedule, keeps the newest `keep`, and sends the second copy to S3 when one
 * is configured; answers the job log's text. A copy that fails fails the run (the local backup
 * stays and old ones are still removed), so that the administrators are told.
 */
async function scheduledBackup(database: Database, config: FastifyInstance['config'], keep: number): Promise<string> {
  const made = await exclusively('backup', () => writeBackup(database, config, { reason: 'schedule' }));
  const removed = await keepNewest(config.backupDir, keep);
  const done = `备份完成：${made.name}（${made.size} 字节），删除较早的备份 ${removed.length} 个，保留最近 ${keep} 个`;
  if (!config.backupS3) return done;
  try {
    return `${done}；已另存一份到对象存储 ${await copyToS3(config.backupS3, join(config.backupDir, made.name), made.name)}`;
  } catch (err) {
    throw new Error(`${done}；但另存到对象存储失败：${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

export function checkKeepParam(params: string): string | null {
  if (params === '') return null;
  return /^\d{1,4}$/.test(params) && Number(params) >= 1 && Number(params) <= 1000
    ? null
    : `参数应为保留的备份份数（1到1000的整数），收到：${params}`;
}

function registerBackupJob(): void {
  registerJobFunction(
    'backupMaintenance',
    'scheduledBackup',
    async ({ database, config, params, now }) => {
      const problem = checkKeepParam(params.trim());
      if (problem) throw new Error(problem);
      const keep = params.trim() === '' ? config.backupKeep : Number(params.trim());
      try {
        return await scheduledBackup(database, config, keep);
      } catch (err) {
        const app = appOf(database);
        app?.metrics.backupFailed();
        // to the administrators (the admin and holders of sysSocket:list), not to every user
        if (app) await notifyAdmins(app, BACKUP_FAILED_TITLE, failedMessage(nowText(now)));
        else
          await announce(app, database, BACKUP_FAILED_TITLE, failedMessage(nowText(now)), '/system/backup').catch((e: unknown) =>
            console.warn('backup failure notice not sent', e),
          );
        throw err;
      }
    },
    {
      name: '定时备份',
      cron: '0 0 2 * * ?',
      remark: '每天2点把数据库和上传的文件备份到 BACKUP_DIR，保留最近 BACKUP_KEEP 份（参数可填保留份数）；失败时通知管理员',
    },
    { checkParams: checkKeepParam },
  );
}

/** The last run of the scheduled backup, from the job log. */
export async function lastScheduled(database: Database): Promise<{ time: string; success: boolean; message: string } | null> {
  const row = await database.db
    .selectFrom(JOB_LOG_TABLE)
    .select(['start_time', 'is_success', 'result'])
    .where('bean_name', '=', 'backupMaintenance')
    .where('method_name', '=', 'scheduledBackup')
    .where('is_success', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .$castTo<{ start_time: string; is_success: unknown; result: string | null }>()
    .executeTakeFirst();
  if (!row) return null;
  const success = row.is_success === true || row.is_success === 1 || row.is_success === '1';
  return { time: String(row.start_time), success, message: row.result ?? '' };
}

function dispositionHeader(name: string): string {
  return `attachment; filename="${name}"`;
}

export function registerBackups(app: FastifyInstance): void {
  const { config } = app;
  const state: BackupArea = { task: null };
  areas.set(app.database, { app, state });
  registerBackupJob();
  if (keyState(config) === 'missing') app.log.error('BACKUP_ENCRYPTION_KEY is not set: no backup (scheduled or other) will be written');

  /** The step-up of a restore: the admin role's level and the caller's own password again. */
  async function stepUp(request: FastifyRequest, password: unknown): Promise<void> {
    const user = request.user!;
    assertLevel(user, MIN_LEVEL);
    const plain = plainPassword(await loadOrCreateKeys(app.database.db), password, STEP_UP_PROMPT);
    const row = await app.database.db.selectFrom('sys_user').select('password').where('id', '=', user.id).executeTakeFirst();
    if (!row || !(await checkPassword(plain, row.password as string))) {
      request.log.warn({ user: user.id }, 'restore refused: wrong password');
      throw badRequest(STEP_UP_WRONG);
    }
  }

  /**
   * Runs a backup or restore as this instance's one task, answering when it is done or, near the
   * request deadline, 202 with the task (it goes on; GET /api/backups/task follows it).
   */
  async function runTask<T>(
    reply: FastifyReply,
    kind: TaskState['kind'],
    work: (stage: (s: string) => void) => Promise<T>,
    done: (r: T) => string,
  ) {
    const task: TaskState = { kind, stage: kind === 'backup' ? '正在备份' : '正在校验备份文件', startedAt: nowText() };
    const running = exclusively(kind, async () => {
      state.task = task;
      try {
        const r = await work((s) => (task.stage = s));
        Object.assign(task, { ok: true, message: done(r), stage: '已完成', finishedAt: nowText() });
        return r;
      } catch (err) {
        if (kind === 'backup') app.metrics?.backupFailed();
        Object.assign(task, {
          ok: false,
          message: err instanceof ApiError ? err.message : '失败，详见服务器日志',
          stage: '失败',
          finishedAt: nowText(),
        });
        throw err;
      }
    });
    // answered before the request deadline's own 503
    const waitMs = Math.max(config.requestTimeoutMs - 5000, config.requestTimeoutMs * 0.75);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), waitMs)));
    try {
      const first = await Promise.race([running, late]);
      if (first === 'late') {
        running.catch((err: unknown) => app.log.error({ err }, `${kind} failed`));
        return reply.code(202).send({ running: true, task });
      }
      return first;
    } finally {
      clearTimeout(timer);
    }
  }

  app.get('/api/backups', { preHandler: app.requirePermission(BACKUP_PERMISSIONS.list) }, async () => {
    const content = await listBackups(config.backupDir);
    return {
      content,
      totalElements: content.length,
      dir: config.backupDir,
      keep: config.backupKeep,
      task: state.task,
      lastScheduled: await lastScheduled(app.database),
      encryption: {
        state: keyState(config),
        message: { configured: null, demo: DEMO_KEY_NOTICE, missing: NO_KEY }[keyState(config)],
      },
    };
  });

  app.get('/api/backups/task', { preHandler: app.requirePermission(BACKUP_PERMISSIONS.list) }, () => ({ task: state.task }));

  app.post('/api/backups', { preHandler: app.requirePermission(BACKUP_PERMISSIONS.add) }, async (request, reply) => {
    request.log.info('backup requested');
    return runTask<BackupInfo>(
      reply,
      'backup',
      () => writeBackup(app.database, config, { reason: 'manual' }),
      (b) => `备份完成：${b.name}`,
    );
  });

  const named = (request: FastifyRequest) => {
    const name = (request.params as { name?: string }).name ?? '';
    if (!isBackupName(name)) throw badRequest('备份文件名不正确');
    return name;
  };

  app.get('/api/backups/:name/download', { preHandler: app.requirePermission(BACKUP_PERMISSIONS.download) }, async (request, reply) => {
    const name = named(request);
    const file = join(config.backupDir, name);
    const s = await stat(file).catch(() => null);
    if (!s?.isFile()) throw notFound(NO_SUCH_BACKUP);
    return reply
      .header('content-type', name.endsWith('.enc') ? 'application/octet-stream' : 'application/gzip')
      .header('content-length', s.size)
      .header('content-disposition', dispositionHeader(name))
      .send(createReadStream(file));
  });

  app.delete('/api/backups/:name', { preHandler: app.requirePermission(BACKUP_PERMISSIONS.del) }, async (request) => {
    const name = named(request);
    if (!(await deleteBackup(config.backupDir, name))) throw notFound(NO_SUCH_BACKUP);
    request.log.info({ backup: name }, 'backup deleted');
    return { deleted: name };
  });

  const restoreFrom = (reply: FastifyReply, file: string, label: string, cleanup: () => Promise<void>) =>
    runTask<RestoreResult>(
      reply,
      'restore',
      async (stage) => {
        try {
          stage('正在校验备份文件并构建新数据库');
          const carried = await Promise.all(restoreHooks.map((h) => h.before(app.database)));
          const result = await restoreBackup(app.database, config, file, stage);
          for (const [i, hook] of restoreHooks.entries()) await hook.after(app, carried[i]);
          await afterRestore(app, label, result);
          return result;
        } finally {
          await cleanup();
        }
      },
      (r) => `已恢复到 ${r.manifest.createdAt} 的备份，恢复前的数据已另存为 ${r.before.name}`,
    ).then((r) =>
      r && typeof r === 'object' && 'manifest' in r
        ? {
            restored: label,
            createdAt: r.manifest.createdAt,
            rows: r.rows,
            tables: Object.keys(r.manifest.tables).length,
            before: r.before,
          }
        : r,
    );

  app.post('/api/backups/:name/restore', { preHandler: app.requirePermission(BACKUP_PERMISSIONS.restore) }, async (request, reply) => {
    const name = named(request);
    const file = join(config.backupDir, name);
    if (!(await stat(file).catch(() => null))?.isFile()) throw notFound(NO_SUCH_BACKUP);
    await stepUp(request, (request.body as { password?: unknown } | undefined)?.password);
    request.log.warn({ backup: name, user: request.user!.id }, 'restore requested');
    return restoreFrom(reply, file, name, () => Promise.resolve());
  });

  app.post('/api/backups/restore', { preHandler: app.requirePermission(BACKUP_PERMISSIONS.restore) }, async (request, reply) => {
    if (!request.isMultipart()) throw badRequest(NO_FILE);
    // the level is checked before anything of the upload is read
    assertLevel(request.user!, MIN_LEVEL);
    await mkdir(config.backupDir, { recursive: true });
    const work = await mkdtemp(join(config.backupDir, '.upload-'));
    const cleanup = () => rm(work, { recursive: true, force: true });
    const file = join(work, 'upload.bin');
    let label: string;
    try {
      let part: MultipartFile | undefined;
      try {
        part = await request.file({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest('备份文件过大');
        throw err;
      }
      if (!part) throw badRequest(NO_FILE);
      // the password comes before the file (a form field sent after it is not seen): checked before the file is stored
      const field = part.fields.password as { value?: unknown } | undefined;
      await stepUp(request, field && 'value' in field ? field.value : undefined).catch((err: unknown) => {
        part.file.resume();
        throw err;
      });
      label = (part.filename ?? 'upload').split(/[\\/]/).pop()!.slice(-120) || 'upload';
      await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
      if (part.file.truncated) throw badRequest('备份文件过大');
      if ((await stat(file)).size === 0) throw badRequest('上传的备份文件是空的');
    } catch (err) {
      await cleanup();
      throw err;
    }
    request.log.warn({ backup: label, user: request.user!.id }, 'restore of an uploaded backup requested');
    return restoreFrom(reply, file, label, cleanup);
  });
}
