/**
 * Cron expressions of scheduled jobs, parsed by croner. Accepted: 5 fields (minute first),
 * 6 fields (second first, as eladmin/Quartz write them) or 7 (with a year); `?` for "any day",
 * names (MON-FRI, JAN) and Quartz's `start/step` (0/10 means every 10 starting at 0).
 * Times are the server's local time.
 */
import { Cron } from 'croner';

/** Highest value of each field, by position, in the 6/7-field form. */
const FIELD_MAX = [59, 59, 23, 31, 12, 7];

/** Rewrites Quartz's `n/step` (which croner refuses) into `n-max/step`. */
export function normalizeCron(expression: string): string {
  const parts = expression.trim().split(/\s+/);
  const offset = parts.length === 5 ? 1 : 0;
  return parts
    .map((part, i) => {
      const max = FIELD_MAX[i + offset];
      if (max === undefined) return part;
      return part
        .split(',')
        .map((item) => item.replace(/^(\d+)\/(\d+)$/, (_m, start: string, step: string) => `${start}-${max}/${step}`))
        .join(',');
    })
    .join(' ');
}

export function cronError(expression: string): string {
  return `Cron表达式不正确：${expression}`;
}

export type CronCheck = { ok: true; next: Date } | { ok: false; message: string };

/** Parses an expression; an error names it. An expression that never fires again is refused too. */
export function checkCron(expression: unknown, from = new Date()): CronCheck {
  if (typeof expression !== 'string' || !expression.trim()) return { ok: false, message: 'Cron表达式不能为空' };
  let cron: Cron;
  try {
    cron = new Cron(normalizeCron(expression), { paused: true });
  } catch {
    return { ok: false, message: cronError(expression) };
  }
  const next = cron.nextRun(from);
  cron.stop();
  if (!next) return { ok: false, message: `${cronError(expression)}（不会再触发）` };
  return { ok: true, next };
}

/** The next firing strictly after `from`, or null when there is none. */
export function nextFiring(expression: string, from: Date): Date | null {
  const cron = new Cron(normalizeCron(expression), { paused: true });
  try {
    return cron.nextRun(from);
  } finally {
    cron.stop();
  }
}
