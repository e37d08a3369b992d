import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testApps, type TestApp } from './helpers.ts';

// SQLite builds row objects from better-sqlite3's arrays (db/index.ts): the same objects better-sqlite3
// made itself (PostgreSQL's driver is untouched, and streams need a cursor there)
describe.each(testApps().filter(([dialect]) => dialect === 'sqlite'))('rows as objects on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start();
    await sql`CREATE TABLE row_shape (id integer primary key, name text, note text)`.execute(t.app.database.db);
    await sql`INSERT INTO row_shape (id, name, note) VALUES (1, 'a', null), (2, 'b', 'x')`.execute(t.app.database.db);
  });
  afterAll(async () => t?.close());

  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(t.app.database.db)).rows as Record<string, unknown>[];

  it('names, order, nulls, a repeated name (the later column wins) and a column named __proto__ never sets the prototype', async () => {
    const plain = await rows(sql`SELECT id, name, note FROM row_shape ORDER BY id`);
    expect(plain).toEqual([
      { id: 1, name: 'a', note: null },
      { id: 2, name: 'b', note: 'x' },
    ]);
    expect(Object.keys(plain[0])).toEqual(['id', 'name', 'note']);
    expect(Object.getPrototypeOf(plain[0])).toBe(Object.prototype);
    const repeated = await rows(sql`SELECT id AS v, name AS v FROM row_shape WHERE id = 2`);
    expect(repeated).toEqual([{ v: 'b' }]);
    const proto = await rows(sql`SELECT name AS "__proto__" FROM row_shape WHERE id = 1`);
    expect(Object.getPrototypeOf(proto[0])).toBe(Object.prototype);
  });

  it('a streamed query gives the same objects, and a statement sees a column added after it was first run', async () => {
    const streamed: unknown[] = [];
    for await (const row of t.app.database.db
      .selectFrom('row_shape' as never)
      .selectAll()
      .orderBy('id' as never)
      .stream(1))
      streamed.push(row);
    expect(streamed).toEqual([
      { id: 1, name: 'a', note: null },
      { id: 2, name: 'b', note: 'x' },
    ]);
    const all = () => rows(sql`SELECT * FROM row_shape WHERE id = 1`);
    expect(await all()).toEqual([{ id: 1, name: 'a', note: null }]);
    await sql`ALTER TABLE row_shape ADD COLUMN extra text`.execute(t.app.database.db);
    expect(await all()).toEqual([{ id: 1, name: 'a', note: null, extra: null }]);
  });
});
