/**
 * Data decision centre (数据决策中心) SSO link.
 *
 * GET /api/decision/getDecision -> { ssoHref: string | null }
 *   Needs DecisionCenter:list. The user admin is refused (403) even though admin passes every
 *   other check: the decision centre has no admin account. With SSO_LINK_URL set the link is
 *   `${SSO_LINK_URL}?user=<username>&ts=<epoch ms>&sign=<hex HMAC-SHA256(SSO_SECRET, user + "\n" + ts)>`,
 *   which the decision centre verifies (and refuses when ts is older than it allows); without it
 *   ssoHref is null and the landing page goes to /404.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { forbidden, unauthorized } from '../../errors.ts';

export const DECISION_PERMISSION = 'DecisionCenter:list';

export function signSsoLink(base: string, secret: string, username: string, now = Date.now()): string {
  const ts = String(now);
  const sign = createHmac('sha256', secret).update(`${username}\n${ts}`).digest('hex');
  const url = new URL(base);
  url.searchParams.set('user', username);
  url.searchParams.set('ts', ts);
  url.searchParams.set('sign', sign);
  return url.toString();
}

export async function registerDecisionRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/decision/getDecision', { preHandler: app.requirePermission(DECISION_PERMISSION) }, async (request) => {
    const user = request.user;
    if (!user) throw unauthorized();
    if (user.isAdmin) throw forbidden('管理员账号不能进入数据决策中心');
    const { ssoLinkUrl, ssoSecret } = app.config;
    return { ssoHref: ssoLinkUrl ? signSsoLink(ssoLinkUrl, ssoSecret, user.username) : null };
  });
}
