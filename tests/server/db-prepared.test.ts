/**
 * Named statements on PostgreSQL (db/pg-prepared.ts): a SELECT run again and again is prepared
 * once per connection and answers the same rows; `select *` and writes are never named; a
 * connection holds a bounded number of them; a column added under a named statement changes
 * nothing, a column whose type changes fails that one run, the next runs prepare it anew and each
 * connection drops its stale statements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type pg from 'pg';
import { HOT_AFTER, PER_CONNECTION_MAX, PreparedStatements } from '../../src/server/db/pg-prepared.ts';
import { testApps, type TestApp } from './helpers.ts';
import type { Db } from '../../src/server/types.ts';

describe('which texts are named', () => {
  const client = {} as pg.PoolClient;
  const runs = (p: PreparedStatements, text: string, n: number, on = client) => Array.from({ length: n }, () => p.nameFor(on, text));

  it('a SELECT from its third run on, under one name; count(*) allowed; select *, writes and DDL never', () => {
    const p = new PreparedStatements();
    const names = runs(p, 'select "id" from "t" where "a" = $1', HOT_AFTER + 2);
    expect(names.slice(0, HOT_AFTER - 1)).toEqual(Array(HOT_AFTER - 1).fill(undefined));
    const named = names[HOT_AFTER - 1];
    expect(named).toMatch(/^k\d+$/);
    expect(new Set(names.slice(HOT_AFTER - 1))).toEqual(new Set([named]));
    expect(runs(p, 'WITH x AS (select 1) select count(*) as "n" from x', HOT_AFTER).at(-1)).toMatch(/^k\d+$/);
    for (const text of [
      'select * from "t"',
      'select "t".* from "t"',
      'insert into "t" ("a") values ($1)',
      'update "t" set "a" = $1',
      'begin',
    ])
      expect(runs(p, text, HOT_AFTER + 3), text).toEqual(Array(HOT_AFTER + 3).fill(undefined));
  });

  it('a connection holds at most PER_CONNECTION_MAX named statements; another connection has room of its own', () => {
    const p = new PreparedStatements();
    const other = {} as pg.PoolClient;
    const texts = Array.from({ length: PER_CONNECTION_MAX + 5 }, (_, i) => `select "id" from "t" where "a" = ${i}`);
    const last = texts.map((text) => runs(p, text, HOT_AFTER).at(-1));
    expect(last.filter(Boolean)).toHaveLength(PER_CONNECTION_MAX);
    expect(last.slice(PER_CONNECTION_MAX)).toEqual(Array(5).fill(undefined));
    // the texts are hot now: a fresh connection names them at once, up to its own bound
    expect(p.nameFor(other, texts.at(-1)!)).toMatch(/^k\d+$/);
    // a statement the full connection already holds keeps its name
    expect(p.nameFor(client, texts[0])).toBe(last[0]);
  });
});

describe.each(testApps().filter(([dialect]) => dialect === 'postgres'))('named statements on %s', (_name, start) => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await start();
    db = t.app.database.db;
    await sql`CREATE TABLE prep_shape (id bigint primary key, name text, amount integer)`.execute(db);
    await sql`INSERT INTO prep_shape (id, name, amount) VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)`.execute(db);
  });
  afterAll(async () => t?.close());

  /** the statements prepared on the connection `trx` runs on */
  const prepared = async (trx: Db) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx)).rows.map((r) => r.statement);

  it('a hot SELECT is prepared on its connection and answers what the unnamed statement answered; select * and writes are not', async () => {
    await db.transaction().execute(async (trx) => {
      const byName = trx
        .selectFrom('prep_shape' as never)
        .select(['id', 'name'] as never[])
        .where('amount' as never, '>=', 20 as never);
      const answers = [];
      for (let i = 0; i < HOT_AFTER + 6; i++) answers.push(await byName.execute());
      for (const a of answers)
        expect(a).toEqual([
          { id: 2, name: 'b' },
          { id: 3, name: 'c' },
        ]);
      for (let i = 0; i < HOT_AFTER + 1; i++) {
        await trx
          .selectFrom('prep_shape' as never)
          .selectAll()
          .execute();
        await trx
          .updateTable('prep_shape' as never)
          .set({ amount: 30 } as never)
          .where('id' as never, '=', 3 as never)
          .execute();
      }
      const statements = await prepared(trx);
      expect(statements).toContain(byName.compile().sql);
      expect(statements.some((s) => s.includes('*') && !s.includes('count(*)'))).toBe(false);
      expect(statements.some((s) => /^\s*update/i.test(s))).toBe(false);
    });
  });

  it('a column added under a named statement changes nothing; a changed column type fails one run, then it is prepared anew', async () => {
    await db.transaction().execute(async (trx) => {
      const q = trx
        .selectFrom('prep_shape' as never)
        .select(['id', 'amount'] as never[])
        .where('id' as never, '=', 1 as never);
      for (let i = 0; i < HOT_AFTER + 1; i++) expect(await q.execute()).toEqual([{ id: 1, amount: 10 }]);
      expect(await prepared(trx)).toContain(q.compile().sql);
      await sql`ALTER TABLE prep_shape ADD COLUMN note text`.execute(trx);
      expect(await q.execute()).toEqual([{ id: 1, amount: 10 }]);
    });
    const q = db
      .selectFrom('prep_shape' as never)
      .select(['id', 'amount'] as never[])
      .where('id' as never, '=', 2 as never);
    // hot on every connection the pool may hand out
    await Promise.all(Array.from({ length: 4 }, () => Promise.all(Array.from({ length: HOT_AFTER + 1 }, () => q.execute()))));
    await sql`ALTER TABLE prep_shape ALTER COLUMN amount TYPE bigint`.execute(db);
    let failed = 0;
    const after = [];
    for (let i = 0; i < 12; i++) {
      try {
        after.push(await q.execute());
      } catch (err) {
        expect((err as { code?: string }).code).toBe('0A000');
        failed++;
      }
    }
    expect(failed).toBeLessThanOrEqual(1);
    for (const a of after) expect(a).toEqual([{ id: 2, amount: 20 }]);
    // every connection dropped the stale statement: the text is held once, under its new name
    const held = await Promise.all(
      Array.from({ length: 4 }, () =>
        db.transaction().execute(async (trx) => {
          for (let i = 0; i < HOT_AFTER + 1; i++)
            await trx
              .selectFrom('prep_shape' as never)
              .select(['id', 'amount'] as never[])
              .where('id' as never, '=', 2 as never)
              .execute();
          return (await prepared(trx)).filter((s) => s === q.compile().sql).length;
        }),
      ),
    );
    expect(held).toEqual([1, 1, 1, 1]);
  });
});
