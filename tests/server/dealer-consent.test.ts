/**
 * The dealer portal and members' personal data: no dealer answer holds a member's full ID number
 * or birthday; a membership check answers alike for members and non-members until the customer's
 * consent code is given; the look-ups are limited per dealer company, whatever the address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { loginAs } from './auth-helpers.ts';
import { addCustomer, addMember, consentCode, createCompany, dealerToken, submitDemand } from './dealer-helpers.ts';
import { MEMBER_LOOKUPS_PER_MINUTE } from '../../src/server/modules/dealer/customers.ts';
import { SEND_PER_MINUTE } from '../../src/server/modules/dealer/account.ts';

const FULL_IDNO = '410102199003071230';
const BIRTHDAY = '1990-03-07';

describe.each(testApps())('dealer consent and masks on %s', (_name, start) => {
  let t: TestApp;
  let a: string;
  let admin: string;
  const inject = (method: string, url: string, token: string, payload?: unknown, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: bearer(token),
      remoteAddress,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createCompany(t.app, admin, 'consenta');
    await createCompany(t.app, admin, 'consentb');
    await createCompany(t.app, admin, 'consentc');
    a = await dealerToken(t.app, 'consenta');
    await addMember(t.app, { mobile: '13700000001', surname: '张伟', subscribe: 1 });
    await addMember(t.app, { mobile: '13700000002', surname: '李娜', subscribe: 1 });
  });
  afterAll(() => t.close());

  it('never answers a dealer the full ID number or birthday, while the stored customer keeps them', async () => {
    const bodies: string[] = [];
    const keep = async (p: ReturnType<typeof inject>) => {
      const res = await p;
      expect(res.statusCode).toBeLessThan(300);
      bodies.push(res.body);
      return res;
    };
    const code = await consentCode(t.app, a, '13700000001');
    await keep(inject('GET', `/comp/dbcCompany/getMember?mobile=13700000001&code=${code}`, a));
    const created = await keep(
      inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, { mobile: '13700000001', code: await consentCode(t.app, a, '13700000001') }),
    );
    const id = created.json<{ id: number }>().id;
    await keep(inject('GET', '/comp/dbcCompany/getDbcUserInfos?page=0&size=10', a));
    await keep(inject('GET', `/comp/dbcCompany/getDbcUserInfo?id=${id}`, a));
    await keep(inject('PUT', '/comp/dbcCompany/updateDbcUserInfo', a, { id, mobile: '13700000001' }));
    const demandId = await submitDemand(t.app, a, id);
    await keep(inject('POST', '/comp/dbcCompany/getDbcInfos', a, { page: 0, size: 10 }));
    await keep(inject('GET', `/comp/dbcCompany/getDbcInfo?id=${demandId}`, a));
    expect(bodies).toHaveLength(7);
    for (const body of bodies) {
      expect(body).not.toContain(FULL_IDNO);
      expect(body).not.toContain(BIRTHDAY);
    }
    expect(created.json()).toMatchObject({ surname: '张伟', idno: '4101*********71230' });
    const stored = await t.app.database.db.selectFrom('dbc_user_info').select(['idno']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.idno).toBe(FULL_IDNO);
    // staff holding the key read the full value
    const staff = await t.app.inject({ method: 'GET', url: `/api/dbc/dbcUserInfo?id=${id}`, headers: bearer(admin) });
    expect(staff.body).toContain(FULL_IDNO);
  });

  it('answers a member and a non-member alike without the consent code or with a wrong one', async () => {
    const answer = async (mobile: string, code?: string) => {
      const body = code === undefined ? { mobile } : { mobile, code };
      const submit = await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, body);
      const q = code === undefined ? '' : `&code=${code}`;
      const member = await inject('GET', `/comp/dbcCompany/getMember?mobile=${mobile}${q}`, a);
      const text = (r: Parameters<typeof errorOf>[0]) => errorOf(r).message;
      return [submit.statusCode, text(submit), member.statusCode, text(member)];
    };
    for (const code of [undefined, '', '000000', '12ab']) {
      const forMember = await answer('13700000002', code);
      const forStranger = await answer('13700000099', code);
      expect(forMember).toEqual(forStranger);
      expect(forMember[0]).toBe(400);
    }
    expect((await answer('13700000002'))[1]).toBe('请输入客户收到的验证码');
    expect((await answer('13700000002', '000000'))[1]).toBe('验证码错误或已过期');
    // a code sent to another mobile does not pass
    const other = await consentCode(t.app, a, '13700000098');
    expect(errorOf(await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, { mobile: '13700000002', code: other })).message).toBe(
      '验证码错误或已过期',
    );
  });

  it('needs a new consent code when a customer mobile changes', async () => {
    const b = await dealerToken(t.app, 'consentb');
    const id = await addCustomer(t.app, b, '13700000001');
    const change = (code?: string) => inject('PUT', '/comp/dbcCompany/updateDbcUserInfo', b, { id, mobile: '13700000002', code });
    expect(errorOf(await change()).message).toBe('请输入客户收到的验证码');
    expect(errorOf(await change('000000')).message).toBe('验证码错误或已过期');
    expect((await change(await consentCode(t.app, b, '13700000002'))).statusCode).toBe(204);
  });

  it(`limits membership look-ups to ${MEMBER_LOOKUPS_PER_MINUTE} a minute per dealer, from any address`, async () => {
    const c = await dealerToken(t.app, 'consentc');
    for (let i = 0; i < MEMBER_LOOKUPS_PER_MINUTE; i++) {
      const url = i % 2 ? '/comp/dbcCompany/getMember?mobile=13700000002' : '/comp/dbcCompany/submitDbcUserInfo';
      const res = await inject(i % 2 ? 'GET' : 'POST', url, c, i % 2 ? undefined : { mobile: '13700000002' }, `10.0.${i}.1`);
      expect(res.statusCode).toBe(400);
    }
    const over = await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', c, { mobile: '13700000002' }, '10.9.9.9');
    expect(over.statusCode).toBe(429);
    expect(errorOf(over).message).toBe('请求过于频繁，请稍后再试');
    // another dealer from the same address is not held back
    const other = await inject('POST', '/comp/dbcCompany/submitDbcUserInfo', a, { mobile: '13700000002' }, '10.9.9.9');
    expect(other.statusCode).toBe(400);
  });

  it(`limits codes to ${SEND_PER_MINUTE} a minute per dealer, from any address`, async () => {
    await createCompany(t.app, admin, 'consentsms');
    const d = await dealerToken(t.app, 'consentsms');
    const send = (i: number) =>
      inject('POST', '/comp/dbcCompany/sendMessage', d, { mobile: `1370000${String(1000 + i)}`, type: 5 }, `10.7.${i}.1`);
    for (let i = 0; i < SEND_PER_MINUTE; i++) expect((await send(i)).statusCode).toBe(200);
    const over = await send(SEND_PER_MINUTE);
    expect(over.statusCode).toBe(429);
    expect(errorOf(over).message).toBe('请求过于频繁，请稍后再试');
  });
});

const postgres = testApps().filter(([name]) => name === 'postgres');
const pgCases = postgres.length ? postgres : [['postgres', undefined as never] as (typeof postgres)[number]];

describe.skipIf(postgres.length === 0).each(pgCases)('the per-dealer look-up limit on two instances of one %s database', (_name, start) => {
  let t: TestApp;
  let second: TestApp['app'];
  beforeAll(async () => {
    t = await start();
    second = await t.reopen();
  });
  afterAll(async () => t?.close());

  it('counts the look-ups made through both instances', async () => {
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createCompany(t.app, admin, 'consenttwo');
    const token = await dealerToken(t.app, 'consenttwo');
    const codes: number[] = [];
    for (let i = 0; i < MEMBER_LOOKUPS_PER_MINUTE + 2; i++) {
      const app = i % 2 ? second : t.app;
      const res = await app.inject({
        method: 'POST',
        url: '/comp/dbcCompany/submitDbcUserInfo',
        headers: bearer(token),
        payload: { mobile: '13700000003' },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, MEMBER_LOOKUPS_PER_MINUTE).every((c) => c === 400)).toBe(true);
    expect(codes.slice(MEMBER_LOOKUPS_PER_MINUTE)).toEqual([429, 429]);
  });
});
