/**
 * Recognition through the Baidu OCR provider, against a local fake of Baidu's API (a real HTTP
 * server, tests/support/fake-baidu-ocr.ts) reached through BAIDU_OCR_API_BASE: the five calls at
 * api/public (and api/ocr) answer flat fields for staff, dealer and applicant tokens; the token is
 * fetched once and renewed when Baidu says it is invalid; Baidu's errors become Chinese 4xx/503;
 * a slow or unreachable service answers 503 in bounded time; too large a picture never leaves.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/server/config.ts';
import { ApplicantTokens } from '../../src/server/modules/applicant/tokens.ts';
import { loginAs } from './auth-helpers.ts';
import { createCompany, dealerToken } from './dealer-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Row } from '../support/answers.ts';
import { multipartFile } from './multipart.ts';
import { OCR_ANSWERS } from '../../src/shared/ocr.ts';
import { FAKE_API_KEY, FAKE_SECRET_KEY, fakeImage, startFakeBaiduOcr, type FakeBaiduOcr } from '../support/fake-baidu-ocr.ts';

describe('OCR configuration', () => {
  it('takes the key and secret together, a http(s) base and a bounded timeout', () => {
    expect(loadConfig({ BAIDU_OCR_API_KEY: 'k', BAIDU_OCR_SECRET_KEY: 's' }).baiduOcrApiBase).toBe('https://aip.baidubce.com');
    expect(loadConfig({ OCR_TIMEOUT_SECONDS: '5' }).ocrTimeoutMs).toBe(5000);
    expect(() => loadConfig({ BAIDU_OCR_API_KEY: 'k' })).toThrow(ConfigError);
    expect(() => loadConfig({ BAIDU_OCR_API_BASE: 'ftp://x' })).toThrow(/BAIDU_OCR_API_BASE/);
    expect(() => loadConfig({ OCR_TIMEOUT_SECONDS: '0' })).toThrow(/OCR_TIMEOUT_SECONDS/);
  });
});

describe.each(testApps())('Baidu OCR on %s', (_dialect, start) => {
  let t: TestApp;
  let fake: FakeBaiduOcr;
  let admin: string;

  const recognise = (call: string, image: Buffer, token: string | null = admin, base = '/api/public', name = 'photo.jpg') => {
    const body = multipartFile(name, image, 'image/jpeg');
    return t.app.inject({
      method: 'POST',
      url: `${base}/${call}`,
      headers: { ...(token ? bearer(token) : {}), ...body.headers },
      payload: body.payload,
    });
  };

  beforeAll(async () => {
    fake = await startFakeBaiduOcr();
    t = await start({ baiduOcrApiKey: FAKE_API_KEY, baiduOcrSecretKey: FAKE_SECRET_KEY, baiduOcrApiBase: fake.url, ocrTimeoutMs: 1500 });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('reads a plate, a VIN, a bank card, a driving licence and a vehicle licence into flat fields', async () => {
    const plate = await recognise('getCph', fakeImage('plate:豫A·12345\ncolor:blue'));
    expect(plate.statusCode, plate.body).toBe(200);
    expect(plate.json()).toEqual({ plate: '豫A12345', color: 'blue' });

    const vin = await recognise('getVin', fakeImage('vin:lsvau218xn2183294'));
    expect(vin.json()).toEqual({ vin: 'LSVAU218XN2183294' });

    const card = await recognise('getYhk', fakeImage('card:6222 0212 3456 7890 123\nbank:中国工商银行\ntype:2'));
    expect(card.json()).toEqual({
      cardNumber: '6222021234567890123',
      bankName: '中国工商银行',
      cardType: '信用卡',
      validDate: '07/29',
      holderName: '',
    });

    const jz = await recognise('getJz', fakeImage('no:410102199003071230\nname:王伟\naddress:河南省郑州市金水区'));
    expect(jz.json()).toEqual({
      licenseNo: '410102199003071230',
      name: '王伟',
      sex: '男',
      nationality: '中国',
      address: '河南省郑州市金水区',
      birthday: '1990-03-07',
      firstIssueDate: '2010-05-12',
      vehicleClass: 'C1',
      validFrom: '2020-05-12',
      validTo: '2030-05-12',
    });

    const xsz = await recognise('getXsz', fakeImage('plate:豫A12345\nvin:LSVAU218XN2183294\nowner:王伟'));
    expect(xsz.json()).toMatchObject({
      plate: '豫A12345',
      vin: 'LSVAU218XN2183294',
      owner: '王伟',
      model: '大众汽车牌SVW71513BM',
      registerDate: '2021-03-05',
      vehicleType: '小型轿车',
    });

    // the answers carry exactly the fields the screens' x-ocr may name (src/shared/ocr.ts)
    const answers = { getCph: plate, getVin: vin, getYhk: card, getJz: jz, getXsz: xsz };
    for (const [call, res] of Object.entries(answers))
      expect(Object.keys(res.json()), call).toEqual([...OCR_ANSWERS[call as keyof typeof OCR_ANSWERS]]);
    // the older paths answer the same
    expect((await recognise('getVin', fakeImage('vin:LSVAU218XN2183294'), admin, '/api/ocr')).json()).toEqual({ vin: 'LSVAU218XN2183294' });
    // one token served every call; each recognition went to its documented endpoint with it
    expect(fake.tokensIssued).toBe(1);
    expect(fake.calls.filter((c) => c.startsWith('/rest/'))).toEqual([
      '/rest/2.0/ocr/v1/license_plate',
      '/rest/2.0/ocr/v1/vin_code',
      '/rest/2.0/ocr/v1/bankcard',
      '/rest/2.0/ocr/v1/driving_license',
      '/rest/2.0/ocr/v1/vehicle_license',
      '/rest/2.0/ocr/v1/vin_code',
    ]);
  });

  it('renews the token once when Baidu answers 110 (token invalid)', async () => {
    const before = fake.tokensIssued;
    fake.revokeTokens();
    const res = await recognise('getCph', fakeImage('plate:京KBT355'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Row>().plate).toBe('京KBT355');
    expect(fake.tokensIssued).toBe(before + 1);
  });

  it('dealer and applicant tokens may recognise too; no token, no call', async () => {
    await createCompany(t.app, admin, 'ocrdealer');
    const dealer = await dealerToken(t.app, 'ocrdealer');
    expect((await recognise('getVin', fakeImage('vin:LSVAU218XN2183294'), dealer)).json()).toEqual({ vin: 'LSVAU218XN2183294' });
    const applicant = await new ApplicantTokens(t.app.database.db).issue(t.app.database.db, 1);
    expect((await recognise('getYhk', fakeImage('card:6222021234567890123'), applicant)).statusCode).toBe(200);
    const calls = fake.calls.length;
    expect((await recognise('getVin', fakeImage('vin:LSVAU218XN2183294'), null)).statusCode).toBe(401);
    expect((await recognise('getVin', fakeImage('vin:LSVAU218XN2183294'), 'not-a-token')).statusCode).toBe(401);
    expect((await recognise('getVin', fakeImage('vin:LSVAU218XN2183294'), `ap.${randomBytes(32).toString('base64url')}`)).statusCode).toBe(
      401,
    );
    expect(fake.calls.length).toBe(calls);
  });

  it("turns Baidu's refusals into Chinese 4xx answers", async () => {
    const nothing = await recognise('getCph', fakeImage('nothing'));
    expect(nothing.statusCode).toBe(422);
    expect(errorOf(nothing).message).toBe('未识别到车牌号，请重新拍摄清晰的照片');
    // an answer without a usable value is "not recognised" too (a VIN must have 17 characters)
    const shortVin = await recognise('getVin', fakeImage('vin:LSVAU218'));
    expect(shortVin.statusCode).toBe(422);
    expect(errorOf(shortVin).message).toBe('未识别到车架号，请重新拍摄清晰的照片');
    const bad = await recognise('getYhk', fakeImage('badformat'));
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toBe('图片格式或尺寸不符合识别要求，请上传清晰的jpg、png或bmp图片');
    const busy = await recognise('getJz', fakeImage('qps'));
    expect(busy.statusCode).toBe(429);
    expect(errorOf(busy).message).toBe('识别请求过于频繁或已达今日上限，请稍后再试');
  });

  it('a slow, broken or unreachable service answers 503 in bounded time', async () => {
    const began = Date.now();
    const slow = await recognise('getVin', fakeImage('slow:4000'));
    expect(slow.statusCode).toBe(503);
    expect(errorOf(slow).message).toBe('识别服务暂时不可用，请稍后重试');
    expect(Date.now() - began).toBeLessThan(3500);
    const broken = await recognise('getVin', fakeImage('broken'));
    expect(broken.statusCode).toBe(503);
    expect(errorOf(broken).message).toBe('识别服务暂时不可用，请稍后重试');

    const closed = await startFakeBaiduOcr();
    const url = closed.url;
    await closed.close();
    const app = await (await import('../../src/server/app.ts')).buildApp({ ...t.config, baiduOcrApiBase: url });
    try {
      await app.ready();
      const token = await loginAs(app, 'admin', ADMIN_PASSWORD);
      const body = multipartFile('photo.jpg', fakeImage('vin:LSVAU218XN2183294'), 'image/jpeg');
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/getVin',
        headers: { ...bearer(token), ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(503);
      expect(errorOf(res).message).toBe('识别服务暂时不可用，请稍后重试');
    } finally {
      await app.close();
    }
  });

  it('wrong keys answer 503 OCR服务鉴权失败; too large a picture is refused before any call', async () => {
    const app = await (await import('../../src/server/app.ts')).buildApp({ ...t.config, baiduOcrSecretKey: 'wrong-secret' });
    try {
      await app.ready();
      const token = await loginAs(app, 'admin', ADMIN_PASSWORD);
      const body = multipartFile('photo.jpg', fakeImage('vin:LSVAU218XN2183294'), 'image/jpeg');
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/getVin',
        headers: { ...bearer(token), ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(503);
      expect(errorOf(res).message).toBe('OCR服务鉴权失败，请联系管理员检查OCR配置');
    } finally {
      await app.close();
    }
    const calls = fake.calls.length;
    const big = await recognise('getCph', Buffer.concat([fakeImage('plate:豫A12345\n'), Buffer.alloc(4 * 1024 * 1024)]));
    expect(big.statusCode).toBe(400);
    expect(errorOf(big).message).toMatch(/不能超过/);
    expect(fake.calls.length).toBe(calls);
  });

  it('api/public/uploadFileApi stores a document for a dealer as for staff', async () => {
    const dealer = await dealerToken(t.app, 'ocrdealer');
    const body = multipartFile('说明.pdf', Buffer.from('%PDF-1.7\n%%EOF'), 'application/pdf');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/public/uploadFileApi',
      headers: { ...bearer(dealer), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: '说明.pdf', contentType: 'application/pdf', kind: 'file' });
    const none = await t.app.inject({ method: 'POST', url: '/api/public/uploadFileApi', headers: body.headers, payload: body.payload });
    expect(none.statusCode).toBe(401);
  });
});
