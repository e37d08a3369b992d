import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Page } from '../support/answers.ts';

const Q = '/api/sysQuestion';
const ZP = '/api/staffunZp';
const QUESTION_HEADERS = ['身份', '模块', '标题', '问题描述', '优化建议', '创建时间', '状态', '联系人', '联系电话'];

function multipart(filename: string, content: Buffer, contentType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') {
  const boundary = `----core${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('问题反馈');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function sheetRows(body: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const out: unknown[][] = [];
  ws.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}

describe.each(testApps())('xlsx export and import on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;

  const count = async (query = '') =>
    (await app.inject({ method: 'GET', url: `${Q}?size=1${query}`, headers: admin })).json<Page>().totalElements;
  const upload = (filename: string, content: Buffer, type?: string) => {
    const m = multipart(filename, content, type);
    return app.inject({ method: 'POST', url: `${Q}/import`, payload: m.payload, headers: { ...admin, ...m.headers } });
  };

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
  });
  afterAll(async () => t?.close());

  it('download streams an xlsx named 问题反馈数据.xlsx with the Chinese headers, labels and the list filters', async () => {
    const rows = [
      { userType: '员工', model: '系统', title: '甲', content: '第一条', status: false },
      { userType: '客户', model: '售后', title: '乙', content: '第二条', username: '王五', mobile: '13700137000' },
      { userType: '员工', model: '人事', title: '丙', content: '第三条' },
    ];
    for (const r of rows) expect((await app.inject({ method: 'POST', url: Q, headers: admin, payload: r })).statusCode).toBe(201);
    const second = (await app.inject({ method: 'GET', url: `${Q}?blurry=${encodeURIComponent('售后')}`, headers: admin })).json<Page>()
      .content[0];
    await app.inject({ method: 'PUT', url: Q, headers: admin, payload: { ...second, status: true } });

    const res = await app.inject({ method: 'GET', url: `${Q}/download`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('问题反馈数据.xlsx')}`);
    const sheet = await sheetRows(res.rawPayload);
    expect(sheet[0]).toEqual(QUESTION_HEADERS);
    expect(sheet).toHaveLength(4);
    // default sort id desc, options and booleans by their labels
    expect(sheet[1].slice(0, 4)).toEqual(['员工', '人事', '丙', '第三条']);
    expect(sheet[2][6]).toBe('已处理');
    expect(sheet[2].slice(7, 9)).toEqual(['王五', '13700137000']);
    expect(sheet[3][6]).toBe('未处理');
    expect(String(sheet[3][5])).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const filtered = await sheetRows(
      (await app.inject({ method: 'GET', url: `${Q}/download?status=true&page=3&size=10`, headers: admin })).rawPayload,
    );
    expect(filtered).toHaveLength(2);
    expect(filtered[1][3]).toBe('第二条');

    const bad = await app.inject({ method: 'GET', url: `${Q}/download?sort=secret,asc`, headers: admin });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toBe('不支持的排序字段: secret');

    const zp = await app.inject({ method: 'GET', url: `${ZP}/download`, headers: admin });
    expect(zp.headers['content-disposition']).toContain(encodeURIComponent('人事招聘信息数据.xlsx'));
    expect((await sheetRows(zp.rawPayload))[0]).toEqual([
      '招聘岗位',
      '薪资待遇',
      '工作区域',
      '招聘人数',
      '所属部门',
      '岗位职责',
      '任职要求',
      '是否启用',
      '备注',
    ]);
  });

  it('export reads in batches and keeps the order of any sort', async () => {
    const spec = resourceByName.sysQuestion;
    const many = Array.from({ length: 4500 }, (_, i) => ({
      userType: '员工',
      model: '其他',
      title: `批量${String(i).padStart(4, '0')}`,
      content: `batch ${i}`,
      status: i % 2 === 0,
      enabled: true,
    }));
    await insertAll(app.database, spec, many);
    const byId = await sheetRows(
      (await app.inject({ method: 'GET', url: `${Q}/download?model=${encodeURIComponent('其他')}`, headers: admin })).rawPayload,
    );
    expect(byId).toHaveLength(4501);
    expect(byId[1][2]).toBe('批量4499');
    expect(byId[4500][2]).toBe('批量0000');
    const byTitle = await sheetRows(
      (
        await app.inject({
          method: 'GET',
          url: `${Q}/download?model=${encodeURIComponent('其他')}&sort=status,asc&sort=title,desc`,
          headers: admin,
        })
      ).rawPayload,
    );
    expect(byTitle).toHaveLength(4501);
    expect(byTitle.slice(1, 3).map((r) => r[2])).toEqual(['批量4499', '批量4497']);
    expect(byTitle[2251][2]).toBe('批量4498');
    expect(byTitle[4500][2]).toBe('批量0000');
    const { rawPayload } = await app.inject({
      method: 'GET',
      url: `${Q}/download?model=${encodeURIComponent('其他')}&sort=id,asc`,
      headers: admin,
    });
    const asc = await sheetRows(rawPayload);
    expect(asc[1][2]).toBe('批量0000');
    expect(asc[4500][2]).toBe('批量4499');
  });

  it('import writes every row of a valid file, reading labels back to values', async () => {
    const before = await count(`&model=${encodeURIComponent('市场')}`);
    const file = await workbook([
      ['模块', '身份', '问题描述', '状态', '联系电话', '序号'],
      ['市场', '客户', '导入一', '已处理', 13600136000, 1],
      ['市场', '员工', '  导入二  ', '未处理', null, 2],
      [],
      ['市场', '员工', '导入三', null, '', 3],
    ]);
    const res = await upload('反馈.xlsx', file);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 3 });
    expect(await count(`&model=${encodeURIComponent('市场')}`)).toBe(before + 3);
    const list = (
      await app.inject({ method: 'GET', url: `${Q}?model=${encodeURIComponent('市场')}&sort=id,asc`, headers: admin })
    ).json<Page>().content;
    expect(list.slice(-3).map((r) => [r.userType, r.content, r.status, r.mobile])).toEqual([
      ['客户', '导入一', true, '13600136000'],
      ['员工', '导入二', false, null],
      ['员工', '导入三', false, null],
    ]);
  });

  it('a file with one bad row writes nothing and names the row and the column', async () => {
    const before = await count();
    const file = await workbook([
      ['身份', '模块', '问题描述'],
      ['员工', '系统', '好的一行'],
      ['员工', null, '缺少模块'],
      ['访客', '系统', '身份不对'],
    ]);
    const res = await upload('feedback.xlsx', file);
    expect(res.statusCode).toBe(400);
    const body = errorOf(res);
    expect(body.message).toBe('第3行「模块」: 模块不能为空');
    expect(body.errors).toEqual([
      { row: 3, column: '模块', message: '模块不能为空' },
      { row: 4, column: '身份', message: '身份只能是员工或客户' },
    ]);
    expect(await count()).toBe(before);
  });

  it('refuses files that are not xlsx, too large, unreadable or without known columns', async () => {
    const before = await count();
    let res = await upload('feedback.csv', Buffer.from('身份,模块,问题描述\n员工,系统,x\n'), 'text/csv');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('上传模板只能是xlsx格式!');

    res = await upload('big.xlsx', Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('上传模板大小不能超过 10MB!');

    res = await upload('broken.xlsx', Buffer.from('PK\u0003\u0004 this is not really a zip file at all'));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('文件无法读取，请上传有效的xlsx文件');
    const valid = await workbook([
      ['身份', '模块', '问题描述'],
      ['员工', '系统', 'x'],
    ]);
    res = await upload('truncated.xlsx', valid.subarray(0, Math.floor(valid.length / 2)));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('文件无法读取，请上传有效的xlsx文件');

    res = await upload(
      'other.xlsx',
      await workbook([
        ['姓名', '年龄'],
        ['张三', 20],
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('模板格式不正确，未找到可导入的列');

    res = await app.inject({ method: 'POST', url: `${Q}/import`, headers: admin, payload: { file: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('请选择要上传的xlsx文件');
    expect(await count()).toBe(before);
  });

  it('an exported file imports back', async () => {
    const before = await count();
    const exported = (await app.inject({ method: 'GET', url: `${Q}/download?model=${encodeURIComponent('系统')}`, headers: admin }))
      .rawPayload;
    const rows = (await sheetRows(exported)).length - 1;
    const res = await upload('问题反馈数据.xlsx', exported);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: rows });
    expect(await count()).toBe(before + rows);
  });
});
