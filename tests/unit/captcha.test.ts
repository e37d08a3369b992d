import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { CaptchaStore, makeExpression, renderCaptcha } from '../../src/server/auth/captcha.ts';
import { AUTH_TABLES, ensureTables } from '../../src/server/auth/tables.ts';

function evaluate(text: string): number {
  const m = /^(\d)([+\-x])(\d)=\?$/.exec(text);
  if (!m) throw new Error(`unexpected captcha text ${text}`);
  const a = Number(m[1]);
  const b = Number(m[3]);
  return m[2] === '+' ? a + b : m[2] === '-' ? a - b : a * b;
}

describe('arithmetic expression', () => {
  it('answers what the drawn text says, for many random draws', () => {
    const ops = new Set<string>();
    let negative = false;
    for (let i = 0; i < 2000; i++) {
      const e = makeExpression();
      expect(e.a).toBeGreaterThanOrEqual(1);
      expect(e.a).toBeLessThanOrEqual(9);
      expect(e.b).toBeGreaterThanOrEqual(1);
      expect(e.b).toBeLessThanOrEqual(9);
      expect(e.answer).toBe(evaluate(e.text));
      ops.add(e.op);
      if (e.answer < 0) negative = true;
    }
    expect([...ops].sort()).toEqual(['+', '-', '×']);
    expect(negative).toBe(true);
  });

  it('computes each operator from chosen draws', () => {
    const draws = (values: number[]) => () => values.shift()!;
    expect(makeExpression(draws([0, 3, 4]))).toMatchObject({ op: '+', answer: 7, text: '3+4=?' });
    expect(makeExpression(draws([1, 2, 9]))).toMatchObject({ op: '-', answer: -7, text: '2-9=?' });
    expect(makeExpression(draws([2, 6, 7]))).toMatchObject({ op: '×', answer: 42, text: '6x7=?' });
  });

  it('renders an SVG data URL drawn with paths, without the answer as text', () => {
    const url = renderCaptcha('3+4=?');
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(url.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect((svg.match(/<path/g) ?? []).length).toBeGreaterThanOrEqual(5);
    expect(svg).not.toContain('<text');
    expect(svg).not.toContain('3+4');
  });
});

describe('captcha store', () => {
  /** the tables as this test reads them; the store and ensureTables take any database */
  let db: Kysely<{ sys_captcha: Record<string, unknown> }>;
  let clock: number;
  let store: CaptchaStore;

  beforeEach(async () => {
    db = new Kysely<{ sys_captcha: Record<string, unknown> }>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    await ensureTables(
      db,
      'sqlite',
      AUTH_TABLES.filter((t) => t.name === 'sys_captcha'),
    );
    clock = Date.UTC(2024, 0, 1, 8, 0, 0);
    store = new CaptchaStore(db, { now: () => clock });
  });
  afterEach(async () => db.destroy());

  it('accepts the right answer once, then the captcha is gone', async () => {
    const c = await store.create();
    expect(c.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(await store.check(c.uuid, String(c.expression.answer))).toBe('ok');
    expect(await store.check(c.uuid, String(c.expression.answer))).toBe('missing');
  });

  it('a wrong answer also consumes the captcha', async () => {
    const c = await store.create();
    expect(await store.check(c.uuid, String(c.expression.answer + 1))).toBe('wrong');
    expect(await store.check(c.uuid, String(c.expression.answer))).toBe('missing');
  });

  it('negative answers are compared as typed', async () => {
    let c;
    do c = await store.create();
    while (c.expression.answer >= 0);
    expect(await store.check(c.uuid, ` ${c.expression.answer} `)).toBe('ok');
  });

  it('expires after two minutes', async () => {
    const a = await store.create();
    const b = await store.create();
    clock += 2 * 60_000 - 1;
    expect(await store.check(a.uuid, String(a.expression.answer))).toBe('ok');
    clock += 1;
    expect(await store.check(b.uuid, String(b.expression.answer))).toBe('missing');
  });

  it('unknown or malformed ids are missing', async () => {
    expect(await store.check('0'.repeat(32), '1')).toBe('missing');
    expect(await store.check("x' or 1=1 --", '1')).toBe('missing');
  });

  it('sweeps expired captchas', async () => {
    await store.create();
    clock += 3 * 60_000;
    await store.create();
    const rows = await db.selectFrom('sys_captcha').selectAll().execute();
    expect(rows).toHaveLength(1);
  });
});
