/**
 * Customer-service helpers (客服):
 *   GET /api/kf/phoneToAddress?phone=13800138000  -> {phone, province, city, carrier, location}
 *       offline look-up (phone-location.ts); any signed-in staff member; 400 请输入正确的11位手机号码;
 *       an unknown range answers empty strings.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../errors.ts';
import { MOBILE_INVALID, normaliseMobile, phoneLocation } from './phone-location.ts';

export async function registerKfRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/kf/phoneToAddress', { preHandler: app.authenticate, config: { rateLimit: { max: 600, timeWindow: 60_000 } } }, async (request) => {
    const raw = (request.query as Record<string, unknown>).phone;
    const mobile = typeof raw === 'string' && raw.length <= 32 ? normaliseMobile(raw) : null;
    if (!mobile) throw badRequest(MOBILE_INVALID);
    return phoneLocation(mobile);
  });
}
