/**
 * The scheduler of one server instance. It keeps a timer per running job (not paused, cron
 * valid) for the job's next firing. The job rows are re-read on every write through this
 * instance and every `pollSeconds` (writes made through other instances), and a timer is
 * replaced only when its job's row changed. Each firing first re-reads its row (a pause made
 * elsewhere counts at once) and then claims the firing in the run log (see runner.ts), so with
 * several instances on one database each firing runs exactly once. A firing that comes while
 * the job's previous run on this instance is still going is skipped (runs never pile up).
 *
 * The database going away stops nothing: the timers keep running, and a firing that meets an
 * unreachable database tries again every FIRING_RETRY_MS until it can claim and run (or until
 * the job's next firing is due), so the firings of an outage run within a second or so of the
 * database coming back, still once across instances (the claim decides).
 * Stopping (SIGTERM, app close) clears the timers and waits for runs in progress (at most
 * STOP_WAIT_MS) so their log rows get their outcome. No lock is held between firings: the other
 * instances' timers take every following firing.
 */
import type { FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { plainText } from '../../../shared/text.ts';
import { nextFiring } from './cron.ts';
import { runJob, type JobRow } from './runner.ts';

export const JOB_TABLE = 'sys_job';
const MAX_TIMER_MS = 2 ** 31 - 1;
export const FIRING_RETRY_MS = 1000;
const STOP_WAIT_MS = 10_000;

interface Entry {
  signature: string;
  timer?: NodeJS.Timeout;
}

function rowToJob(row: Record<string, unknown>): JobRow {
  return {
    id: Number(row.id),
    name: plainText(row.money ?? ''),
    bean: plainText(row.project ?? ''),
    method: plainText(row.method_name ?? ''),
    params: row.params === null || row.params === undefined ? '' : plainText(row.params),
    cron: plainText(row.cron_expression ?? ''),
    paused: Boolean(row.is_pause),
  };
}

const JOB_COLUMNS = ['id', 'money', 'project', 'method_name', 'params', 'cron_expression', 'is_pause'];

export async function readJob(app: FastifyInstance, id: number): Promise<JobRow | undefined> {
  const row = await app.database.db.selectFrom(JOB_TABLE).select(JOB_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? rowToJob(row) : undefined;
}

export class JobScheduler {
  private entries = new Map<number, Entry>();
  private poller?: NodeJS.Timeout;
  private stopped = true;
  private reloading: Promise<void> = Promise.resolve();
  /** firings this instance ran, those another instance had claimed first, and those skipped
   * because the job's previous run on this instance had not finished */
  readonly stats = { ran: 0, claimedElsewhere: 0, skippedBusy: 0, retried: 0 };
  private running = new Set<number>();
  private readonly runs = new Set<Promise<void>>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly pollSeconds: number,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.reload();
    this.poller = setInterval(() => {
      this.reload().catch((err) => this.app.log.warn({ err }, 'reloading scheduled jobs failed'));
    }, this.pollSeconds * 1000);
    this.poller.unref();
  }

  /** Clears the timers, then waits for runs in progress (bounded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    for (const entry of this.entries.values()) if (entry.timer) clearTimeout(entry.timer);
    this.entries.clear();
    if (!this.runs.size) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.runs]),
      new Promise((r) => {
        timer = setTimeout(r, STOP_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Runs in progress on this instance. */
  get busy(): number {
    return this.runs.size;
  }

  /** Jobs with a timer now (for tests and the log). */
  scheduledIds(): number[] {
    return [...this.entries.entries()].filter(([, e]) => e.timer).map(([id]) => id);
  }

  /** Re-reads the job rows; reloads run one after another. */
  reload(): Promise<void> {
    const next = this.reloading.then(() => this.reloadNow());
    this.reloading = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(): Promise<void> {
    if (this.stopped) return;
    const rows = await this.app.database.db.selectFrom(JOB_TABLE).select(JOB_COLUMNS).execute();
    if (this.stopped) return;
    const seen = new Set<number>();
    for (const row of rows) {
      const job = rowToJob(row);
      seen.add(job.id);
      const signature = JSON.stringify([job.cron, job.paused, job.bean, job.method, job.params, job.name]);
      const entry = this.entries.get(job.id);
      if (entry && entry.signature === signature) continue;
      if (entry?.timer) clearTimeout(entry.timer);
      const fresh: Entry = { signature };
      this.entries.set(job.id, fresh);
      if (!job.paused) this.arm(job, fresh, new Date());
    }
    for (const [id, entry] of this.entries) {
      if (seen.has(id)) continue;
      if (entry.timer) clearTimeout(entry.timer);
      this.entries.delete(id);
    }
  }

  private arm(job: JobRow, entry: Entry, from: Date): void {
    let next: Date | null;
    try {
      next = nextFiring(job.cron, from);
    } catch {
      this.app.log.warn({ job: job.id, cron: job.cron }, 'scheduled job has an invalid cron expression');
      return;
    }
    if (!next || this.stopped) return;
    const fireTime = next.getTime();
    const delay = fireTime - Date.now();
    if (delay > MAX_TIMER_MS) {
      entry.timer = setTimeout(() => this.arm(job, entry, from), MAX_TIMER_MS);
    } else {
      entry.timer = setTimeout(() => void this.fire(job, entry, fireTime), Math.max(0, delay));
    }
    entry.timer.unref();
  }

  private async fire(job: JobRow, entry: Entry, fireTime: number): Promise<void> {
    // arm the following firing first, so a long run does not skip it
    if (this.entries.get(job.id) === entry) this.arm(job, entry, new Date(fireTime));
    if (this.running.has(job.id)) {
      this.stats.skippedBusy++;
      this.app.log.warn({ job: job.id }, 'scheduled job still running: this firing is skipped');
      return;
    }
    this.running.add(job.id);
    const run = this.runFiring(job, fireTime).finally(() => {
      this.running.delete(job.id);
      this.runs.delete(run);
    });
    this.runs.add(run);
    await run;
  }

  private async runFiring(job: JobRow, fireTime: number): Promise<void> {
    let following = Infinity;
    try {
      following = nextFiring(job.cron, new Date(fireTime))?.getTime() ?? Infinity;
    } catch {
      /* armed from a valid expression */
    }
    for (;;) {
      try {
        const current = await readJob(this.app, job.id);
        if (!current || current.paused || current.cron !== job.cron) return;
        const outcome = await runJob(this.app, current, fireTime);
        if (outcome) this.stats.ran++;
        else this.stats.claimedElsewhere++;
        return;
      } catch (err) {
        if (this.stopped) return;
        if (isDatabaseUnavailable(err) && Date.now() + FIRING_RETRY_MS < following) {
          // the database is away: try this firing again shortly (the claim keeps it to one run)
          this.stats.retried++;
          await new Promise((r) => setTimeout(r, FIRING_RETRY_MS));
          if (this.stopped) return;
          continue;
        }
        this.app.log.error({ err, job: job.id }, 'scheduled job could not run');
        return;
      }
    }
  }
}
