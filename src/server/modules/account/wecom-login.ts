/**
 * WeCom QR sign-in:
 *   GET /api/getQywxInfo            {configured, appid, agentid, state, loginUrl}: a fresh state,
 *                                   single use, valid STATE_TTL_MS; {configured: false} when not set up
 *   GET /api/qywxLogin?code&state   uses up the state, exchanges the code with WeCom for the user
 *                                   id and signs in the staff member bound to it (sys_user.wecom_user_id);
 *                                   the answer is the same as POST /api/login
 * The account rules of the password sign-in apply too: disabled, locked, password expired.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import '../../decorations.ts';
import { ApiError, badRequest } from '../../errors.ts';
import { cachedAccess, invalidateAccess } from '../../auth/access.ts';
import { lockedMessage, lockedUntil, passwordAgeDays, PASSWORD_DISABLE_DAYS, PASSWORD_EXPIRED } from '../../auth/account-policy.ts';
import { ADMIN_USERNAME } from '../../auth/seed.ts';
import { infoAnswer } from '../../auth/session-user.ts';
import { SessionStore } from '../../auth/sessions.ts';
import { WecomError, type WecomClient } from '../../providers/wecom.ts';
import { setLogUser } from '../logs/identity.ts';

export const STATE_TTL_MS = 5 * 60_000;

export const WECOM_MESSAGES = {
  notConfigured: '企业微信扫码登录未配置',
  paramsMissing: '缺少扫码登录参数，请重新扫码',
  stateInvalid: '扫码登录已失效，请重新扫码',
  refused: '企业微信授权失败，请重新扫码',
  unbound: '该企业微信账号未绑定系统用户，请联系管理员',
  disabled: '账号未激活',
} as const;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export function registerWecomLoginRoutes(app: FastifyInstance, wecom: WecomClient, now: () => number = Date.now): void {
  const { db } = app.database;
  const sessions = new SessionStore(db, { idleMinutes: app.config.sessionIdleMinutes, rememberMeDays: app.config.rememberMeDays, now });
  const limited = { config: { rateLimit: { max: 30, timeWindow: 60_000 } } };

  app.get('/api/getQywxInfo', limited, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!wecom.configured) return { configured: false, message: WECOM_MESSAGES.notConfigured };
    const t = now();
    await db.deleteFrom('sys_wecom_state').where('expires', '<', t).execute();
    const state = randomBytes(18).toString('base64url');
    await db
      .insertInto('sys_wecom_state')
      .values({ state, expires: t + STATE_TTL_MS })
      .execute();
    return { configured: true, appid: wecom.appid, agentid: wecom.agentid, state, loginUrl: app.config.wecomLoginUrl };
  });

  app.get('/api/qywxLogin', limited, async (request) => {
    if (!wecom.configured) throw badRequest(WECOM_MESSAGES.notConfigured);
    const q = (request.query ?? {}) as Record<string, unknown>;
    const code = text(q.code);
    const state = text(q.state);
    if (!code || !state || code.length > 512 || state.length > 64) throw badRequest(WECOM_MESSAGES.paramsMissing);
    const t = now();
    const used = await db.deleteFrom('sys_wecom_state').where('state', '=', state).where('expires', '>', t).executeTakeFirst();
    if (Number(used.numDeletedRows) !== 1) throw badRequest(WECOM_MESSAGES.stateInvalid);
    let wecomUserId: string;
    try {
      wecomUserId = await wecom.userIdOf(code);
    } catch (err) {
      if (err instanceof WecomError) {
        request.log.warn({ err }, 'WeCom sign-in refused');
        throw badRequest(WECOM_MESSAGES.refused);
      }
      throw err;
    }
    const user = await db
      .selectFrom('sys_user')
      .select(['id', 'username', 'enabled', 'locked_until', 'pwd_reset_time'])
      .where('wecom_user_id', '=', wecomUserId)
      .executeTakeFirst();
    if (!user) throw badRequest(WECOM_MESSAGES.unbound);
    setLogUser(request, String(user.username), Number(user.id));
    if (!user.enabled) throw badRequest(WECOM_MESSAGES.disabled);
    const lock = lockedUntil(user, t);
    if (lock !== null) throw new ApiError(423, lockedMessage(lock));
    const age = passwordAgeDays(user.pwd_reset_time, t);
    if (age !== null && age >= PASSWORD_DISABLE_DAYS) throw new ApiError(403, PASSWORD_EXPIRED);
    const userId = Number(user.id);
    const token = await sessions.create(userId, { remember: false, ip: request.ip, browser: request.headers['user-agent'] });
    invalidateAccess(userId);
    const access = await cachedAccess(db, userId);
    const info = await infoAnswer(db, app.config, userId, user.username === ADMIN_USERNAME, access.roles, access.permissions);
    return { token, ...info };
  });
}
