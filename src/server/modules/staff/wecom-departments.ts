/**
 * 部门管理 kept in step with WeCom contacts (企业微信通讯录), through the WecomDirectory provider,
 * key dept:qywx (部门企业微信同步):
 *   GET    api/dept/syncQwDept        pulls WeCom's departments into the tree: a department already
 *                                     linked (sys_dept.wecom_dept_id) is renamed and moved as in WeCom,
 *                                     an unlinked one of the same name under the same parent is linked,
 *                                     any other is created; WeCom's root (parentid 0) is linked to the
 *                                     top company (whose name it leaves as it is).
 *                                     A link to a department WeCom no longer has is cleared (the local
 *                                     department stays). Needs the 全部 data scope. One transaction.
 *   PUT    api/dept/synStaffs {id}    the department's WeCom members (cgi-bin/user/list) against the
 *                                     roster: an unbound on-staff entry with the member's mobile (else
 *                                     the same name in that department) gets the member's WeCom id, and
 *                                     its system user too; answers who is not on the roster and which
 *                                     roster entries of the department are not WeCom members
 *   PUT    api/dept/updateOrder [{id, sort}]   saves the order of sibling departments, in WeCom too
 *                                     (order = 1000000 − sort: WeCom puts a larger order first)
 *   PUT    api/dept/addQw {id}        creates the department in WeCom under its parent's WeCom
 *                                     department (a top company under WeCom's root 1), keeps the id
 *   DELETE api/dept/delQw (id in the query, {id} or [id])   deletes it in WeCom, clears the link
 * WeCom is asked first; the tree is written only when it accepts (502 企业微信返回错误：<errmsg>).
 * Without WeCom configured every call answers 400 企业微信未配置…
 */
import type { Db } from '../../types.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { tableChanged } from '../../crud/index.ts';
import { nowText } from '../../db/index.ts';
import { updateColumnsRecorded } from '../../crud/history/recorded-writes.ts';
import { revisionActor } from '../../crud/history/revisions.ts';
import { actorOf } from '../../crud/routes.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { requestScope } from '../../auth/data-scope.ts';
import type { WecomDepartment, WecomDirectory } from '../../providers/wecom.ts';
import { objectBody, queryValue, requiredId, type Body } from '../access/input.ts';
import { StaffStatus } from './store.ts';
import { WECOM_NOT_CONFIGURED, wecomFailure } from './wecom-members.ts';

export const DEPT_QYWX_PERMISSION = 'dept:qywx';
export const DEPT_WECOM_MESSAGES = {
  notInScope: '没有权限操作该部门',
  needAll: '同步企业微信部门需要全部数据权限',
  notFound: '部门不存在',
  notLinked: '该部门尚未同步到企业微信',
  linked: '该部门已同步到企业微信',
  parentNotLinked: '请先将上级部门同步到企业微信',
  badName: '企业微信部门名称不能超过64个字符，且不能包含 \\:*?"<>| 字符',
  wecomRoot: '不能删除企业微信的根部门',
  siblings: '只能调整同一上级部门下的部门顺序',
} as const;

/** WeCom's root department: the enterprise itself */
export const WECOM_ROOT = 1;
const ORDER_BASE = 1_000_000;
const LIST_MAX = 100;

interface LocalDept {
  id: number;
  pid: number | null;
  name: string;
  sort: number;
  wecomId: number | null;
}

async function localDepts(db: Db): Promise<LocalDept[]> {
  const rows = await db
    .selectFrom('sys_dept')
    .select(['id', 'pid', 'name', 'sort', 'wecom_dept_id'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    pid: r.pid === null || r.pid === undefined || Number(r.pid) === 0 ? null : Number(r.pid),
    name: String(r.name),
    sort: Number(r.sort),
    wecomId: r.wecom_dept_id === null || r.wecom_dept_id === undefined ? null : Number(r.wecom_dept_id),
  }));
}

export interface PullResult {
  total: number;
  created: string[];
  renamed: string[];
  moved: string[];
  linked: string[];
  unchanged: number;
  /** local departments whose WeCom department is gone (their link cleared) */
  unlinked: string[];
  /** WeCom departments not reachable from WeCom's root (left out) */
  skipped: number;
}

/** Order of WeCom departments from the root down (parents before children); unreachable ones left out. */
function topDown(remote: WecomDepartment[]): WecomDepartment[] {
  const kids = new Map<number, WecomDepartment[]>();
  for (const d of remote) kids.set(d.parentid, [...(kids.get(d.parentid) ?? []), d]);
  for (const list of kids.values()) list.sort((a, b) => b.order - a.order || a.id - b.id);
  const out: WecomDepartment[] = [];
  const seen = new Set<number>();
  const queue = [...(kids.get(0) ?? [])];
  while (queue.length) {
    const d = queue.shift()!;
    if (seen.has(d.id)) continue;
    seen.add(d.id);
    out.push(d);
    queue.push(...(kids.get(d.id) ?? []));
  }
  return out;
}

/** Writes WeCom's department tree into sys_dept (see the file comment). */
export async function pullDepartments(db: Db, remote: WecomDepartment[]): Promise<PullResult> {
  const ordered = topDown(remote);
  const result: PullResult = {
    total: remote.length,
    created: [],
    renamed: [],
    moved: [],
    linked: [],
    unchanged: 0,
    unlinked: [],
    skipped: remote.length - ordered.length,
  };
  const siblingsRank = new Map<number, number>();
  {
    const byParent = new Map<number, WecomDepartment[]>();
    for (const d of ordered) byParent.set(d.parentid, [...(byParent.get(d.parentid) ?? []), d]);
    for (const list of byParent.values()) list.forEach((d, i) => siblingsRank.set(d.id, i + 1));
  }
  await db.transaction().execute(async (trx) => {
    const rows = await localDepts(trx);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const byWecom = new Map(rows.filter((r) => r.wecomId !== null).map((r) => [r.wecomId!, r]));
    const now = nowText();
    const isBelow = (id: number, ancestor: number) => {
      let cur = byId.get(id);
      const seen = new Set<number>();
      while (cur && !seen.has(cur.id)) {
        if (cur.id === ancestor) return true;
        seen.add(cur.id);
        cur = cur.pid === null ? undefined : byId.get(cur.pid);
      }
      return false;
    };
    const remoteIds = new Set(ordered.map((d) => d.id));
    // links to departments WeCom no longer has are cleared first, so their WeCom ids are free
    for (const r of rows) {
      if (r.wecomId !== null && !remoteIds.has(r.wecomId)) {
        await trx.updateTable('sys_dept').set({ wecom_dept_id: null, update_time: now }).where('id', '=', r.id).execute();
        byWecom.delete(r.wecomId);
        r.wecomId = null;
        if (result.unlinked.length < LIST_MAX) result.unlinked.push(r.name);
      }
    }
    for (const d of ordered) {
      let local = byWecom.get(d.id);
      const parentLocal = d.parentid === 0 ? null : (byWecom.get(d.parentid) ?? null);
      if (d.parentid !== 0 && !parentLocal) {
        result.skipped++;
        continue;
      }
      if (!local) {
        // WeCom's root is the top company; any other is matched by name under the same parent
        const candidate =
          d.parentid === 0
            ? rows.find((r) => r.pid === null && r.wecomId === null)
            : rows.find((r) => r.pid === parentLocal!.id && r.wecomId === null && r.name === d.name);
        if (candidate) {
          candidate.wecomId = d.id;
          byWecom.set(d.id, candidate);
          await trx.updateTable('sys_dept').set({ wecom_dept_id: d.id, update_time: now }).where('id', '=', candidate.id).execute();
          if (result.linked.length < LIST_MAX) result.linked.push(d.name);
          local = candidate;
        } else {
          const pid = parentLocal ? parentLocal.id : null;
          const sort = siblingsRank.get(d.id) ?? 999;
          const row = await trx
            .insertInto('sys_dept')
            .values({ pid, name: d.name, sort, enabled: 1, wecom_dept_id: d.id, create_time: now, update_time: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          const created: LocalDept = { id: Number(row.id), pid, name: d.name, sort, wecomId: d.id };
          rows.push(created);
          byId.set(created.id, created);
          byWecom.set(d.id, created);
          if (result.created.length < LIST_MAX) result.created.push(d.name);
          continue;
        }
      }
      const changes: Record<string, unknown> = {};
      // WeCom's root is the enterprise itself: it never renames the top company it is linked to
      if (local.name !== d.name && d.parentid !== 0) {
        if (result.renamed.length < LIST_MAX) result.renamed.push(`${local.name} → ${d.name}`);
        changes.name = d.name;
        local.name = d.name;
      }
      // a top company stays where it is; others follow WeCom's parent (never below themselves)
      if (d.parentid !== 0 && parentLocal && local.pid !== parentLocal.id && !isBelow(parentLocal.id, local.id)) {
        if (result.moved.length < LIST_MAX) result.moved.push(d.name);
        changes.pid = parentLocal.id;
        local.pid = parentLocal.id;
      }
      if (Object.keys(changes).length)
        await trx
          .updateTable('sys_dept')
          .set({ ...changes, update_time: now })
          .where('id', '=', local.id)
          .execute();
      else result.unchanged++;
    }
  });
  return result;
}

const WECOM_NAME = /^[^\\:*?"<>|]{1,64}$/;

export function registerWecomDepartmentRoutes(app: FastifyInstance, staff: ResourceSpec, wecom: WecomDirectory): void {
  const db = () => app.database.db;
  const pre = { preHandler: app.requirePermission(DEPT_QYWX_PERMISSION) };
  const configured = () => {
    if (!wecom.configured) throw badRequest(WECOM_NOT_CONFIGURED);
  };
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      return wecomFailure(err);
    }
  };
  const inScope = async (request: FastifyRequest, id: number) => {
    const scope = await requestScope(db(), request);
    if (!scope.all && !scope.deptIds.includes(id)) throw forbidden(DEPT_WECOM_MESSAGES.notInScope);
  };
  const deptToChange = async (request: FastifyRequest, id: number): Promise<LocalDept> => {
    await inScope(request, id);
    const dept = (await localDepts(db())).find((d) => d.id === id);
    if (!dept) throw notFound(DEPT_WECOM_MESSAGES.notFound);
    return dept;
  };

  app.get('/api/dept/syncQwDept', pre, async (request) => {
    const q = (request.query ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(q)) throw badRequest(`不支持的查询参数: ${k}`);
    configured();
    if (!(await requestScope(db(), request)).all) throw forbidden(DEPT_WECOM_MESSAGES.needAll);
    const remote = await call(() => wecom.listDepartments());
    return pullDepartments(db(), remote);
  });

  app.put('/api/dept/synStaffs', pre, async (request) => {
    const body = objectBody(request.body);
    const id = requiredId(body.id ?? body.deptId, '请选择部门');
    configured();
    const dept = await deptToChange(request, id);
    if (dept.wecomId === null) throw badRequest(DEPT_WECOM_MESSAGES.notLinked);
    const members = await call(() => wecom.listMembers(dept.wecomId!));
    const rows = await db()
      .selectFrom(staff.table)
      .select(['id', 'name', 'mobile', 'dept_id', 'status', 'qywx_user_id', 'user_id'])
      .where((eb) => eb.or([eb('status', '=', StaffStatus.onStaff), eb('qywx_user_id', 'is not', null)]))
      .execute();
    const entries = rows.map((r) => ({
      id: Number(r.id),
      name: String(r.name ?? ''),
      mobile: String(r.mobile ?? ''),
      deptId: r.dept_id === null ? null : Number(r.dept_id),
      onStaff: Number(r.status) === StaffStatus.onStaff,
      qywx: r.qywx_user_id ? String(r.qywx_user_id) : null,
      userId: r.user_id === null || r.user_id === undefined ? null : Number(r.user_id),
    }));
    const boundIds = new Set(entries.filter((e) => e.qywx).map((e) => e.qywx!));
    const result = {
      members: members.length,
      bound: [] as string[],
      alreadyBound: 0,
      notOnRoster: [] as string[],
      notInWecom: [] as string[],
    };
    const binds: Array<{ entry: (typeof entries)[number]; userid: string }> = [];
    const taken = new Set<number>();
    for (const m of members) {
      if (boundIds.has(m.userid)) {
        result.alreadyBound++;
        continue;
      }
      const free = entries.filter((e) => e.onStaff && !e.qywx && !taken.has(e.id));
      const byMobile = m.mobile ? free.filter((e) => e.mobile === m.mobile) : [];
      const candidates = byMobile.length ? byMobile : free.filter((e) => e.deptId === dept.id && e.name === m.name);
      if (candidates.length === 1) {
        taken.add(candidates[0].id);
        binds.push({ entry: candidates[0], userid: m.userid });
        if (result.bound.length < LIST_MAX) result.bound.push(`${m.name}（${m.userid}）`);
      } else if (result.notOnRoster.length < LIST_MAX) result.notOnRoster.push(`${m.name}（${m.userid}）`);
    }
    const memberIds = new Set(members.map((m) => m.userid));
    const newlyBound = new Set(binds.map((b) => b.entry.id));
    for (const e of entries) {
      if (
        e.onStaff &&
        e.deptId === dept.id &&
        !newlyBound.has(e.id) &&
        !(e.qywx && memberIds.has(e.qywx)) &&
        result.notInWecom.length < LIST_MAX
      )
        result.notInWecom.push(e.name);
    }
    if (binds.length) {
      const now = nowText();
      await db()
        .transaction()
        .execute(async (trx) => {
          for (const b of binds) {
            // only an entry still unbound (read and locked with its revision's old values)
            const unbound = await trx
              .selectFrom(staff.table)
              .select('id')
              .where('id', '=', b.entry.id)
              .where('qywx_user_id', 'is', null)
              .executeTakeFirst();
            if (unbound)
              await updateColumnsRecorded(trx, staff, app.database.dialect, revisionActor(actorOf(request)), [b.entry.id], {
                qywx_user_id: b.userid,
                update_time: now,
                update_user: request.user!.username,
              });
            // the linked system user signs in by WeCom QR code with the same id, unless another user has it
            if (b.entry.userId !== null) {
              const other = await trx
                .selectFrom('sys_user')
                .select('id')
                .where('wecom_user_id', '=', b.userid)
                .where('id', '<>', b.entry.userId)
                .executeTakeFirst();
              if (!other) await trx.updateTable('sys_user').set({ wecom_user_id: b.userid }).where('id', '=', b.entry.userId).execute();
            }
          }
        });
      tableChanged(app.database, staff.table);
    }
    return result;
  });

  app.put('/api/dept/updateOrder', pre, async (request) => {
    const raw = Array.isArray(request.body) ? request.body : (objectBody(request.body).depts ?? objectBody(request.body).list);
    if (!Array.isArray(raw) || raw.length === 0) throw badRequest('请提供要排序的部门');
    if (raw.length > 1000) throw badRequest('一次最多调整1000个部门的顺序');
    const wanted = raw.map((x) => {
      const item = objectBody(x);
      const id = requiredId(item.id, '部门ID不正确');
      const v = item.sort ?? item.deptSort;
      const sort = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : v;
      if (typeof sort !== 'number' || !Number.isInteger(sort) || sort < 0 || sort > 999999) throw badRequest('排序必须在0到999999之间');
      return { id, sort };
    });
    if (new Set(wanted.map((w) => w.id)).size !== wanted.length) throw badRequest('部门不能重复');
    configured();
    const all = new Map((await localDepts(db())).map((d) => [d.id, d]));
    const depts = wanted.map((w) => {
      const d = all.get(w.id);
      if (!d) throw notFound(DEPT_WECOM_MESSAGES.notFound);
      return d;
    });
    if (new Set(depts.map((d) => d.pid)).size > 1) throw badRequest(DEPT_WECOM_MESSAGES.siblings);
    for (const d of depts) await inScope(request, d.id);
    let pushed = 0;
    for (const [i, d] of depts.entries()) {
      if (d.wecomId === null || d.wecomId === WECOM_ROOT) continue;
      await call(() => wecom.updateDepartment({ id: d.wecomId!, order: ORDER_BASE - wanted[i].sort }));
      pushed++;
    }
    const now = nowText();
    await db()
      .transaction()
      .execute(async (trx) => {
        for (const w of wanted) await trx.updateTable('sys_dept').set({ sort: w.sort, update_time: now }).where('id', '=', w.id).execute();
      });
    return { saved: wanted.length, pushed };
  });

  app.put('/api/dept/addQw', pre, async (request) => {
    const body = objectBody(request.body);
    const id = requiredId(body.id ?? body.deptId, '请选择部门');
    configured();
    const dept = await deptToChange(request, id);
    if (dept.wecomId !== null) throw badRequest(`${DEPT_WECOM_MESSAGES.linked}（ID ${dept.wecomId}）`);
    if (!WECOM_NAME.test(dept.name)) throw badRequest(DEPT_WECOM_MESSAGES.badName);
    let parentid = WECOM_ROOT;
    if (dept.pid !== null) {
      const parent = (await localDepts(db())).find((d) => d.id === dept.pid);
      if (!parent || parent.wecomId === null) throw badRequest(DEPT_WECOM_MESSAGES.parentNotLinked);
      parentid = parent.wecomId;
    }
    const wecomId = await call(() => wecom.createDepartment({ name: dept.name, parentid, order: ORDER_BASE - dept.sort }));
    await db().updateTable('sys_dept').set({ wecom_dept_id: wecomId, update_time: nowText() }).where('id', '=', dept.id).execute();
    return { id: dept.id, wecomDeptId: wecomId, parentid };
  });

  app.delete('/api/dept/delQw', pre, async (request) => {
    const fromQuery = queryValue(request.query, 'id');
    const body: Body =
      fromQuery !== undefined && fromQuery !== ''
        ? { id: fromQuery }
        : Array.isArray(request.body) && request.body.length === 1
          ? { id: request.body[0] }
          : typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
            ? (request.body as Body)
            : {};
    const id = requiredId(body.id ?? body.deptId, '请选择部门');
    configured();
    const dept = await deptToChange(request, id);
    if (dept.wecomId === null) throw badRequest(DEPT_WECOM_MESSAGES.notLinked);
    if (dept.wecomId === WECOM_ROOT) throw badRequest(DEPT_WECOM_MESSAGES.wecomRoot);
    await call(() => wecom.deleteDepartment(dept.wecomId!));
    await db().updateTable('sys_dept').set({ wecom_dept_id: null, update_time: nowText() }).where('id', '=', dept.id).execute();
    return { id: dept.id, wecomDeptId: null };
  });
}
