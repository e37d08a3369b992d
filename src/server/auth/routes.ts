/**
 * Sign-in routes: GET /api/code (captcha), GET /api/publicKey, POST /api/login,
 * GET /api/info, DELETE /api/logout.
 */
import type { Db } from '../types.ts';
import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/rate-limit';
import '../decorations.ts';
import { ApiError, badRequest, unauthorized } from '../errors.ts';
import { isStorageFull } from '../db/storage-full.ts';
import { cachedAccess, invalidateAccess } from './access.ts';
import type { CaptchaStore } from './captcha.ts';
import type { FailureThrottle } from './login-throttle.ts';
import { checkPassword } from './passwords.ts';
import {
  clearFailures,
  lockedMessage,
  lockedUntil,
  passwordAgeDays,
  PASSWORD_DISABLE_DAYS,
  PASSWORD_EXPIRED,
  recordFailure,
} from './account-policy.ts';
import { decryptPassword, type RsaKeys } from './rsa.ts';
import { ADMIN_USERNAME } from './seed.ts';
import { infoAnswer } from './session-user.ts';
import { setLogUser } from './acting-user.ts';
import type { SessionStore } from './sessions.ts';

export interface AuthServices {
  keys: RsaKeys;
  sessions: SessionStore;
  captchas: CaptchaStore;
  throttle: FailureThrottle;
  /** clock in epoch ms (tests) */
  now: () => number;
}

/** A catch handler: a write that finds the disk full is skipped (answering `value`), other errors still fail. */
const skipWhenFull =
  <T>(value: T) =>
  (err: unknown): T => {
    if (isStorageFull(err)) return value;
    throw err;
  };

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

/** The user signing in: by user name first, else by phone. */
async function findUser(db: Db, login: string) {
  if (login.length > 64) return undefined;
  const rows = await db
    .selectFrom('sys_user')
    .select(['id', 'username', 'password', 'enabled', 'locked_until', 'pwd_reset_time'])
    .where((eb) => eb.or([eb('username', '=', login), eb('phone', '=', login)]))
    .$castTo<{
      id: number;
      username: string;
      password: string | null;
      enabled: number | boolean;
      locked_until: number | null;
      pwd_reset_time: string | null;
    }>()
    .execute();
  return rows.find((r) => r.username === login) ?? rows[0];
}

export function registerAuthRoutes(app: FastifyInstance, s: AuthServices): void {
  const db = app.database.db;

  // each call stores a row: capped per address (when the app registers @fastify/rate-limit)
  app.get('/api/code', { config: { rateLimit: { max: 120, timeWindow: 60_000 } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!app.config.captchaEnabled) return { img: '', uuid: '', enabled: false };
    const { uuid, img } = await s.captchas.create();
    return { img, uuid, enabled: true };
  });

  app.get('/api/publicKey', () => ({ publicKey: s.keys.publicKeyBase64 }));

  app.post('/api/login', async (request) => {
    const ip = request.ip;
    if (await s.throttle.blocked(ip)) throw new ApiError(429, '登录失败次数过多，请稍后再试');
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const login = text(body.username).trim();
    const password = text(body.password).trim();
    const code = text(body.code).trim();
    const uuid = text(body.uuid).trim();
    if (!login) throw badRequest('用户名/手机号不能为空');
    if (!password) throw badRequest('密码不能为空');
    if (app.config.captchaEnabled) {
      if (!code) throw badRequest('验证码不能为空');
      const result = await s.captchas.check(uuid, code);
      if (result !== 'ok') {
        app.metrics?.signIn('staff', 'failure');
        await s.throttle.fail(ip);
        throw badRequest(result === 'missing' ? '验证码不存在或已过期' : '验证码错误');
      }
    }
    const plain = decryptPassword(s.keys, password);
    const user = await findUser(db, login);
    const now = s.now();
    const lock = user ? lockedUntil(user, now) : null;
    // compare even when the user is unknown, locked or the ciphertext bad: same time
    const ok = await checkPassword(plain ?? '', user?.password);
    if (lock !== null) throw new ApiError(423, lockedMessage(lock));
    if (!plain || !user || !ok) {
      app.metrics?.signIn('staff', 'failure');
      await s.throttle.fail(ip);
      // a password that was tried counts against the account; an undecryptable one is no guess
      if (user && plain) {
        // on a full disk the attempt goes uncounted (the address throttle still holds) rather than answering 507
        const until = await recordFailure(db, app.database.dialect, Number(user.id), now).catch(skipWhenFull(null));
        if (until !== null) {
          app.metrics?.signIn('staff', 'lockout');
          throw new ApiError(423, lockedMessage(until));
        }
      }
      throw badRequest('用户名或密码错误');
    }
    if (!user.enabled) throw badRequest('账号未激活');
    const userId = Number(user.id);
    setLogUser(request, String(user.username), userId);
    await clearFailures(db, userId).catch(skipWhenFull(undefined));
    const age = passwordAgeDays(user.pwd_reset_time, now);
    if (age !== null && age >= PASSWORD_DISABLE_DAYS) throw new ApiError(403, PASSWORD_EXPIRED);
    const remember = body.rememberMe === true || body.rememberMe === 'true';
    const token = await s.sessions.create(userId, { remember, ip, browser: request.headers['user-agent'] });
    invalidateAccess(userId);
    const access = await cachedAccess(db, userId);
    const info = await infoAnswer(db, app.config, userId, user.username === ADMIN_USERNAME, access.roles, access.permissions);
    // with 记住我 the browser keeps its cookie as long as the server keeps the session
    return { token, ...(remember ? { rememberMeDays: app.config.rememberMeDays } : {}), ...info };
  });

  app.get('/api/info', { preHandler: app.authenticate }, async (request) => {
    const u = request.user;
    if (!u) throw unauthorized();
    return infoAnswer(db, app.config, u.id, u.isAdmin, u.roles, u.permissions);
  });

  app.delete('/api/logout', { preHandler: app.authenticate }, async (request) => {
    const u = request.user;
    if (!u) throw unauthorized();
    await s.sessions.destroy(u.sessionId);
    return {};
  });
}
