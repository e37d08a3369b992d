/**
 * Uploads through the storage provider (database by default, disk on request), checked by
 * type (name and content) and size with Chinese messages, served back by key with their
 * content type, seen by a second instance; OCR answers 503 OCR服务未配置 without a provider.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';

/** the answer of an upload */
interface StoredFile {
  id: number;
  key: string;
  url: string;
  kind: string;
  contentType: string;
}
import { multipartFile } from './multipart.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-demo-image-bytes')]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-demo')]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF');
const AMR = Buffer.from('#!AMR\n\u0000\u0001\u0002');
const EXE = Buffer.from('MZ\u0090\u0000executable');

describe.each(testApps())('uploads on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;

  const upload = (url: string, name: string, content: Buffer, token: string | null = admin, type = 'application/octet-stream') => {
    const body = multipartFile(name, content, type);
    return t.app.inject({ method: 'POST', url, headers: { ...(token ? bearer(token) : {}), ...body.headers }, payload: body.payload });
  };
  const fileCount = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('sys_file')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t?.close());

  it('api/pictures stores a picture in the database and serves it back by key with its type', async () => {
    const res = await upload('/api/pictures', '车辆照片.png', PNG, admin, 'text/html');
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<StoredFile>();
    expect(file).toMatchObject({ name: '车辆照片.png', size: PNG.length, contentType: 'image/png', kind: 'picture' });
    expect(file.url).toBe(`/api/files/${file.key}`);
    const row = await t.app.database.db
      .selectFrom('sys_file')
      .select(['storage', 'create_user'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ storage: 'database', create_user: 'admin' });
    const got = await t.app.inject({ method: 'GET', url: file.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-disposition']).toMatch(/^inline;/);
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    // another instance on the same database serves it too
    const other = await t.reopen();
    const again = await other.inject({ method: 'GET', url: file.url });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(PNG)).toBe(true);
  });

  it('refuses wrong types, renamed files, empty and oversized uploads with Chinese messages, storing nothing', async () => {
    const before = await fileCount();
    const renamed = await upload('/api/pictures', 'virus.png', EXE);
    expect(renamed.statusCode).toBe(400);
    expect(errorOf(renamed).message).toBe('图片只能是jpg、jpeg、png、gif、webp、bmp格式');
    expect(errorOf(await upload('/api/pictures', 'doc.pdf', PDF)).message).toBe('图片只能是jpg、jpeg、png、gif、webp、bmp格式');
    expect(errorOf(await upload('/api/pictures', 'empty.png', Buffer.alloc(0))).message).toBe('上传的文件是空的');
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await upload('/api/pictures', 'big.png', big);
    expect(tooBig.statusCode).toBe(400);
    expect(errorOf(tooBig).message).toBe('图片大小不能超过 5MB');
    const notMultipart = await t.app.inject({ method: 'POST', url: '/api/pictures', headers: bearer(admin), payload: { a: 1 } });
    expect(notMultipart.statusCode).toBe(400);
    expect(errorOf(notMultipart).message).toBe('请选择要上传的文件');
    expect((await upload('/api/pictures', 'a.png', PNG, null)).statusCode).toBe(401);
    expect(await fileCount()).toBe(before);
  });

  it('documents through uploadFileApi and qiNiuContent download as attachments', async () => {
    const pdf = await upload('/api/uploadFileApi', '操作手册.pdf', PDF);
    expect(pdf.statusCode).toBe(201);
    const got = await t.app.inject({ method: 'GET', url: pdf.json<StoredFile>().url });
    expect(got.headers['content-type']).toBe('application/pdf');
    const txt = await upload('/api/qiNiuContent', '说明.txt', Buffer.from('保养提醒模板'));
    expect(txt.statusCode).toBe(201);
    const txtGot = await t.app.inject({ method: 'GET', url: txt.json<StoredFile>().url });
    expect(txtGot.headers['content-disposition']).toMatch(/^attachment;.*filename\*=UTF-8''%E8%AF%B4%E6%98%8E\.txt/);
    expect(errorOf(await upload('/api/uploadFileApi', 'setup.exe', EXE)).message).toBe(
      '文件只能是jpg、jpeg、png、gif、webp、bmp、pdf、doc、docx、xls、xlsx、ppt、pptx、txt、zip格式',
    );
  });

  it('work-messaging media: images, voice (amr, 2 MB), video (mp4), files', async () => {
    expect((await upload('/api/qywxapp/media/momentImage', 'm.jpg', JPG)).json<StoredFile>().kind).toBe('momentImage');
    expect((await upload('/api/qywxapp/media/sopImage', 's.png', PNG)).json<StoredFile>().kind).toBe('sopImage');
    expect((await upload('/api/qywxapp/media/voice', 'v.amr', AMR)).statusCode).toBe(201);
    expect(errorOf(await upload('/api/qywxapp/media/voice', 'v.mp3', Buffer.from('ID3voice'))).message).toBe('语音只能是amr格式');
    expect(errorOf(await upload('/api/qywxapp/media/voice', 'v.amr', Buffer.concat([AMR, Buffer.alloc(2 * 1024 * 1024)]))).message).toBe(
      '语音大小不能超过 2MB',
    );
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42demo')]);
    expect((await upload('/api/qywxapp/media/video', 'v.mp4', mp4)).json<StoredFile>().contentType).toBe('video/mp4');
    expect((await upload('/api/qywxapp/media/file', 'f.pdf', PDF)).json<StoredFile>().kind).toBe('qywxFile');
  });

  it('imgToTByte answers the picture as base64 without signing in or storing it', async () => {
    const before = await fileCount();
    const res = await upload('/api/public/imgToTByte', 'logo.png', PNG, null);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ contentType: 'image/png', size: PNG.length, base64: PNG.toString('base64') });
    expect(await fileCount()).toBe(before);
    expect((await upload('/api/public/imgToTByte', 'x.txt', Buffer.from('hi'), null)).statusCode).toBe(400);
  });

  it('unknown or malformed keys are 404', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/files/../../etc/passwd' })).statusCode).toBe(404);
    const none = await t.app.inject({ method: 'GET', url: `/api/files/${'0'.repeat(32)}` });
    expect(none.statusCode).toBe(404);
    expect(errorOf(none).message).toBe('文件不存在');
  });

  it('OCR calls check the image, then answer 503 OCR服务未配置 without BAIDU_OCR_* (at api/public and api/ocr)', async () => {
    for (const call of ['getCph', 'getJz', 'getXsz', 'getVin', 'getYhk']) {
      for (const base of ['/api/public', '/api/ocr']) {
        const res = await upload(`${base}/${call}`, 'photo.jpg', JPG);
        expect(res.statusCode, call).toBe(503);
        expect(errorOf(res).message).toBe('OCR服务未配置');
      }
    }
    expect(errorOf(await upload('/api/public/getVin', 'photo.pdf', PDF)).message).toBe('图片只能是jpg、jpeg、png、bmp格式');
    expect((await upload('/api/public/getVin', 'photo.jpg', JPG, null)).statusCode).toBe(401);
  });
});

describe.each(testApps())('disk storage on %s', (_dialect, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ storage: 'disk' });
  });
  afterAll(() => t?.close());

  it('keeps the content under DATA_DIR/uploads and serves it back', async () => {
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const body = multipartFile('a.png', PNG, 'image/png');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pictures',
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const row = await t.app.database.db
      .selectFrom('sys_file')
      .select(['storage', 'path', 'data'])
      .where('id', '=', res.json<StoredFile>().id)
      .executeTakeFirstOrThrow();
    expect(row.storage).toBe('disk');
    expect(row.data).toBeNull();
    const dir = join(t.config.dataDir, 'uploads', String(row.path).split('/')[0]);
    expect(existsSync(dir) && readdirSync(dir)).toContain(res.json<StoredFile>().key);
    const got = await t.app.inject({ method: 'GET', url: res.json<StoredFile>().url });
    expect(got.rawPayload.equals(PNG)).toBe(true);
  });
});
