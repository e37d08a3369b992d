/**
 * 系统设置: holders of sysConfig:edit set the favicon, logo, company name, filing number and
 * home image (pictures uploaded through api/pictures first); the values come back in `sys` of
 * api/info and in the public api/system/sysConfigInit/anon/pc; /favicon.ico serves the uploaded
 * favicon, else a default icon; bad values are a Chinese 400 that changes nothing.
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Row } from '../support/answers.ts';
import { multipartFile } from './multipart.ts';
import { defaultFavicon } from '../../src/server/modules/system/settings.ts';
import { ADMIN_ROLE } from '../../src/server/auth/seed.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-favicon-bytes')]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-logo')]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF');
const PASSWORD = 'Settings_pass1';

describe.each(testApps())('system settings on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;

  const upload = async (url: string, name: string, content: Buffer) => {
    const body = multipartFile(name, content, 'application/octet-stream');
    const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(admin), ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ url: string }>().url;
  };
  const put = (token: string, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/system/sysConfig',
      headers: { ...bearer(token), submit_id: submitId() },
      payload: payload as object,
    });
  const publicSettings = async () => (await t.app.inject({ method: 'GET', url: '/api/system/sysConfigInit/anon/pc?type=pc' })).json<Row>();

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t?.close());

  it('serves a default favicon before one is set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(defaultFavicon())).toBe(true);
    // a real 32×32 PNG whose pixels are not all one colour
    const png = res.rawPayload;
    expect(png.readUInt32BE(16)).toBe(32);
    expect(png.readUInt32BE(20)).toBe(32);
    const idatLen = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString('latin1')).toBe('IDAT');
    const rows = inflateSync(png.subarray(41, 41 + idatLen));
    expect(rows.length).toBe(32 * (32 * 4 + 1));
    const colours = new Set<string>();
    for (let i = 0; i < rows.length; i += 4) colours.add(rows.subarray(i, i + 4).toString('hex'));
    expect(colours.size).toBeGreaterThan(3);
  });

  it('an administrator sets every field; sys of api/info and the public settings answer them; /favicon.ico serves the upload', async () => {
    const favicon = await upload('/api/pictures', 'icon.png', PNG);
    const logo = await upload('/api/pictures', 'logo.jpg', JPG);
    const home = await upload('/api/pictures', 'home.png', PNG);
    const res = await put(admin, {
      favicon,
      logo,
      sysHomeImg: home,
      compName: '  顺达汽车集团 ',
      recordNumber: '沪ICP备12345678号-1',
      title: '顺达后台',
    });
    expect(res.statusCode, res.body).toBe(204);
    const expected = { favicon, logo, sysHomeImg: home, compName: '顺达汽车集团', recordNumber: '沪ICP备12345678号-1', title: '顺达后台' };
    expect(await publicSettings()).toEqual(expected);
    const read = await t.app.inject({ method: 'GET', url: '/api/system/sysConfig', headers: bearer(admin) });
    expect(read.json()).toEqual(expected);
    // a new sign-in and the session info carry them
    const again = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const info = await t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(again) });
    expect(info.json<Row>().sys).toEqual(expected);
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.rawPayload.equals(PNG)).toBe(true);
    // one field at a time leaves the others; '' clears a picture and the default icon returns
    expect((await put(admin, { favicon: '' })).statusCode).toBe(204);
    expect(await publicSettings()).toEqual({ ...expected, favicon: '' });
    expect((await t.app.inject({ method: 'GET', url: '/favicon.ico' })).rawPayload.equals(defaultFavicon())).toBe(true);
  });

  it('bad values are a Chinese 400 and change nothing', async () => {
    const before = await publicSettings();
    const pdf = await upload('/api/uploadFileApi', 'a.pdf', PDF);
    const cases: Array<[unknown, string]> = [
      [{ logo: pdf }, '系统Logo请上传图片'],
      [{ favicon: 'https://evil.example/x.png' }, '网站图标请上传图片'],
      [{ sysHomeImg: `/api/files/${'0'.repeat(32)}` }, '首页图片请上传图片'],
      [{ compName: '' }, '公司名称不能为空'],
      [{ compName: '名'.repeat(51) }, '公司名称不能超过50个字符'],
      [{ recordNumber: '<script>' }, '备案号不能包含特殊字符'],
      [{ recordNumber: 12 }, '备案号格式不正确'],
      [{ colour: 'red' }, '未知的设置项：colour'],
      [{}, '请求内容不能为空'],
      [[], '请求内容不能为空'],
      // a good field beside a bad one is not written either
      [{ compName: '新名字', logo: pdf }, '系统Logo请上传图片'],
    ];
    for (const [payload, message] of cases) {
      const res = await put(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(res).message).toBe(message);
    }
    expect(await publicSettings()).toEqual(before);
  });

  it('reading takes sysConfig:list, writing sysConfig:edit; the menu and keys are seeded for the administrator role', async () => {
    await createStaff(t.app, { username: 'settingsreader', password: PASSWORD, permissions: ['sysConfig:list'] });
    const reader = await loginAs(t.app, 'settingsreader', PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/api/system/sysConfig', headers: bearer(reader) })).statusCode).toBe(200);
    expect((await put(reader, { compName: '别人的公司' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/system/sysConfig' })).statusCode).toBe(401);
    const { db } = t.app.database;
    const menus = await db
      .selectFrom('sys_menu')
      .innerJoin('sys_roles_menus', 'sys_roles_menus.menu_id', 'sys_menu.id')
      .innerJoin('sys_role', 'sys_role.id', 'sys_roles_menus.role_id')
      .select(['sys_menu.permission', 'sys_menu.path', 'sys_menu.title'])
      .where('sys_role.name', '=', ADMIN_ROLE)
      .where('sys_menu.permission', 'in', ['sysConfig:list', 'sysConfig:edit'])
      .execute();
    expect(menus.map((m): unknown => m.permission).sort()).toEqual(['sysConfig:edit', 'sysConfig:list']);
    expect(menus.find((m) => m.permission === 'sysConfig:list')).toMatchObject({ path: 'system/settings', title: '系统设置' });
  });
});
