/**
 * Helpers for the dealer-area server tests: companies created through the staff API, members
 * written to the member table, dealer sign-in through the real route, a valid demand body.
 */
import { codeFromOutbox } from './account-helpers.ts';
import type { FastifyInstance } from 'fastify';
import { bearer } from './helpers.ts';
import type { Created } from '../support/answers.ts';
import { encryptPassword, publicKeyOf } from './auth-helpers.ts';
import { nowText } from '../../src/server/db/index.ts';
import { pushTree } from '../../src/server/modules/trees/writes.ts';

/** The car type of demand(): a branch of the tree seedCarTypes writes (ids 1-4 on a fresh database). */
export const CAR_TYPE = '大众/朗逸/2024款 1.5L';
export const CAR_TYPE_IDS = [1, 2, 3, 4];

/** Writes a small brand tree once (brand/series/model/configuration, plus a second series) and checks its ids. */
export async function seedCarTypes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const have = await db.selectFrom('brand_tree').select('id').where('name', '=', '大众').executeTakeFirst();
  if (!have) {
    await pushTree(app.database, {
      pid: 0,
      nodes: [
        {
          name: '大众',
          children: [
            { name: '朗逸', children: [{ name: '2024款 1.5L', children: [{ name: '舒适版' }, { name: '豪华版' }] }] },
            { name: '途观L', children: [{ name: '2024款 330TSI', children: [{ name: '智享版' }] }] },
          ],
        },
      ],
    });
  }
  const rows: Array<{ id: number; name: string }> = await db
    .selectFrom('brand_tree')
    .select(['id', 'name'])
    .where('id', 'in', CAR_TYPE_IDS)
    .orderBy('id')
    .execute();
  if (rows.map((r) => r.name).join('/') !== `${CAR_TYPE}/舒适版`) throw new Error(`unexpected car-type ids: ${JSON.stringify(rows)}`);
}

export const VIN_A = 'LSVAU218XN2183294';
export const VIN_B = 'LFV2A21K1A3012345';

export async function createCompany(app: FastifyInstance, adminToken: string, username: string, password = 'Dealer@123'): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/system/dbcCompany',
    headers: bearer(adminToken),
    payload: { compName: `${username}公司`, compCode: username.toUpperCase(), username, mobile: '', enabled: true, password },
  });
  if (res.statusCode !== 201) throw new Error(`company ${username}: ${res.statusCode} ${res.body}`);
  return res.json<Created>().id;
}

export async function dealerLogin(app: FastifyInstance, username: string, password = 'Dealer@123') {
  const publicKey = await publicKeyOf(app);
  return app.inject({
    method: 'POST',
    url: '/comp/dbcCompany/auth/login',
    payload: { username, password: encryptPassword(publicKey, password) },
  });
}

export async function dealerToken(app: FastifyInstance, username: string, password = 'Dealer@123'): Promise<string> {
  const res = await dealerLogin(app, username, password);
  if (res.statusCode !== 200) throw new Error(`dealer sign-in ${username}: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

export async function addMember(
  app: FastifyInstance,
  m: { mobile: string; surname: string; subscribe: number; status?: number; sex?: number },
) {
  await app.database.db
    .insertInto('dbc_member')
    .values({
      mobile: m.mobile,
      surname: m.surname,
      sex: m.sex ?? 1,
      mid: `M${m.mobile.slice(-4)}`,
      idno: '410102199003071230',
      birthday: '1990-03-07',
      status: m.status ?? 1,
      subscribe: m.subscribe,
      create_time: nowText(),
    })
    .execute();
}

/** Sends the customer's consent code (sendMessage type 5) and reads it from the development outbox. */
export async function consentCode(app: FastifyInstance, token: string, mobile: string): Promise<string> {
  // the 60 s resend rule is tested on its own: let this code go now
  await app.database.db.updateTable('sys_verify_code').set({ sent_at: 0 }).where('target', '=', mobile).execute();
  const sent = await app.inject({
    method: 'POST',
    url: '/comp/dbcCompany/sendMessage',
    headers: bearer(token),
    payload: { mobile, type: 5 },
  });
  if (sent.statusCode !== 200) throw new Error(`consent code ${mobile}: ${sent.statusCode} ${sent.body}`);
  return codeFromOutbox(app, mobile);
}

export async function addCustomer(app: FastifyInstance, token: string, mobile: string): Promise<number> {
  const code = await consentCode(app, token, mobile);
  const res = await app.inject({
    method: 'POST',
    url: '/comp/dbcCompany/submitDbcUserInfo',
    headers: bearer(token),
    payload: { mobile, code },
  });
  if (res.statusCode !== 201) throw new Error(`customer ${mobile}: ${res.statusCode} ${res.body}`);
  return res.json<Created>().id;
}

export function demand(duId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    duId,
    userCarType: CAR_TYPE,
    carTypeIds: CAR_TYPE_IDS,
    userCph: '豫A12345',
    userVin: VIN_A,
    bah: 'BA20260001',
    wxgsf: 1500.5,
    wxts: 7,
    startTime: '2026-11-01 09:00:00',
    endTime: '2026-11-08 09:00:00',
    mfts: 5,
    zfts: 2,
    foregiftPrice: 2000,
    createUser: '王经理',
    ...overrides,
  };
}

export async function submitDemand(
  app: FastifyInstance,
  token: string,
  duId: number,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  await seedCarTypes(app);
  const res = await app.inject({
    method: 'POST',
    url: '/comp/dbcCompany/submitDbcInfo',
    headers: bearer(token),
    payload: demand(duId, overrides),
  });
  if (res.statusCode !== 201) throw new Error(`demand: ${res.statusCode} ${res.body}`);
  return res.json<Created>().id;
}
