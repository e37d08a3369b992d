/**
 * The revision write of an edit when another edit came in between (on SQLite and PostgreSQL):
 * the route read the record, someone else changed it, then the route writes. On PostgreSQL the
 * guarded plain statement (`updateWithKnownOldPg`: update only while the written columns still
 * hold the values read) finds the row changed, writes nothing and answers false; the repository
 * then takes the locked read (`updateWithRevisionPg`), so the revision holds the values that were
 * really replaced, never the stale ones the route read. SQLite reads the old values inside the
 * write's own transaction. Either way: one revision, the true old values, and a stale read that
 * happens to equal the new values still records the change it really made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { historyEntries, revisionsOf } from '../../src/server/crud/history/history.ts';
import { createRecord, findById, updateRecord } from '../../src/server/crud/repository.ts';
import { diffRecords, REVISION_TABLE, updateWithKnownOldPg, type RevisionActor } from '../../src/server/crud/history/revisions.ts';
import { recordToRow } from '../../src/server/crud/values.ts';
import { testApps, type TestApp } from './helpers.ts';

const spec = resourceByName.sysQuestion;
const someone = { username: 'editor_a' };
const other = { username: 'editor_b' };

describe.each(testApps())('the revision of an edit that raced another one on %s', (dialect, start) => {
  let t: TestApp;
  const database = () => t.app.database;
  const revisionRows = async (id: number) =>
    database()
      .db.selectFrom(REVISION_TABLE)
      .selectAll()
      .where('resource', '=', spec.name)
      .where('record_id', '=', id)
      .orderBy('id')
      .execute();
  const make = async (title: string) =>
    Number((await createRecord(database(), spec, { userType: '1', model: '1', content: '内容', title, status: false }, someone)).id);

  beforeAll(async () => {
    t = await start();
  }, 60_000);
  afterAll(() => t?.close());

  it('records the values really replaced, not the stale ones read before the other edit', async () => {
    const id = await make('最初的标题');
    const stale = (await findById(database(), spec, id))!;
    // another edit in between
    expect(await updateRecord(database(), spec, id, { title: '别人改的标题' }, [], other, { ...stale })).toBe(true);
    const before = (await revisionRows(id)).length;

    // the route writes with what it read before: the stale title
    expect(await updateRecord(database(), spec, id, { title: '我的标题' }, [], someone, stale)).toBe(true);
    const rows = await revisionRows(id);
    expect(rows.length).toBe(before + 1);
    const entries = historyEntries(spec, await findById(database(), spec, id), await revisionsOf(database().db, spec, id), false);
    expect(entries[0]).toMatchObject({ action: 'update', actorName: 'editor_a' });
    expect(entries[0].changes).toEqual([{ field: 'title', title: expect.any(String) as string, old: '别人改的标题', new: '我的标题' }]);
    expect(entries[1].changes).toMatchObject([{ field: 'title', old: '最初的标题', new: '别人改的标题' }]);
    expect((await findById(database(), spec, id))!.title).toBe('我的标题');
  });

  it('a stale read equal to the new value still records the change really made', async () => {
    const id = await make('甲');
    const stale = (await findById(database(), spec, id))!;
    expect(await updateRecord(database(), spec, id, { title: '乙' }, [], other, { ...stale })).toBe(true);
    // the route read 甲 and writes 甲: by its read nothing changes, but the row holds 乙
    expect(await updateRecord(database(), spec, id, { title: '甲' }, [], someone, stale)).toBe(true);
    const entries = historyEntries(spec, await findById(database(), spec, id), await revisionsOf(database().db, spec, id), false);
    expect(entries[0]).toMatchObject({ action: 'update', actorName: 'editor_a' });
    expect(entries[0].changes).toMatchObject([{ field: 'title', old: '乙', new: '甲' }]);
    expect((await findById(database(), spec, id))!.title).toBe('甲');
  });

  it('a record deleted in between: nothing written, no revision', async () => {
    const id = await make('将被删除');
    const stale = (await findById(database(), spec, id))!;
    await database().db.deleteFrom(spec.table).where('id', '=', id).execute();
    const before = (await revisionRows(id)).length;
    expect(await updateRecord(database(), spec, id, { title: '写不进去' }, [], someone, stale)).toBe(false);
    expect((await revisionRows(id)).length).toBe(before);
  });

  it.runIf(dialect === 'postgres')('PostgreSQL: the guarded plain statement refuses a changed row and writes nothing', async () => {
    const id = await make('原值');
    const stale = (await findById(database(), spec, id))!;
    expect(await updateRecord(database(), spec, id, { title: '新值' }, [], other, { ...stale })).toBe(true);
    const before = (await revisionRows(id)).length;
    const row = recordToRow(spec, { title: '第三个值' }, 'postgres');
    const changes = diffRecords(spec, stale, { title: '第三个值' });
    const by: RevisionActor = { kind: 'user', name: 'editor_a' };
    const written = await updateWithKnownOldPg(
      database().db,
      spec,
      'id',
      id,
      row,
      recordToRow(spec, stale, 'postgres'),
      changes,
      by,
      'update',
    );
    expect(written).toBe(false);
    expect((await findById(database(), spec, id))!.title).toBe('新值');
    expect((await revisionRows(id)).length).toBe(before);
    // with the values really stored it writes, with its revision
    const fresh = (await findById(database(), spec, id))!;
    expect(
      await updateWithKnownOldPg(
        database().db,
        spec,
        'id',
        id,
        row,
        recordToRow(spec, fresh, 'postgres'),
        diffRecords(spec, fresh, { title: '第三个值' }),
        by,
        'update',
      ),
    ).toBe(true);
    expect((await revisionRows(id)).length).toBe(before + 1);
  });
});
