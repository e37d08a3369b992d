/**
 * Companies (organisations) and department notes (部门备注):
 *   GET api/system/deptRemark/getOrg                      the companies for organisation selectors:
 *                                                         top-level departments (pid empty), within the
 *                                                         caller's data scope (全部: every one; otherwise
 *                                                         the company of each department in scope and the
 *                                                         caller's own organisation)       (signed in)
 *   GET api/system/deptRemark/getDeptRemarkByOrgId?orgId= the departments of one such company, from the
 *                                                         company down, with their notes (outside 全部 only
 *                                                         the departments in scope)        (signed in)
 *   PUT api/system/deptRemark {id, remark}                sets (or, empty, clears) a department's note,
 *                                                         at most 500 characters           (dept:remark)
 */
import type { Db } from '../../types.ts';
import { plainText } from '../../../shared/text.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nowText } from '../../db/index.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { requestScope, type DataScope } from '../../auth/data-scope.ts';

export const DEPT_REMARK_PERMISSION = 'dept:remark';
export const ORG_NOT_IN_SCOPE = '没有权限查看该公司';
export const REMARK_MAX = 500;

interface Dept {
  id: number;
  pid: number | null;
  name: string;
  sort: number;
  enabled: boolean;
  remark: string | null;
}

async function allDepts(db: Db): Promise<Dept[]> {
  const rows = await db
    .selectFrom('sys_dept')
    .select(['id', 'pid', 'name', 'sort', 'enabled', 'remark'])
    .orderBy('sort')
    .orderBy('id')
    .$castTo<{ id: number; pid: number | null; name: string; sort: number; enabled: number | boolean; remark: string | null }>()
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    pid: r.pid === null || r.pid === undefined || Number(r.pid) === 0 ? null : Number(r.pid),
    name: String(r.name),
    sort: Number(r.sort),
    enabled: Boolean(r.enabled),
    remark: r.remark ?? null,
  }));
}

/** The company (top-level ancestor) of every department. */
function companies(depts: Dept[]): Map<number, number> {
  const byId = new Map(depts.map((d) => [d.id, d]));
  const out = new Map<number, number>();
  for (const d of depts) {
    let cur = d;
    const seen = new Set<number>();
    while (cur.pid !== null && byId.has(cur.pid) && !seen.has(cur.id)) {
      seen.add(cur.id);
      cur = byId.get(cur.pid)!;
    }
    out.set(d.id, cur.id);
  }
  return out;
}

function visibleCompanies(depts: Dept[], scope: DataScope): Set<number> {
  const companyOf = companies(depts);
  const roots = new Set(depts.filter((d) => d.pid === null || !companyOf.has(d.pid)).map((d) => companyOf.get(d.id)!));
  if (scope.all) return roots;
  const out = new Set<number>();
  for (const id of [...scope.deptIds, ...scope.orgIds]) {
    const c = companyOf.get(id);
    if (c !== undefined) out.add(c);
  }
  return out;
}

function queryOrgId(request: FastifyRequest): number {
  const q = (request.query ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(q)) if (k !== 'orgId') throw badRequest(`不支持的查询参数: ${k}`);
  const v = q.orgId;
  if (v === undefined || v === '') throw badRequest('请选择公司');
  if (Array.isArray(v) || !/^[1-9]\d{0,15}$/.test(plainText(v))) throw badRequest('公司ID必须是正整数');
  return Number(v);
}

export function registerDeptRemark(app: FastifyInstance): void {
  const db = () => app.database.db;
  const signedIn = { preHandler: app.authenticate };

  app.get('/api/system/deptRemark/getOrg', signedIn, async (request) => {
    const q = (request.query ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(q)) throw badRequest(`不支持的查询参数: ${k}`);
    const depts = await allDepts(db());
    const visible = visibleCompanies(depts, await requestScope(db(), request));
    return depts.filter((d) => visible.has(d.id)).map((d) => ({ id: d.id, name: d.name, enabled: d.enabled, remark: d.remark }));
  });

  app.get('/api/system/deptRemark/getDeptRemarkByOrgId', signedIn, async (request) => {
    const orgId = queryOrgId(request);
    const depts = await allDepts(db());
    const scope = await requestScope(db(), request);
    const companyOf = companies(depts);
    const org = depts.find((d) => d.id === orgId);
    if (!org || companyOf.get(orgId) !== orgId) throw notFound('公司不存在');
    if (!visibleCompanies(depts, scope).has(orgId)) throw forbidden(ORG_NOT_IN_SCOPE);
    const inScope = scope.all ? null : new Set(scope.deptIds);
    // the company's tree in display order, with each department's path below the company
    const kids = new Map<number, Dept[]>();
    for (const d of depts) if (d.pid !== null) kids.set(d.pid, [...(kids.get(d.pid) ?? []), d]);
    const out: Array<{ id: number; pid: number; name: string; path: string; sort: number; enabled: boolean; remark: string | null }> = [];
    const walk = (d: Dept, path: string, seen: Set<number>) => {
      if (seen.has(d.id)) return;
      seen.add(d.id);
      if (!inScope || inScope.has(d.id))
        out.push({ id: d.id, pid: d.pid ?? 0, name: d.name, path, sort: d.sort, enabled: d.enabled, remark: d.remark });
      for (const k of kids.get(d.id) ?? []) walk(k, `${path}/${k.name}`, seen);
    };
    walk(org, org.name, new Set());
    return out;
  });

  app.put('/api/system/deptRemark', { preHandler: app.requirePermission(DEPT_REMARK_PERMISSION) }, async (request) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('请求内容必须是JSON对象');
    const b = body as Record<string, unknown>;
    const idText = b.id ?? b.deptId;
    if (
      !(typeof idText === 'number' && Number.isSafeInteger(idText) && idText > 0) &&
      !(typeof idText === 'string' && /^[1-9]\d{0,15}$/.test(idText))
    )
      throw badRequest('请选择部门');
    const id = Number(idText);
    const raw = b.remark;
    if (raw !== undefined && raw !== null && typeof raw !== 'string') throw badRequest('备注格式不正确');
    const remark = typeof raw === 'string' ? raw.trim() : '';
    if ([...remark].length > REMARK_MAX) throw badRequest(`备注长度不能超过${REMARK_MAX}个字符`);
    if (remark.includes('\u0000')) throw badRequest('备注包含非法字符');
    const scope = await requestScope(db(), request);
    if (!scope.all && !scope.deptIds.includes(id)) throw forbidden('没有权限操作该部门');
    const found = await db().selectFrom('sys_dept').select('id').where('id', '=', id).executeTakeFirst();
    if (!found) throw notFound('部门不存在');
    await db()
      .updateTable('sys_dept')
      .set({ remark: remark || null, update_time: nowText() })
      .where('id', '=', id)
      .execute();
    return { id, remark: remark || null };
  });
}
