/**
 * Long imports and exports run in the background. The generic download and import routes hand
 * over work above EXPORT_ASYNC_THRESHOLD / IMPORT_ASYNC_THRESHOLD rows, answer 299 at once, and
 * the requester's console sockets get EXCEL messages:
 *   {msgType:'EXCEL', code:100, msg}                 progress (at the start, then at most once a second)
 *   {msgType:'EXCEL', code:200, msg, url, fileName}  done; an export's file is at `url` (its requester only)
 *   {msgType:'EXCEL', code:500, msg}                 failed, with the reason
 * An import stays all-or-nothing: its rows are written in one transaction.
 */
import { STORAGE_FULL, isStorageFull } from '../db/storage-full.ts';
import { uniqueTitlesTaken, violatedUnique } from '../db/data-mismatch.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import type { Database, SessionUser } from '../types.ts';
import type { ListParams } from '../crud/query/query.ts';
import { insertAll } from '../crud/repository.ts';
import { timedImport } from '../metrics/transfers.ts';
import { exportFileName, exportStream, XLSX_MIME } from '../crud/sheets/spreadsheet.ts';
import { ApiError } from '../errors.ts';
import { createDownload } from './downloads.ts';
import { personalFields } from '../crud/access/field-access.ts';
import type { Hub } from './hub.ts';

export const ASYNC_STATUS = 299;
export const EXPORT_STARTED = '导出数据较多，已转入后台处理，完成后将自动下载';
export const IMPORT_STARTED = '导入数据较多，已转入后台处理，请留意导入进度';
export const TOO_MANY_TASKS = '您已有3个导入导出任务正在进行，请等待完成后再试';
const MAX_TASKS_PER_USER = 3;
const PROGRESS_EVERY_MS = 1000;

export const downloadUrl = (id: string) => `/api/downloadFile/${id}`;

export interface ExcelMessage {
  msgType: 'EXCEL';
  code: 100 | 200 | 500;
  msg: string;
  url?: string;
  fileName?: string;
}

const percent = (done: number, total: number) => (total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 100);

export class LongTasks {
  private readonly running = new Map<number, number>();
  /** settles when every task started so far has ended (tests, shutdown) */
  private tasks = new Set<Promise<void>>();

  constructor(
    private readonly database: Database,
    private readonly hub: Hub,
    private readonly opts: { downloadTtlMs: number; log: FastifyBaseLogger },
  ) {}

  /** Throws 429 when the user already runs the most tasks allowed. */
  private claim(userId: number): void {
    const n = this.running.get(userId) ?? 0;
    if (n >= MAX_TASKS_PER_USER) throw new ApiError(429, TOO_MANY_TASKS);
    this.running.set(userId, n + 1);
  }

  private release(userId: number): void {
    const n = (this.running.get(userId) ?? 1) - 1;
    if (n <= 0) this.running.delete(userId);
    else this.running.set(userId, n);
  }

  private send(userId: number, message: ExcelMessage): Promise<void> {
    return this.hub.push({ kind: 'layout', users: [userId] }, message).catch((err) => {
      this.opts.log.warn({ err }, 'EXCEL message not published');
    });
  }

  private run(userId: number, work: () => Promise<void>): void {
    this.claim(userId);
    const task = work().finally(() => {
      this.release(userId);
      this.tasks.delete(task);
    });
    this.tasks.add(task);
  }

  async idle(): Promise<void> {
    while (this.tasks.size) await Promise.allSettled([...this.tasks]);
  }

  /** Writes the export into a download file, reporting progress; answers at once. */
  startExport(user: SessionUser, spec: ResourceSpec, params: ListParams, total: number, masked = false): void {
    const fileName = exportFileName(spec);
    this.run(user.id, async () => {
      await this.send(user.id, { msgType: 'EXCEL', code: 100, msg: `${spec.title}数据开始导出，共${total}条` });
      let writer;
      try {
        writer = await createDownload(this.database, {
          userId: user.id,
          fileName,
          mime: XLSX_MIME,
          ttlMs: this.opts.downloadTtlMs,
          // a full export: fetching the file is a full read of personal data (logged)
          personalResource: !masked && personalFields(spec).length ? spec.name : null,
        });
        // what the export failed with, if it did (whatever was thrown)
        let failure: unknown;
        let failed = false;
        let lastReport = Date.now();
        const stream = exportStream(
          this.database,
          spec,
          params,
          (err) => {
            failure = err;
            failed = Boolean(err);
          },
          (written) => {
            const now = Date.now();
            if (now - lastReport < PROGRESS_EVERY_MS) return;
            lastReport = now;
            void this.send(user.id, {
              msgType: 'EXCEL',
              code: 100,
              msg: `${spec.title}数据导出中：${written}/${total}条（${percent(written, total)}%）`,
            });
          },
          masked,
        );
        for await (const piece of stream) await writer.write(piece as Buffer);
        if (failed) throw failure;
        const file = await writer.finish();
        await this.send(user.id, {
          msgType: 'EXCEL',
          code: 200,
          msg: `${spec.title}数据导出完成，共${total}条，正在下载`,
          url: downloadUrl(file.id),
          fileName,
        });
      } catch (err) {
        this.opts.log.error({ err }, 'background export failed');
        await writer?.abort().catch(() => undefined);
        await this.send(user.id, { msgType: 'EXCEL', code: 500, msg: `${spec.title}数据导出失败：${reason(err)}` });
      }
    });
  }

  /** Stores checked import rows in one transaction, reporting progress; answers at once. */
  startImport(user: SessionUser, spec: ResourceSpec, records: Record<string, unknown>[]): void {
    const total = records.length;
    this.run(user.id, async () => {
      await this.send(user.id, { msgType: 'EXCEL', code: 100, msg: `${spec.title}数据开始导入，共${total}条` });
      let lastReport = Date.now();
      try {
        const count = await timedImport(this.database, () =>
          insertAll(this.database, spec, records, { username: user.username }, (done) => {
            const now = Date.now();
            if (now - lastReport < PROGRESS_EVERY_MS) return;
            lastReport = now;
            void this.send(user.id, {
              msgType: 'EXCEL',
              code: 100,
              msg: `${spec.title}数据导入中：${done}/${total}条（${percent(done, total)}%）`,
            });
          }),
        );
        await this.send(user.id, { msgType: 'EXCEL', code: 200, msg: `${spec.title}数据导入成功，共${count}条` });
      } catch (err) {
        this.opts.log.error({ err }, 'background import failed');
        await this.send(user.id, { msgType: 'EXCEL', code: 500, msg: `${spec.title}数据导入失败：${reason(err)}，未导入任何数据` });
      }
    });
  }
}

/** A reason a user can read: our own messages as they are, anything else without internals. */
function reason(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  const code = (err as { code?: string })?.code;
  // an x-unique value stored by another write while the import ran
  const rule = violatedUnique(err);
  if (rule) return uniqueTitlesTaken(rule.titles);
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return '数据重复';
  if (code === '23502' || code === 'SQLITE_CONSTRAINT_NOTNULL') return '必填数据缺失';
  if (isStorageFull(err)) return STORAGE_FULL;
  return '服务器处理出错，请稍后重试';
}
