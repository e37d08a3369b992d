/**
 * Data scope on the generic import: a file whose rows fall outside the user's departments is
 * refused whole (403, nothing written); inside the scope it is written. Uses staffunZp with the
 * import action switched on for the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { resources } from '../../src/generated/resources.ts';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created } from '../support/answers.ts';

const specs: ResourceSpec[] = resources.map((s) => (s.name === 'staffunZp' ? { ...s, actions: [...s.actions, 'import'] } : s));

async function upload(t: TestApp, token: string, rows: unknown[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('招聘');
  for (const r of rows) ws.addRow(r);
  const content = Buffer.from(await wb.xlsx.writeBuffer());
  const boundary = `----scope${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="zp.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/staffunZp/import',
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { ...bearer(token), submit_id: submitId(), 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe.each(testApps())('data scope on import on %s', (_name, start) => {
  let t: TestApp;
  let own: string;
  let mine: number;
  let other: number;

  beforeAll(async () => {
    t = await start({}, { resources: specs });
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const root = (await t.app.inject({ method: 'GET', url: '/api/dept/lazy?pid=0', headers: bearer(admin) })).json<Created[]>()[0].id;
    const mk = async (name: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/dept',
          headers: { ...bearer(admin), submit_id: submitId() },
          payload: { name, pid: root },
        })
      ).json<Created>().id;
    mine = await mk('本部门');
    other = await mk('别的部门');
    await createStaff(t.app, {
      username: 'importer',
      password: 'Import_pass1',
      permissions: ['staffunZp:import'],
      dataScope: '本级',
      deptId: mine,
    });
    own = await loginAs(t.app, 'importer', 'Import_pass1');
  }, 60_000);
  afterAll(() => t?.close());

  const header = ['所属部门', '招聘岗位', '薪资待遇', '工作区域', '招聘人数', '岗位职责', '任职要求', '是否启用'];
  const count = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('staffun_zp')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a file with a row outside the scope and writes nothing', async () => {
    const res = await upload(t, own, [
      header,
      [mine, '销售', '面议', '郑州', 1, '职责', '要求', '是'],
      [other, '售后', '面议', '郑州', 1, '职责', '要求', '是'],
    ]);
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res).message).toBe('没有权限操作该部门的数据');
    expect(await count()).toBe(0);
  });

  it('writes a file inside the scope', async () => {
    const res = await upload(t, own, [header, [mine, '销售', '面议', '郑州', 1, '职责', '要求', '是']]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await count()).toBe(1);
  });
});
