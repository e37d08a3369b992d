/**
 * Arithmetic sign-in captcha: "a op b = ?" with op in + - ×, numbers 1..9 (answers may be
 * negative). The image is an SVG drawn with glyph outlines (svg-captcha, no text to scrape)
 * and noise lines; the answer is kept server-side in sys_captcha for two minutes and deleted
 * at its first check, right or wrong. When the disk is full (db/storage-full.ts) the answer is
 * kept in this instance's memory instead (at most PENDING_MAX), so that sign-in still works.
 */
import type { Db } from '../types.ts';
import { randomInt, randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { isStorageFull } from '../db/storage-full.ts';

const PENDING_MAX = 1000;

/** svg-captcha's module is itself the function that draws a given text (its typings omit it). */
const drawText = svgCaptcha as unknown as (text: string, options?: Parameters<typeof svgCaptcha.create>[0]) => string;

export type Operator = '+' | '-' | '×';

export interface Expression {
  a: number;
  op: Operator;
  b: number;
  answer: number;
  /** as drawn, e.g. "7-9=?" ("x" stands for × because the captcha font has no × glyph) */
  text: string;
}

const OPERATORS: Operator[] = ['+', '-', '×'];

export function makeExpression(rand: (min: number, maxExclusive: number) => number = randomInt): Expression {
  const op = OPERATORS[rand(0, OPERATORS.length)];
  const a = rand(1, 10);
  const b = rand(1, 10);
  const answer = op === '+' ? a + b : op === '-' ? a - b : a * b;
  return { a, op, b, answer, text: `${a}${op === '×' ? 'x' : op}${b}=?` };
}

export function renderCaptcha(text: string): string {
  const svg = drawText(text, { width: 111, height: 36, fontSize: 42, noise: 2, color: true, background: '#f4f6fb' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export type CaptchaCheck = 'ok' | 'wrong' | 'missing';

export interface CaptchaOptions {
  ttlMs?: number;
  now?: () => number;
}

export class CaptchaStore {
  readonly ttlMs: number;
  private readonly now: () => number;
  private lastSweep = 0;
  /** answers that found no space in sys_captcha, by uuid */
  private readonly inMemory = new Map<string, { answer: string; expires: number }>();

  constructor(
    private readonly db: Db,
    opts: CaptchaOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 2 * 60 * 1000;
    this.now = opts.now ?? Date.now;
  }

  /** A new captcha: the expression (for tests), its uuid and the image as a data URL. */
  async create(): Promise<{ uuid: string; img: string; expression: Expression }> {
    const now = this.now();
    await this.sweep(now).catch((err: unknown) => {
      if (!isStorageFull(err)) throw err;
    });
    const expression = makeExpression();
    const uuid = randomUUID().replace(/-/g, '');
    const row = { uuid, answer: String(expression.answer), expires: now + this.ttlMs };
    try {
      await this.db.insertInto('sys_captcha').values(row).execute();
    } catch (err) {
      if (!isStorageFull(err)) throw err;
      for (const [key, kept] of this.inMemory) if (kept.expires <= now) this.inMemory.delete(key);
      if (this.inMemory.size >= PENDING_MAX) throw err;
      this.inMemory.set(uuid, { answer: row.answer, expires: row.expires });
    }
    return { uuid, img: renderCaptcha(expression.text), expression };
  }

  /** Checks and consumes: the captcha is gone after this call whatever the answer. */
  async check(uuid: string, code: string): Promise<CaptchaCheck> {
    if (!/^[0-9a-f]{32}$/.test(uuid)) return 'missing';
    const kept = this.inMemory.size ? this.inMemory.get(uuid) : undefined;
    if (kept) this.inMemory.delete(uuid);
    const row = kept ?? (await this.consume(uuid));
    if (!row || Number(row.expires) <= this.now()) return 'missing';
    return code.trim() === String(row.answer) ? 'ok' : 'wrong';
  }

  /** Deletes and answers a stored captcha; on a full disk only reads it (it still expires in ttlMs). */
  private async consume(uuid: string): Promise<{ answer: unknown; expires: unknown } | undefined> {
    try {
      return await this.db.deleteFrom('sys_captcha').where('uuid', '=', uuid).returning(['answer', 'expires']).executeTakeFirst();
    } catch (err) {
      if (!isStorageFull(err)) throw err;
      return this.db.selectFrom('sys_captcha').select(['answer', 'expires']).where('uuid', '=', uuid).executeTakeFirst();
    }
  }

  /** Deletes expired captchas, at most once a minute. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db.deleteFrom('sys_captcha').where('expires', '<=', now).execute();
  }
}
