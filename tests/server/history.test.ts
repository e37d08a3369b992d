/**
 * Record history (sys_revision) and the recycle bin on the generic routes: a revision per
 * create, update, delete, import, restore; none for a change that rolled back; personal fields
 * masked in history for a caller without `:sensitive`; 恢复到此版本 through the resource's rules
 * (a conflict answers 400 and changes nothing); the recycle bin's list, restore with ids (a
 * broken reference refused) and 彻底删除; the retention job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { resourceByName, resources } from '../../src/generated/resources.ts';
import { addRecordRule, insertAll } from '../../src/server/crud/index.ts';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import { findJobFunction } from '../../src/server/modules/jobs/registry.ts';
import { nowText } from '../../src/server/db/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import type { Created, Page, Row } from '../support/answers.ts';

const Q = '/api/sysQuestion';
const spec = resourceByName.sysQuestion;

interface Entry {
  id: number;
  action: string;
  actorKind: string;
  actorName: string | null;
  time: string;
  changes: Array<{ field: string; title: string; old: unknown; new: unknown }>;
}
interface BinItem {
  id: number;
  revisionId: number;
  deleteUser: string | null;
  deleteTime: string;
  record: Row;
}

/** a title already used by another feedback record is refused (a rule only this test adds) */
addRecordRule('sysQuestion', async (record, database) => {
  if (typeof record.title !== 'string' || !record.title.startsWith('唯一')) return undefined;
  let q = database.db.selectFrom(spec.table).select('id').where('title', '=', record.title);
  if (record.id) q = q.where('id', '!=', Number(record.id));
  return (await q.executeTakeFirst()) ? '标题已存在' : undefined;
});

describe.each(testApps())('record history and recycle bin on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let plain: Record<string, string>;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const history = async (id: number, headers = admin) => {
    const res = await call('GET', `${Q}/${id}/history`, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page<Entry>>().content;
  };
  const revisionCount = async () =>
    Number(
      (
        await app.database.db
          .selectFrom(REVISION_TABLE)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const create = async (body: Row) => {
    const res = await call('POST', Q, { userType: '员工', model: '系统', content: '导出打不开', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>();
  };

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    await createStaff(app, {
      username: 'plain',
      password: 'Plain@2024',
      permissions: ['sysQuestion:list', 'sysQuestion:edit', 'sysQuestion:del'],
    });
    plain = bearer(await loginAs(app, 'plain', 'Plain@2024'));
  });
  afterAll(async () => t?.close());

  it('writes a revision per create, update and delete, with who, when and each changed field', async () => {
    const q = await create({ title: '第一版', username: '张三丰', mobile: '13912345678' });
    expect((await call('PUT', Q, { id: q.id, title: '第二版', status: true })).statusCode).toBe(204);
    // an update that changes nothing adds no revision
    expect((await call('PUT', Q, { id: q.id, title: '第二版' })).statusCode).toBe(204);
    let entries = await history(q.id);
    expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
    expect(entries[0].actorName).toBe('admin');
    expect(entries[0].time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(entries[0].changes).toEqual([
      { field: 'title', title: '标题', old: '第一版', new: '第二版' },
      { field: 'status', title: spec.fields.find((f) => f.name === 'status')!.title, old: false, new: true },
    ]);
    expect(entries[1].changes.find((c) => c.field === 'title')).toMatchObject({ old: null, new: '第一版' });
    expect((await call('DELETE', Q, [q.id])).statusCode).toBe(200);
    entries = await history(q.id);
    expect(entries.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    expect(entries[0].changes.find((c) => c.field === 'title')).toMatchObject({ old: '第二版', new: null });
  });

  it('writes an import revision per imported record, its values derived from what is stored', async () => {
    const n = await insertAll(
      app.database,
      spec,
      [1, 2, 3].map((i) => ({ userType: '员工', model: '系统', content: `导入${i}`, title: `导入标题${i}`, status: false, enabled: true })),
      { username: 'admin' },
    );
    expect(n).toBe(3);
    const rows = await app.database.db.selectFrom(spec.table).select('id').where('title', 'like', '导入标题%').orderBy('id').execute();
    const id = Number(rows[0].id);
    expect((await call('PUT', Q, { id, title: '导入后改过' })).statusCode).toBe(204);
    const entries = await history(id);
    expect(entries.map((e) => e.action)).toEqual(['update', 'import']);
    expect(entries[1].changes.find((c) => c.field === 'title')).toMatchObject({ old: null, new: '导入标题1' });
    expect(entries[1].actorName).toBe('admin');
  });

  it('leaves no revision when the change rolls back', async () => {
    const before = await revisionCount();
    const taken = 900_000 + Math.floor(Math.random() * 1000);
    const records = Array.from({ length: 1001 }, (_, i) => ({ userType: '员工', model: '系统', content: `回滚${i}`, enabled: true }));
    // the first and the 1,001st row carry the same id: the second batch fails after the first is written
    Object.assign(records[0], { id: taken });
    Object.assign(records[1000], { id: taken });
    await expect(insertAll(app.database, spec, records, { username: 'admin' })).rejects.toThrow();
    expect(await revisionCount()).toBe(before);
    expect(await app.database.db.selectFrom(spec.table).select('id').where('id', '=', taken).executeTakeFirst()).toBeUndefined();
  });

  it('masks personal fields in history for a caller without the sensitive key', async () => {
    const q = await create({ title: '隐私', username: '欧阳锋', mobile: '13912345678' });
    expect((await call('PUT', Q, { id: q.id, mobile: '15887654321' })).statusCode).toBe(204);
    const seen = await history(q.id, plain);
    const mobile = seen[0].changes.find((c) => c.field === 'mobile')!;
    expect(mobile).toMatchObject({ old: '139****5678', new: '158****4321' });
    expect(seen[1].changes.find((c) => c.field === 'username')!.new).toBe('欧**');
    expect(JSON.stringify(seen)).not.toContain('13912345678');
    const full = await history(q.id);
    expect(full[0].changes.find((c) => c.field === 'mobile')).toMatchObject({ old: '13912345678', new: '15887654321' });
  });

  it('restores a record to an earlier version as a new change, through the same rules as an edit', async () => {
    const q = await create({ title: '唯一甲', remark: '初稿' });
    expect((await call('PUT', Q, { id: q.id, title: '唯一乙', remark: '改稿' })).statusCode).toBe(204);
    let entries = await history(q.id);
    const first = entries[1].id;
    const res = await call('POST', `${Q}/${q.id}/restore/${first}`, undefined, plain);
    expect(res.statusCode, res.body).toBe(200);
    const now = (await call('GET', `${Q}?id=${q.id}`)).json<Page>().content[0];
    expect(now).toMatchObject({ title: '唯一甲', remark: '初稿' });
    entries = await history(q.id);
    expect(entries[0]).toMatchObject({ action: 'restore', actorName: 'plain' });
    expect(entries[0].changes.map((c) => [c.field, c.old, c.new])).toEqual([
      ['title', '唯一乙', '唯一甲'],
      ['remark', '改稿', '初稿'],
    ]);
    // the same version again: nothing to restore
    expect(errorOf(await call('POST', `${Q}/${q.id}/restore/${first}`)).message).toBe('当前数据与该版本一致，无需恢复');

    // a unique value taken since: 400 and nothing changes
    expect((await call('PUT', Q, { id: q.id, title: '唯一丙' })).statusCode).toBe(204);
    const other = await create({ title: '唯一甲' });
    const count = await revisionCount();
    const conflict = await call('POST', `${Q}/${q.id}/restore/${first}`);
    expect(conflict.statusCode).toBe(400);
    expect(errorOf(conflict).message).toBe('标题已存在');
    expect((await call('GET', `${Q}?id=${q.id}`)).json<Page>().content[0]).toMatchObject({ title: '唯一丙' });
    expect(await revisionCount()).toBe(count);
    expect(other.id).toBeGreaterThan(q.id);

    // a revision of another record, and a record without the key
    expect((await call('POST', `${Q}/${other.id}/restore/${first}`)).statusCode).toBe(404);
    await createStaff(app, { username: 'viewer', password: 'Viewer@2024', permissions: ['sysQuestion:list'] });
    const viewer = bearer(await loginAs(app, 'viewer', 'Viewer@2024'));
    expect((await call('POST', `${Q}/${q.id}/restore/${first}`, undefined, viewer)).statusCode).toBe(403);
    expect((await call('GET', `${Q}/recycleBin`, undefined, viewer)).statusCode).toBe(403);
  });

  it('keeps deleted records in the recycle bin: listed with who and when, restored with their ids, purged for good', async () => {
    const a = await create({ title: '回收甲', mobile: '13912345678' });
    const b = await create({ title: '回收乙' });
    expect((await call('DELETE', Q, [a.id, b.id], plain)).statusCode).toBe(200);
    const bin = await call('GET', `${Q}/recycleBin?page=0&size=10`, undefined, plain);
    expect(bin.statusCode, bin.body).toBe(200);
    const items = bin.json<Page<BinItem>>().content;
    const mine = items.filter((i) => i.id === a.id || i.id === b.id);
    expect(mine.map((i) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(mine[0].deleteUser).toBe('plain');
    expect(mine.find((i) => i.id === a.id)!.record).toMatchObject({ title: '回收甲', mobile: '139****5678' });

    // restored with their ids, a revision each
    const restored = await call('POST', `${Q}/recycleBin/restore`, [a.id], plain);
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await call('GET', `${Q}?id=${a.id}`)).json<Page>().content[0]).toMatchObject({
      id: a.id,
      title: '回收甲',
      mobile: '13912345678',
      createTime: a.createTime,
    });
    expect((await history(a.id)).map((e) => e.action)).toEqual(['restore', 'delete', 'create']);
    expect(errorOf(await call('POST', `${Q}/recycleBin/restore`, [a.id])).message).toContain('回收站中没有该数据');

    // 彻底删除: gone with its history
    const purged = await call('DELETE', `${Q}/recycleBin`, [b.id], plain);
    expect(purged.statusCode, purged.body).toBe(200);
    expect((await call('GET', `${Q}/${b.id}/history`)).statusCode).toBe(404);
    expect((await call('POST', `${Q}/recycleBin/restore`, [b.id])).statusCode).toBe(404);
  });

  it('refuses to bring back a record whose department was deleted since, changing nothing', async () => {
    const zjs = resourceByName.xsZjs;
    const token = (admin.authorization ?? '').replace('Bearer ', '');
    const dept = await app.database.db
      .insertInto('sys_dept')
      .values({ name: '临时公司', pid: null, sort: 1, enabled: app.database.dialect === 'postgres' ? true : 1, create_time: nowText() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const body = { ...(await sampleBody(app, token, resources, zjs, 0)), orgId: Number(dept.id) };
    const res = await call('POST', `/${zjs.path}`, body);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<Created>().id;
    expect((await call('DELETE', `/${zjs.path}`, [id])).statusCode).toBe(200);
    await app.database.db.deleteFrom('sys_dept').where('id', '=', Number(dept.id)).execute();
    const count = await revisionCount();
    const refused = await call('POST', `/${zjs.path}/recycleBin/restore`, [id]);
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(/「所属公司」引用的部门（ID \d+）已被删除，无法恢复/);
    expect(await revisionCount()).toBe(count);
    expect(await app.database.db.selectFrom(zjs.table).select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const items = (await call('GET', `/${zjs.path}/recycleBin`)).json<Page<BinItem>>().content;
    expect(items.some((i) => i.id === id)).toBe(true);
  });

  it('answers 404 for the history of a record outside the caller’s data scope', async () => {
    const zjs = resourceByName.xsZjs;
    const token = (admin.authorization ?? '').replace('Bearer ', '');
    // a record of another company; the user's scope is their own department and company
    const dept = await app.database.db
      .insertInto('sys_dept')
      .values({ name: '别的公司', pid: null, sort: 2, enabled: app.database.dialect === 'postgres' ? true : 1, create_time: nowText() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await call('POST', `/${zjs.path}`, { ...(await sampleBody(app, token, resources, zjs, 1)), orgId: Number(dept.id) });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<Created>().id;
    await createStaff(app, {
      username: 'scoped',
      password: 'Scoped@2024',
      permissions: [`${zjs.permission}:list`, `${zjs.permission}:edit`, `${zjs.permission}:del`],
      dataScope: '本级',
    });
    const scoped = bearer(await loginAs(app, 'scoped', 'Scoped@2024'));
    expect((await call('GET', `/${zjs.path}/${id}/history`, undefined, scoped)).statusCode).toBe(404);
    expect((await call('GET', `/${zjs.path}/${id}/history`)).statusCode).toBe(200);
    expect((await call('DELETE', `/${zjs.path}`, [id])).statusCode).toBe(200);
    const items = (await call('GET', `/${zjs.path}/recycleBin`, undefined, scoped)).json<Page<BinItem>>().content;
    expect(items.some((i) => i.id === id)).toBe(false);
    expect((await call('POST', `/${zjs.path}/recycleBin/restore`, [id], scoped)).statusCode).toBe(404);
    expect((await call('DELETE', `/${zjs.path}/recycleBin`, [id], scoped)).statusCode).toBe(404);
  });

  it('removes revisions older than the days kept, recycle-bin records with them', async () => {
    const q = await create({ title: '很旧' });
    expect((await call('DELETE', Q, [q.id])).statusCode).toBe(200);
    const old = nowText(new Date(Date.now() - 400 * 24 * 60 * 60 * 1000));
    await sql`update ${sql.table(REVISION_TABLE)} set create_time = ${old} where record_id = ${q.id} and resource = 'sysQuestion'`.execute(
      app.database.db,
    );
    const fresh = await create({ title: '新的' });
    const job = findJobFunction('revisionMaintenance', 'purgeOldRevisions')!;
    const result = await job.fn({ database: app.database, config: app.config, params: '', log: app.log, now: new Date() });
    expect(result).toBe('删除365天前的历史记录及回收站数据 2 条');
    expect((await call('GET', `${Q}/${q.id}/history`)).statusCode).toBe(404);
    const items = (await call('GET', `${Q}/recycleBin?size=100`)).json<Page<BinItem>>().content;
    expect(items.some((i) => i.id === q.id)).toBe(false);
    expect((await history(fresh.id)).length).toBe(1);
  });
});
