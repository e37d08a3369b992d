/**
 * Look-ups of the staff roster for pickers and other screens (key staff:list), each inside the
 * caller's data scope:
 *   GET api/staff/findByMobile?mobile=                 the entry with that mobile (on staff first), or null
 *   GET api/staff/getAllOnStaff?orgId&status           a company's entries with the status (default 1 在职),
 *                                                      brief fields, by department then name
 *   GET api/staff/search?search=                       up to 20 on-staff entries whose name or mobile contains it
 *   GET api/staff/getStaffByOrgIdAndPostType?orgId&postType   on-staff entries of a company with a job type
 *                                                      (its code, or its id when numeric)
 *   GET api/staff/getStaffByOrgIdAndRoleName?orgId&roleName   on-staff entries of a company whose linked
 *                                                      system user holds the role
 * An explicit company outside the scope answers 403; bad or missing parameters 400. The mobile
 * is personal data: without staff:sensitive, findByMobile answers 403 and search looks at names only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { fieldByName, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { isMobile } from '../../../shared/validators.ts';
import { badRequest } from '../../errors.ts';
import { escapeLike, onlyKeys, queryValue, requiredId } from '../access/input.ts';
import { allowedOrgIds, assertOrgInScope, StaffStatus } from './store.ts';
import { guardRecords } from '../../crud/access/personal-data.ts';
import { assertQueryable, fieldAccess } from '../../crud/access/field-access.ts';
import type { TableQuery } from '../../types.ts';
import { readLimit } from '../../read-limits.ts';

export const SEARCH_LIMIT = 20;

/** The brief shape pickers use. */
export interface StaffBrief {
  id: number;
  name: string;
  mobile: string;
  sex: number | null;
  orgId: number | null;
  deptId: number | null;
  deptName: string | null;
  job: string | null;
  jpTypeId: number | null;
  jpTypeName: string | null;
  userId: number | null;
  status: number;
}

/** A roster row as briefQuery reads it, with its department's and job type's names. */
interface BriefRow {
  id: number;
  name: string;
  mobile: string;
  sex: number | null;
  org_id: number | null;
  dept_id: number | null;
  dept_name: string | null;
  dept_sort: number | null;
  job: string | null;
  jp_type_id: number | null;
  /** only when the job types are installed */
  jp_type_name?: string | null;
  user_id: number | null;
  status: number;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Department (by its sort, then id) and then name in pinyin order, the same on both databases. */
export function byDeptThenName(a: StaffBrief & { deptSort?: number | null }, b: StaffBrief & { deptSort?: number | null }): number {
  const sa = a.deptSort ?? Number.MAX_SAFE_INTEGER;
  const sb = b.deptSort ?? Number.MAX_SAFE_INTEGER;
  if (sa !== sb) return sa - sb;
  if ((a.deptId ?? 0) !== (b.deptId ?? 0)) return (a.deptId ?? 0) - (b.deptId ?? 0);
  const byName = a.name.localeCompare(b.name, 'zh-Hans-CN');
  return byName !== 0 ? byName : a.id - b.id;
}

export function registerStaffLookups(app: FastifyInstance, spec: ResourceSpec, jpType: ResourceSpec | undefined): void {
  const base = `/${spec.path}`;
  const db = () => app.database.db;
  const list = { preHandler: [app.requirePermission(`${spec.permission}:list`), ...readLimit(app)] };
  const t = spec.table;
  const mobileField = fieldByName(spec, 'mobile')!;

  function briefQuery(): TableQuery<BriefRow> {
    let q = db()
      .selectFrom(`${t} as s`)
      .leftJoin('sys_dept as d', 'd.id', 's.dept_id')
      .select([
        's.id',
        's.name',
        's.mobile',
        's.sex',
        's.org_id',
        's.dept_id',
        'd.name as dept_name',
        'd.sort as dept_sort',
        's.job',
        's.jp_type_id',
        's.user_id',
        's.status',
      ]);
    if (jpType) q = q.leftJoin(`${jpType.table} as j`, 'j.id', 's.jp_type_id').select('j.name as jp_type_name');
    return q.$castTo<BriefRow>();
  }

  async function scoped<O>(request: FastifyRequest, q: TableQuery<O>) {
    const ids = await allowedOrgIds(app, request);
    return ids === null ? q : q.where('s.org_id', 'in', ids.length ? ids : [-1]);
  }

  const brief = (r: BriefRow): StaffBrief & { deptSort: number | null } => ({
    id: Number(r.id),
    name: r.name,
    mobile: r.mobile,
    sex: num(r.sex),
    orgId: num(r.org_id),
    deptId: num(r.dept_id),
    deptName: r.dept_name ?? null,
    deptSort: num(r.dept_sort),
    job: r.job ?? null,
    jpTypeId: num(r.jp_type_id),
    jpTypeName: r.jp_type_name ?? null,
    userId: num(r.user_id),
    status: Number(r.status),
  });
  const answer = (rows: BriefRow[]) =>
    rows
      .map(brief)
      .sort(byDeptThenName)
      .map(({ deptSort: _s, ...rest }) => rest);

  async function companyParam(request: FastifyRequest): Promise<number> {
    const raw = queryValue(request.query, 'orgId');
    if (raw === undefined || raw === '') throw badRequest('请选择公司');
    const orgId = requiredId(raw, '公司不正确');
    await assertOrgInScope(app, request, orgId);
    return orgId;
  }

  app.get(`${base}/findByMobile`, list, async (request) => {
    onlyKeys(request.query, ['mobile']);
    const mobile = (queryValue(request.query, 'mobile') ?? '').trim();
    if (!mobile) throw badRequest('请输入手机号');
    if (!isMobile(mobile)) throw badRequest('请输入正确的11位手机号码');
    // a look-up by a value the caller sees only masked would tell the value: refused
    assertQueryable(fieldAccess(request, spec), mobileField);
    const q = await scoped(request, briefQuery().where('s.mobile', '=', mobile));
    const row = await q.orderBy('s.status', 'desc').orderBy('s.id', 'desc').limit(1).executeTakeFirst();
    return row ? guardRecords(request, spec, answer([row]))[0] : null;
  });

  app.get(`${base}/getAllOnStaff`, list, async (request) => {
    onlyKeys(request.query, ['orgId', 'status']);
    const orgId = await companyParam(request);
    const statusText = queryValue(request.query, 'status');
    let status: number = StaffStatus.onStaff;
    if (statusText !== undefined && statusText !== '') {
      if (statusText !== '0' && statusText !== '1') throw badRequest('在职状态只能是1（在职）或0（离职）');
      status = Number(statusText);
    }
    return guardRecords(request, spec, answer(await briefQuery().where('s.org_id', '=', orgId).where('s.status', '=', status).execute()));
  });

  app.get(`${base}/search`, list, async (request) => {
    onlyKeys(request.query, ['search']);
    const text = (queryValue(request.query, 'search') ?? '').trim();
    if (!text) return [];
    if (text.length > 50) throw badRequest('搜索内容不能超过50个字符');
    const like = `%${escapeLike(text)}%`;
    // the mobile is searched only by callers who see it in full
    const byMobile = !fieldAccess(request, spec).masked.has(mobileField.name);
    const q = await scoped(
      request,
      briefQuery()
        .where('s.status', '=', StaffStatus.onStaff)
        .where(
          byMobile
            ? sql<boolean>`(s.name like ${like} escape '\\' or s.mobile like ${like} escape '\\')`
            : sql<boolean>`s.name like ${like} escape '\\'`,
        ),
    );
    const rows = await q.orderBy('s.id', 'desc').limit(SEARCH_LIMIT).execute();
    return guardRecords(request, spec, answer(rows));
  });

  app.get(`${base}/getStaffByOrgIdAndPostType`, list, async (request) => {
    onlyKeys(request.query, ['orgId', 'postType']);
    const postType = (queryValue(request.query, 'postType') ?? '').trim();
    const orgId = await companyParam(request);
    if (!postType) throw badRequest('请选择岗位类型');
    if (!jpType) throw badRequest('岗位类型不存在');
    const type = await db()
      .selectFrom(jpType.table)
      .select('id')
      .where(/^\d{1,12}$/.test(postType) ? 'id' : 'code', '=', /^\d{1,12}$/.test(postType) ? Number(postType) : postType)
      .executeTakeFirst();
    if (!type) throw badRequest(`岗位类型不存在：${postType}`);
    return guardRecords(
      request,
      spec,
      answer(
        await briefQuery()
          .where('s.org_id', '=', orgId)
          .where('s.status', '=', StaffStatus.onStaff)
          .where('s.jp_type_id', '=', Number(type.id))
          .execute(),
      ),
    );
  });

  app.get(`${base}/getStaffByOrgIdAndRoleName`, list, async (request) => {
    onlyKeys(request.query, ['orgId', 'roleName']);
    const roleName = (queryValue(request.query, 'roleName') ?? '').trim();
    const orgId = await companyParam(request);
    if (!roleName) throw badRequest('请输入角色名称');
    const role = await db().selectFrom('sys_role').select('id').where('name', '=', roleName).executeTakeFirst();
    if (!role) throw badRequest(`角色不存在：${roleName}`);
    const holders = db().selectFrom('sys_users_roles').select('user_id').where('role_id', '=', Number(role.id));
    return guardRecords(
      request,
      spec,
      answer(
        await briefQuery()
          .where('s.org_id', '=', orgId)
          .where('s.status', '=', StaffStatus.onStaff)
          .where('s.user_id', 'in', holders)
          .execute(),
      ),
    );
  });
}
