/**
 * `npm run schema:plan` and `npm run schema:status` as a developer runs them (docs/adding-an-entity.md,
 * "Changing an entity"): the command in a project folder of its own (a copy of schemas/ and a
 * migrations/ folder) against the database of a test app holding rows written through the API,
 * on every database the suite runs on. What it prints, what it writes, its exit code; and a
 * renamed entity (`x-entity.renamedFrom`) followed from the plan to the start that applies it:
 * rows, history, recycle bin, pinyin keys, menus and the roles holding its keys.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { loadSpecs } from '../../codegen/main.ts';
import type { Config } from '../../src/server/config.ts';
import { liveColumns, SchemaChangeRefused } from '../../src/server/db/schema-plan.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { TEST_BACKUP_KEY } from './backup-helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';

type Json = Record<string, unknown>;
const TSX = resolve('node_modules/.bin/tsx');
const SCRIPT = resolve('scripts/schema-plan.ts');

/** Runs the command in `project` against the app's database: its output and exit code. */
function command(project: string, config: Config, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      TSX,
      [SCRIPT, ...args],
      {
        cwd: project,
        env: { ...process.env, DATA_DIR: config.dataDir, DATABASE_URL: config.databaseUrl, MIGRATIONS_DIR: join(project, 'migrations') },
        timeout: 120_000,
      },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

const schemaFile = (project: string, name: string) => join(project, 'schemas', `${name}.json`);
const readSchema = (project: string, name: string) => JSON.parse(readFileSync(schemaFile(project, name), 'utf8')) as Json;
const writeSchema = (project: string, name: string, schema: Json) =>
  writeFileSync(schemaFile(project, name), JSON.stringify(schema, null, 2));
const migrationFiles = (project: string) =>
  existsSync(join(project, 'migrations')) ? readdirSync(join(project, 'migrations')).sort() : [];

/** osType renamed systemType: its name, table, address and permission keys all change. */
function renameOsType(project: string): void {
  const s = readSchema(project, 'osType');
  const entity = s['x-entity'] as Json;
  Object.assign(entity, {
    name: 'systemType',
    table: 'system_type',
    path: 'api/systemType',
    permission: 'systemType',
    renamedFrom: 'osType',
  });
  s.$id = 'systemType';
  rmSync(schemaFile(project, 'osType'));
  writeSchema(project, 'systemType', s);
}

describe.each(testApps())('schema:plan and schema:status on %s', { timeout: 300_000 }, (_dialect, start) => {
  let t: TestApp | undefined;
  let project: string;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    rmSync(project, { recursive: true, force: true });
  });

  async function begin(): Promise<{ app: FastifyInstance; token: Record<string, string> }> {
    project = mkdtempSync(join(tmpdir(), 'project-'));
    cpSync('schemas', join(project, 'schemas'), { recursive: true });
    mkdirSync(join(project, 'migrations'));
    t = await start(
      { migrationsDir: join(project, 'migrations'), backupKey: TEST_BACKUP_KEY },
      { resources: loadSpecs(join(project, 'schemas')) },
    );
    return { app: t.app, token: bearer(await loginAs(t.app, 'admin', ADMIN_PASSWORD)) };
  }
  const reopen = () => t!.reopen({ resources: loadSpecs(join(project, 'schemas')) });

  it('with nothing changed it says so, writes nothing and exits 0; status lists no migration', async () => {
    await begin();
    await t!.app.close();
    const plan = await command(project, t!.config, []);
    expect(plan.code, plan.out).toBe(0);
    expect(plan.out).toContain('plan: nothing to change');
    expect(plan.out).toContain('no migration needed');
    expect(migrationFiles(project)).toEqual([]);
    const status = await command(project, t!.config, ['status']);
    expect(status.code, status.out).toBe(0);
    expect(status.out).toMatch(/migrations \(migrations\), (SQLite|PostgreSQL):\n {2}none/);
  });

  it('a narrowing with rows in the way: printed with the rows, --dry-run writes nothing, the plan writes the migration; status after the start', async () => {
    const { app, token } = await begin();
    const long = await app.inject({
      method: 'POST',
      url: '/api/sysQuestion',
      headers: token,
      payload: { userType: '员工', model: '系统', content: '问题', title: 'a'.repeat(20) },
    });
    expect(long.statusCode, long.body).toBe(201);
    const id = long.json<Created>().id;
    await app.close();
    const q = readSchema(project, 'sysQuestion');
    const title = (q.properties as Record<string, Json>).title;
    title.maxLength = 5;
    (title.errorMessage as Json).maxLength = '标题长度不能超过5个字符';
    writeSchema(project, 'sysQuestion', q);

    const dry = await command(project, t!.config, ['--dry-run']);
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toContain('sysQuestion (sys_question)');
    expect(dry.out).toContain('[needs a migration] narrow: schemas/sysQuestion.json title: 最大长度 100 → 5（缩短）');
    expect(dry.out).toMatch(new RegExp(`1 rows in the way: id ${id}\\b`));
    expect(dry.out).toContain('rows: 1 rows are longer than 5 characters');
    expect(dry.out).toContain('would write migrations/0001-sysQuestion-title.json (--dry-run)');
    expect(migrationFiles(project)).toEqual([]);

    const plan = await command(project, t!.config, []);
    expect(plan.code, plan.out).toBe(0);
    expect(plan.out).toContain('wrote migrations/0001-sysQuestion-title.json');
    expect(migrationFiles(project)).toEqual(['0001-sysQuestion-title.json']);
    const file = join(project, 'migrations', '0001-sysQuestion-title.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as { steps: Json[] };
    expect(m.steps).toMatchObject([{ entity: 'sysQuestion', kind: 'narrow', property: 'title', from: 100, tooLong: 'refuse' }]);
    // pending, and covered: a second plan writes no second file
    const again = await command(project, t!.config, []);
    expect(again.out).toContain('[planned in 0001-sysQuestion-title.json] narrow');
    expect(migrationFiles(project)).toEqual(['0001-sysQuestion-title.json']);
    expect((await command(project, t!.config, ['status'])).out).toContain('pending  0001-sysQuestion-title.json');

    // the reviewer's choice, then the start applies it
    m.steps[0].tooLong = 'truncate';
    writeFileSync(file, JSON.stringify(m, null, 2));
    await (await reopen()).close();
    const status = await command(project, t!.config, ['status']);
    expect(status.code, status.out).toBe(0);
    expect(status.out).toMatch(
      /applied {2}0001-sysQuestion-title\.json {2}[0-9a-f]{12} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}by \S+ pid \d+ {2}\d+ ms/,
    );
    expect((await command(project, t!.config, [])).out).toContain('plan: nothing to change');

    // an applied migration edited afterwards: status marks it and exits 1
    writeFileSync(file, readFileSync(file, 'utf8').replace('"truncate"', '"refuse"'));
    const edited = await command(project, t!.config, ['status']);
    expect(edited.code).toBe(1);
    expect(edited.out).toContain('EDITED after applying: the next start refuses');
  });

  it('a removed property is kept, and --drop writes its drop', async () => {
    await begin();
    await t!.app.close();
    const q = readSchema(project, 'sysQuestion');
    delete (q.properties as Json).remark;
    writeSchema(project, 'sysQuestion', q);
    const kept = await command(project, t!.config, []);
    expect(kept.out).toContain('[kept (npm run schema:plan -- --drop drops it)] removedProperty: schemas/sysQuestion.json remark');
    expect(migrationFiles(project)).toEqual([]);
    const drop = await command(project, t!.config, ['--drop']);
    expect(drop.out).toContain('[dropped by the migration (a backup is taken first)] removedProperty');
    expect(migrationFiles(project)).toEqual(['0001-sysQuestion-remark.json']);
  });

  it('a renamed entity keeps its rows, history, recycle bin, pinyin keys, menus and the roles holding its keys', async () => {
    const { app, token } = await begin();
    const ids: number[] = [];
    for (const name of ['鸿蒙系统', '安卓系统', '苹果系统']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/os/osType',
        headers: token,
        payload: { name, code: 'c' + String(ids.length) },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<Created>().id);
    }
    const edit = await app.inject({
      method: 'PUT',
      url: '/api/os/osType',
      headers: token,
      payload: { id: ids[0], name: '鸿蒙操作系统', code: 'c0' },
    });
    expect(edit.statusCode, edit.body).toBeLessThan(300);
    const del = await app.inject({ method: 'DELETE', url: '/api/os/osType', headers: token, payload: [ids[2]] });
    expect(del.statusCode, del.body).toBe(200);
    await createStaff(app, { username: 'keeper', password: 'Keeper@2024', permissions: ['osType:list', 'osType:edit'], dataScope: '全部' });
    const menusBefore = await app.database.db
      .selectFrom('sys_menu')
      .select(['id', 'permission'])
      .where('permission', 'like', 'osType:%')
      .execute();
    await app.close();
    renameOsType(project);

    // without a migration the start refuses, naming the schema, the rename and the rows
    const refused = await reopen().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SchemaChangeRefused);
    const message = (refused as Error).message;
    expect(message).toContain(
      'schemas/systemType.json: 实体重命名 osType → systemType，表 os_type → system_type，权限 osType:* → systemType:*',
    );
    expect(message).toContain('entity renamed osType -> systemType');
    expect(message).toMatch(new RegExp(`id ${ids[0]}, ${ids[1]}\\b`));

    const plan = await command(project, t!.config, []);
    expect(plan.code, plan.out).toBe(0);
    expect(plan.out).toContain('[needs a migration] renameEntity: schemas/systemType.json: 实体重命名 osType → systemType');
    expect(plan.out).toContain('wrote migrations/0001-systemType-renameEntity.json');
    expect(JSON.parse(readFileSync(join(project, 'migrations', '0001-systemType-renameEntity.json'), 'utf8'))).toEqual({
      steps: [
        {
          entity: 'systemType',
          table: 'system_type',
          kind: 'renameEntity',
          from: 'osType',
          fromTable: 'os_type',
          fromPermission: 'osType',
          permission: 'systemType',
        },
      ],
    });

    const after = await reopen();
    const db = after.database.db;
    expect(await liveColumns(db, after.database.dialect, 'os_type')).toBeNull();
    // its indexes made again under the new table's name, none left under the old
    const indexes = (
      after.database.dialect === 'postgres'
        ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'system_type'`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'system_type'`.execute(db)
    ).rows.map((r) => r.name);
    expect(indexes.some((n) => n.startsWith('idx_system_type_'))).toBe(true);
    expect(indexes.filter((n) => n.includes('os_type'))).toEqual([]);
    const admin = bearer(await loginAs(after, 'admin', ADMIN_PASSWORD));
    // the rows, under the new address; the pinyin keys computed again for the new table
    const list = await after.inject({ method: 'GET', url: '/api/systemType?sort=id,asc', headers: admin });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<Page>().content.map((r) => r.name)).toEqual(['鸿蒙操作系统', '安卓系统']);
    const byPinyin = await after.inject({ method: 'GET', url: '/api/systemType?blurry=azxt', headers: admin });
    expect(byPinyin.json<Page>().content.map((r) => r.id)).toEqual([ids[1]]);
    // its history and its recycle bin
    const history = await after.inject({ method: 'GET', url: `/api/systemType/${ids[0]}/history`, headers: admin });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).toContain('鸿蒙系统');
    const bin = await after.inject({ method: 'GET', url: '/api/systemType/recycleBin', headers: admin });
    expect(bin.statusCode, bin.body).toBe(200);
    expect(bin.body).toContain('苹果系统');
    // the same menu rows under the new keys: the role that held osType:list and :edit holds systemType's
    const menusAfter = await db
      .selectFrom('sys_menu')
      .select(['id', 'permission', 'path'])
      .where('permission', 'like', 'systemType:%')
      .execute();
    expect(menusAfter.map((m) => Number(m.id)).sort()).toEqual(menusBefore.map((m) => Number(m.id)).sort());
    expect(menusAfter.find((m) => m.permission === 'systemType:list')?.path).toBe('systemType');
    expect(await db.selectFrom('sys_menu').select('id').where('permission', 'like', 'osType:%').execute()).toEqual([]);
    const keeper = bearer(await loginAs(after, 'keeper', 'Keeper@2024'));
    const keeperList = await after.inject({ method: 'GET', url: '/api/systemType', headers: keeper });
    expect(keeperList.statusCode, keeperList.body).toBe(200);
    const keeperEdit = await after.inject({
      method: 'PUT',
      url: '/api/systemType',
      headers: keeper,
      payload: { id: ids[1], name: '安卓', code: 'c1' },
    });
    expect(keeperEdit.statusCode, keeperEdit.body).toBeLessThan(300);
    const keeperDelete = await after.inject({ method: 'DELETE', url: '/api/systemType', headers: keeper, payload: [ids[1]] });
    expect(keeperDelete.statusCode).toBe(403);
    // the old address is gone; the plan has nothing left
    expect((await after.inject({ method: 'GET', url: '/api/os/osType', headers: admin })).statusCode).toBe(404);
    await after.close();
    expect((await command(project, t!.config, [])).out).toContain('plan: nothing to change');
    const rows: Row[] = list.json<Page>().content;
    expect(rows).toHaveLength(2);
  });
});
