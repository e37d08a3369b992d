/**
 * Long exports and imports: above the threshold the route answers 299 and the requester's
 * console socket gets EXCEL progress (100), then success (200, with the download link) or
 * failure (500). The file is for its requester only and goes when it expires.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { deleteExpiredDownloads } from '../../src/server/realtime/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { listen, openSocket } from './ws-helpers.ts';
import type { Page } from '../support/answers.ts';
import type { SocketMessage } from '../support/shapes.ts';

const PASSWORD = 'Passw0rd!x';
const ROWS = 2500;
const THRESHOLD = 1000;

function multipart(filename: string, content: Buffer) {
  const boundary = `----rt${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe.each(testApps())('long imports and exports on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let base: string;
  let admin: string;
  let exporter: string;
  let stranger: string;

  beforeAll(async () => {
    t = await start({ exportAsyncThreshold: THRESHOLD, importAsyncThreshold: THRESHOLD, downloadTtlMinutes: 5 });
    app = t.app;
    base = await listen(app);
    admin = await loginAs(app, 'admin', ADMIN_PASSWORD);
    await createStaff(app, {
      username: 'exporter',
      password: PASSWORD,
      permissions: ['sysQuestion:list', 'sysQuestion:download', 'sysQuestion:import'],
    });
    await createStaff(app, { username: 'stranger', password: PASSWORD, permissions: ['sysQuestion:download'] });
    exporter = await loginAs(app, 'exporter', PASSWORD);
    stranger = await loginAs(app, 'stranger', PASSWORD);
    const spec = resourceByName.sysQuestion;
    const records = Array.from({ length: ROWS }, (_, i) => ({
      userType: '员工',
      model: '系统',
      title: `标题${i}`,
      content: `描述${i}`,
      status: false,
    }));
    await insertAll(app.database, spec, records);
  });
  afterAll(async () => t?.close());

  it('an export at or under the threshold still streams at once', async () => {
    const small = await app.inject({ method: 'GET', url: '/api/sysQuestion/download?model=售后', headers: bearer(exporter) });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-type']).toContain('spreadsheetml');
  });

  it('an export under the threshold with full values is logged as a full read of the resource', async () => {
    const logged = async () => {
      await app.personalReadLog.flush();
      return app.database.db
        .selectFrom('sys_log')
        .select(['description', 'method', 'username'])
        .where('description', 'like', '查看完整个人信息：问题反馈（导出）%')
        .$castTo<{ description: string; method: string; username: string }>()
        .execute();
    };
    const before = (await logged()).length;
    // masked for a caller without the key: no full read
    expect((await app.inject({ method: 'GET', url: '/api/sysQuestion/download?model=售后', headers: bearer(exporter) })).statusCode).toBe(
      200,
    );
    expect(await logged()).toHaveLength(before);
    // admin holds every key: the streamed file is a full read, logged with the route
    const streamed = await app.inject({ method: 'GET', url: '/api/sysQuestion/download?model=售后', headers: bearer(admin) });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers['content-type']).toContain('spreadsheetml');
    const after = await logged();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ username: 'admin', method: 'GET /api/sysQuestion/download' });
  });

  it('a large export answers 299, reports progress and success with a link only its requester can fetch', async () => {
    const socket = await openSocket(`${base}/webSocket/${exporter}`);
    const strangerSocket = await openSocket(`${base}/webSocket/${stranger}`);
    const res = await app.inject({ method: 'GET', url: '/api/sysQuestion/download', headers: bearer(exporter) });
    expect(res.statusCode).toBe(299);
    expect(res.json()).toMatchObject({ status: 299, message: '导出数据较多，已转入后台处理，完成后将自动下载', total: ROWS });

    const progress: SocketMessage = await socket.next((m: SocketMessage) => m.msgType === 'EXCEL' && m.code === 100);
    expect(progress.msg).toBe(`问题反馈数据开始导出，共${ROWS}条`);
    const done: SocketMessage = await socket.next((m: SocketMessage) => m.msgType === 'EXCEL' && m.code !== 100, 20_000);
    expect(done).toMatchObject({ code: 200, fileName: '问题反馈数据.xlsx' });
    expect(done.url).toMatch(/^\/api\/downloadFile\/[0-9a-f-]{36}$/);
    expect(strangerSocket.messages.filter((m: SocketMessage) => m.msgType === 'EXCEL')).toEqual([]);

    const file = await app.inject({ method: 'GET', url: done.url, headers: bearer(exporter) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(encodeURIComponent('问题反馈数据.xlsx'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0].rowCount).toBe(ROWS + 1);

    // another user's file answers exactly as a missing one
    const missing = errorOf(
      await app.inject({ method: 'GET', url: '/api/downloadFile/00000000-0000-4000-8000-000000000000', headers: bearer(stranger) }),
    );
    expect(errorOf(await app.inject({ method: 'GET', url: done.url, headers: bearer(stranger) }))).toMatchObject({
      status: 404,
      message: missing.message,
    });
    expect(errorOf(await app.inject({ method: 'GET', url: done.url, headers: bearer(admin) })).status).toBe(404);
    expect((await app.inject({ method: 'GET', url: done.url })).statusCode).toBe(401);
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/downloadFile/nonsense', headers: bearer(exporter) })).status).toBe(404);

    // expired files are deleted by the clean-up and answer 404
    expect(await deleteExpiredDownloads(app.database, Date.now() + 6 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(errorOf(await app.inject({ method: 'GET', url: done.url, headers: bearer(exporter) }))).toMatchObject({
      status: 404,
      message: '文件不存在或已过期，请重新导出',
    });
    const chunks = await app.database.db.selectFrom('sys_download_chunk').select('file_id').execute();
    expect(chunks).toEqual([]);
    socket.close();
    strangerSocket.close();
  });

  it('a background export is masked for a caller without the key; a full one and the fetch of its file are logged', async () => {
    const spec = resourceByName.sysQuestion;
    const mobileCol = spec.fields.find((f) => f.name === 'mobile')!.column;
    const nameCol = spec.fields.find((f) => f.name === 'username')!.column;
    await app.database.db
      .updateTable(spec.table)
      .set({ [mobileCol]: '13912345678', [nameCol]: '诸葛孔明' })
      .where('title', 'like', '标题1%')
      .execute();
    const exportOf = async (token: string, beforeFetch?: () => Promise<void>): Promise<{ url: string; text: string }> => {
      const socket = await openSocket(`${base}/webSocket/${token}`);
      const res = await app.inject({ method: 'GET', url: '/api/sysQuestion/download', headers: bearer(token) });
      expect(res.statusCode).toBe(299);
      const done: SocketMessage = await socket.next((m: SocketMessage) => m.msgType === 'EXCEL' && m.code !== 100, 20_000);
      socket.close();
      expect(done.code).toBe(200);
      await beforeFetch?.();
      const file = await app.inject({ method: 'GET', url: done.url, headers: bearer(token) });
      expect(file.statusCode).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const rows: string[] = [];
      wb.worksheets[0].eachRow((row) => rows.push(JSON.stringify(row.values)));
      return { url: String(done.url), text: rows.join('\n') };
    };
    const fullReads = async (username: string): Promise<Array<{ description: string; method: string }>> => {
      await app.personalReadLog.flush();
      return app.database.db
        .selectFrom('sys_log')
        .select(['description', 'method'])
        .where('username', '=', username)
        .where('description', 'like', '查看完整个人信息：%')
        .$castTo<{ description: string; method: string }>()
        .execute();
    };

    // without sysQuestion:sensitive: masked in the file, and no full read is logged
    const masked = await exportOf(exporter);
    expect(masked.text).toContain('139****5678');
    expect(masked.text).toContain('诸***');
    expect(masked.text).not.toContain('13912345678');
    expect(masked.text).not.toContain('诸葛孔明');
    expect(await fullReads('exporter')).toEqual([]);

    // admin: full values; the 299 answer and the fetch of the file are each a logged full read
    const exportsLogged = async () =>
      (await fullReads('admin')).filter((l) => l.method === 'GET /api/sysQuestion/download' && l.description.includes('问题反馈（导出）'))
        .length;
    const exportsBefore = await exportsLogged();
    const full = await exportOf(admin, async () => {
      // the start of the background export is logged on its own, before anybody fetches the file
      expect(await exportsLogged()).toBe(exportsBefore + 1);
    });
    expect(full.text).toContain('13912345678');
    expect(full.text).toContain('诸葛孔明');
    const logged = await fullReads('admin');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.some((l) => l.description.includes('问题反馈') && l.description.includes('导出'))).toBe(true);
    // the file fetched again, on its own: a row of its own
    expect((await app.inject({ method: 'GET', url: full.url, headers: bearer(admin) })).statusCode).toBe(200);
    const again = await fullReads('admin');
    expect(again.length).toBe(logged.length + 1);
    expect(again.some((l) => l.method === 'GET /api/downloadFile/:id')).toBe(true);
  });

  it('a large import answers 299 and stores every row in the background; a failing one stores none and says why', async () => {
    const socket = await openSocket(`${base}/webSocket/${exporter}`);
    const before = (await app.inject({ method: 'GET', url: '/api/sysQuestion?size=1', headers: bearer(exporter) })).json<Page>()
      .totalElements;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('问题反馈');
    ws.addRow(['身份', '模块', '标题', '问题描述']);
    for (let i = 0; i < 1500; i++) ws.addRow(['员工', '销售', `导入${i}`, `导入描述${i}`]);
    const m = multipart('反馈.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    const res = await app.inject({
      method: 'POST',
      url: '/api/sysQuestion/import',
      payload: m.payload,
      headers: { ...bearer(exporter), ...m.headers },
    });
    expect(res.statusCode).toBe(299);
    expect(res.json()).toMatchObject({ status: 299, message: '导入数据较多，已转入后台处理，请留意导入进度', total: 1500 });
    const started: SocketMessage = await socket.next((x: SocketMessage) => x.msgType === 'EXCEL' && x.code === 100);
    expect(started.msg).toBe('问题反馈数据开始导入，共1500条');
    const done: SocketMessage = await socket.next((x: SocketMessage) => x.msgType === 'EXCEL' && x.code !== 100, 20_000);
    expect(done).toMatchObject({ code: 200, msg: '问题反馈数据导入成功，共1500条' });
    const after = (await app.inject({ method: 'GET', url: '/api/sysQuestion?size=1', headers: bearer(exporter) })).json<Page>()
      .totalElements;
    expect(after).toBe(before + 1500);
    socket.messages.length = 0;

    // a failure in the background (the table refuses a row) rolls everything back and says so
    await app.database.db.schema.createIndex('sys_question_title_unique_test').unique().on('sys_question').column('title').execute();
    const dup = new ExcelJS.Workbook();
    const dws = dup.addWorksheet('问题反馈');
    dws.addRow(['身份', '模块', '标题', '问题描述']);
    for (let i = 0; i < 1200; i++) dws.addRow(['员工', '销售', i === 1100 ? '导入5' : `新导入${i}`, 'x']);
    const m2 = multipart('重复.xlsx', Buffer.from(await dup.xlsx.writeBuffer()));
    const res2 = await app.inject({
      method: 'POST',
      url: '/api/sysQuestion/import',
      payload: m2.payload,
      headers: { ...bearer(exporter), ...m2.headers },
    });
    expect(res2.statusCode).toBe(299);
    const failed: SocketMessage = await socket.next((x: SocketMessage) => x.msgType === 'EXCEL' && x.code !== 100, 20_000);
    expect(failed).toMatchObject({ code: 500, msg: '问题反馈数据导入失败：数据重复，未导入任何数据' });
    const unchanged = await app.database.db.selectFrom('sys_question').select('id').where('title', 'like', '新导入%').execute();
    expect(unchanged).toEqual([]);
    await app.database.db.schema.dropIndex('sys_question_title_unique_test').execute();
    socket.close();
  });
});
