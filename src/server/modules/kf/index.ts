/**
 * Customer-service helpers (客服):
 *   GET /api/kf/phoneToAddress?phone=13800138000  -> {phone, province, city, carrier, location}
 *       offline look-up (phone-location.ts); any signed-in staff member; 400 请输入正确的11位手机号码;
 *       an unknown range answers empty strings.
 *   GET /api/kf/phoneToAddress?resource=sysQuestion&id=5
 *       the same for the mobile (the first `x-mask: phone` property) of one record, for screens
 *       whose list shows that mobile masked: needs the resource's `:list` key and the record inside
 *       the caller's data scope; the answer's phone stays masked without `:sensitive`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import { permissionKey } from '../../../shared/resource-spec.ts';
import { maskPhone } from '../../../shared/masks.ts';
import { assertReadable, findById, positiveId, storedScopeValues } from '../../crud/index.ts';
import { seesPersonalData } from '../../crud/access/personal-data.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { MOBILE_INVALID, normaliseMobile, phoneLocation, type PhoneLocation } from './phone-location.ts';

const EMPTY = { province: '', city: '', carrier: '', location: '' };

async function recordMobile(app: FastifyInstance, request: FastifyRequest, name: unknown, rawId: unknown): Promise<PhoneLocation> {
  const spec = typeof name === 'string' && Object.hasOwn(resourceByName, name) ? resourceByName[name] : undefined;
  const field = spec?.fields.find((f) => f.mask === 'phone');
  if (!spec || !field) throw badRequest('该数据没有手机号码');
  const id = positiveId(rawId);
  if (id === undefined) throw badRequest('ID不正确');
  const user = request.user!;
  if (!user.isAdmin && !user.permissions.has(permissionKey(spec, 'list'))) throw forbidden();
  const record = await findById(app.database, spec, id);
  // a record outside the caller's data scope answers as a missing one
  if (!record) throw notFound();
  await assertReadable(app.database, spec, request, (await storedScopeValues(app.database, spec, [id]))[0] ?? null);
  const mobile = typeof record[field.name] === 'string' ? normaliseMobile(record[field.name] as string) : null;
  if (!mobile) return { phone: '', ...EMPTY };
  const found = await phoneLocation(mobile);
  if (!seesPersonalData(request, spec)) return { ...found, phone: maskPhone(mobile) };
  request.personalDataRead = { resource: spec.name, ids: [id] };
  return found;
}

export function registerKfRoutes(app: FastifyInstance): void {
  app.get(
    '/api/kf/phoneToAddress',
    { preHandler: app.authenticate, config: { rateLimit: { max: 600, timeWindow: 60_000 } } },
    async (request) => {
      const query = request.query as Record<string, unknown>;
      if (query.resource !== undefined) return recordMobile(app, request, query.resource, query.id);
      const raw = query.phone;
      const mobile = typeof raw === 'string' && raw.length <= 32 ? normaliseMobile(raw) : null;
      if (!mobile) throw badRequest(MOBILE_INVALID);
      return phoneLocation(mobile);
    },
  );
}
