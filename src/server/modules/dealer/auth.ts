/**
 * Dealer sign-in: POST /comp/dbcCompany/auth/login {username, password} (the password RSA-OAEP
 * encrypted under GET /api/publicKey, like the staff sign-in), GET .../auth/logout,
 * GET .../auth/info; and app.authenticateDealer, the preHandler of every comp/dbcCompany route.
 * Credentials never travel in the address: a GET of the sign-in is refused with a 405.
 * Failed sign-ins: more than 60 from one address in 10 minutes answer 429; 5 wrong passwords for
 * one company in 15 minutes lock it for 15 minutes (423), counted on the company row.
 */
import { markIdentity } from '../../auth/route-catalogue.ts';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError, badRequest, errorBody, unauthorized } from '../../errors.ts';
import { checkPassword } from '../../auth/passwords.ts';
import { loginThrottleFor } from '../../auth/login-throttle.ts';
import { clearFailures, lockedMessage, lockedUntil, recordFailure } from '../../auth/account-policy.ts';
import { decryptPassword, loadOrCreateKeys } from '../../auth/rsa.ts';
import type { DealerSessions } from './sessions.ts';
import type { DealerUser } from './types.ts';

export const DEALER_BASE = '/comp/dbcCompany';
export const DEALER_LOGIN_GET_REFUSED = '请使用POST方式提交账号和密码，账号和密码不能放在地址中';
export const STAFF_TOKEN_REFUSED = '请使用经销商账号登录';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function dealerAnswer(d: Pick<DealerUser, 'compId' | 'compName' | 'compCode' | 'username' | 'mobile' | 'lockTime'>) {
  return { id: d.compId, compName: d.compName, compCode: d.compCode, username: d.username, mobile: d.mobile, lockTime: d.lockTime };
}

export async function registerDealerAuth(app: FastifyInstance, sessions: DealerSessions, now: () => number = Date.now): Promise<void> {
  const db = app.database.db;
  const keys = await loadOrCreateKeys(db);
  const throttle = loginThrottleFor(app.database, 'dealer');
  if (!app.hasRequestDecorator('dealer')) app.decorateRequest('dealer', undefined);

  const authenticateDealer: preHandlerAsyncHookHandler = async function (request) {
    if (request.dealer) return;
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized();
    const dealer = await sessions.lookup(match[1]);
    if (!dealer) {
      if (await sessions.isStaffToken(match[1])) throw unauthorized(STAFF_TOKEN_REFUSED);
      throw unauthorized();
    }
    request.dealer = dealer;
  };
  app.decorate('authenticateDealer', markIdentity(authenticateDealer, 'dealer'));

  // the spec writes the sign-in as a GET with a body; a password must not travel in an address
  // (logs, proxies, browser history), so only POST signs in and a GET is told so
  app.get(`${DEALER_BASE}/auth/login`, async (_request, reply) => {
    return reply.status(405).header('allow', 'POST').send(errorBody(405, DEALER_LOGIN_GET_REFUSED));
  });

  app.post(`${DEALER_BASE}/auth/login`, async (request) => {
    const ip = request.ip;
    if (await throttle.blocked(ip)) throw new ApiError(429, '登录失败次数过多，请稍后再试');
    const body = (request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {}) as Record<
      string,
      unknown
    >;
    const username = text(body.username).trim();
    const password = text(body.password).trim();
    if (!username) throw badRequest('账号不能为空');
    if (!password) throw badRequest('密码不能为空');
    const plain = decryptPassword(keys, password);
    const company =
      username.length <= 64
        ? await db
            .selectFrom('dbc_company')
            .select(['id', 'comp_name', 'comp_code', 'username', 'mobile', 'enabled', 'password', 'locked_until', 'lock_time'])
            .where('username', '=', username)
            .$castTo<{
              id: number;
              comp_name: string;
              comp_code: string;
              username: string;
              mobile: string | null;
              enabled: number | boolean;
              password: string | null;
              locked_until: number | null;
              lock_time: number | null;
            }>()
            .executeTakeFirst()
        : undefined;
    const at = now();
    const lock = company ? lockedUntil(company, at) : null;
    const ok = await checkPassword(plain ?? '', company?.password);
    if (lock !== null) throw new ApiError(423, lockedMessage(lock));
    if (!plain) {
      app.metrics?.signIn('dealer', 'failure');
      await throttle.fail(ip);
      throw badRequest('密码格式不正确，请刷新登录页后重试');
    }
    if (!company || !ok) {
      app.metrics?.signIn('dealer', 'failure');
      await throttle.fail(ip);
      if (company) {
        const until = await recordFailure(db, app.database.dialect, Number(company.id), at, 'dbc_company');
        if (until !== null) {
          app.metrics?.signIn('dealer', 'lockout');
          throw new ApiError(423, lockedMessage(until));
        }
      }
      throw badRequest('账号或密码错误');
    }
    if (!company.enabled) throw badRequest('账号已停用，请联系管理员');
    const compId = Number(company.id);
    await clearFailures(db, compId, 'dbc_company');
    const token = await sessions.create(compId, { ip, browser: request.headers['user-agent'] });
    return {
      token,
      user: dealerAnswer({
        compId,
        compName: company.comp_name,
        compCode: company.comp_code,
        username: company.username,
        mobile: company.mobile ?? null,
        lockTime: Number(company.lock_time ?? 0),
      }),
    };
  });

  app.get(`${DEALER_BASE}/auth/logout`, { preHandler: authenticateDealer }, async (request) => {
    await sessions.destroy(request.dealer!.sessionId);
    return {};
  });

  app.get(`${DEALER_BASE}/auth/info`, { preHandler: authenticateDealer }, (request) => dealerAnswer(request.dealer!));
}
