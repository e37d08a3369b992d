/**
 * The user picker of other screens' dialogs (e.g. 员工花名册's 系统账号 select):
 *   GET api/users/pick?id&blurry&page&size   brief fields of the users inside the caller's data scope
 * It is opened by the keys of the screens that pick users (the list, add and edit keys of every
 * resource whose schema refers to `users`), besides user:list, so a role holding a screen's keys
 * can use that screen's dialogs without the user administration key. It answers no personal data
 * (no phone, no e-mail), so nothing needs masking.
 */
import type { FastifyInstance } from 'fastify';
import { permissionKey, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { requestScope } from '../../auth/data-scope.ts';
import { badRequest } from '../../errors.ts';
import { onlyKeys, paging, queryValue } from './input.ts';
import { userTextCondition } from './user-search.ts';
import { readLimit } from '../../read-limits.ts';

/** Every key that opens the user picker: user:list and the keys of the screens that pick users. */
export function userPickerKeys(specs: ResourceSpec[]): string[] {
  const keys = ['user:list'];
  for (const spec of specs) {
    if (!spec.fields.some((f) => f.ref?.resource === 'users')) continue;
    keys.push(permissionKey(spec, 'list'), permissionKey(spec, 'add'), permissionKey(spec, 'edit'));
  }
  return [...new Set(keys)];
}

function idsOf(query: Record<string, unknown>): number[] {
  const raw = query.id;
  if (raw === undefined || raw === '') return [];
  const list = (Array.isArray(raw) ? raw : [raw]).map(String);
  if (list.length > 1000 || list.some((v) => !/^\d{1,15}$/.test(v))) throw badRequest('用户编号不正确');
  return list.map(Number);
}

export function registerUserPicker(app: FastifyInstance, specs: ResourceSpec[]): void {
  const db = app.database.db;
  app.get('/api/users/pick', { preHandler: [app.requireAnyPermission(userPickerKeys(specs)), ...readLimit(app)] }, async (request) => {
    const query = request.query as Record<string, unknown>;
    onlyKeys(query, ['id', 'blurry', 'enabled', 'page', 'size', 'sort']);
    const { page, size } = paging(query, 99999);
    let q = db.selectFrom('sys_user as u');
    const ids = idsOf(query);
    if (ids.length) q = q.where('u.id', 'in', ids);
    const blurry = queryValue(query, 'blurry');
    if (blurry) q = q.where(await userTextCondition(db, blurry));
    const enabled = queryValue(query, 'enabled');
    if (enabled === 'true' || enabled === 'false') q = q.where('u.enabled', '=', enabled === 'true' ? 1 : 0);
    else if (enabled !== undefined && enabled !== '') throw badRequest('参数enabled只能是true或false');
    const scope = await requestScope(db, request);
    if (!scope.all) q = q.where('u.dept_id', 'in', scope.deptIds.length ? scope.deptIds : [-1]);
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .select(['u.id', 'u.username', 'u.nick_name', 'u.dept_id', 'u.org_id', 'u.enabled'])
      .orderBy('u.id', 'asc')
      .limit(size)
      .offset(page * size)
      .execute();
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        username: String(r.username),
        nickName: String(r.nick_name ?? ''),
        deptId: r.dept_id === null ? null : Number(r.dept_id),
        orgId: r.org_id === null ? null : Number(r.org_id),
        enabled: !!r.enabled,
      })),
      totalElements: Number(total?.n ?? 0),
    };
  });
}
