/**
 * 首页's summary: what the signed-in user has to do, and the last 30 days in numbers.
 *
 *   GET /api/home/summary  (any signed-in staff member; each part is there only for the keys it needs)
 *     -> { items: [{key, title, count, resource, filter}], charts: [{key, title, resource, days: [{date, count}]}], from, to }
 *
 * Each to-do item is the count of a generic list with a fixed filter, run as that list runs it:
 * the same parsed query, the caller's data scope added (scopedParams), the same capped, cached
 * count (countMatching). An item appears only when the caller holds the list's key
 * (`<permission>:list`, admin passes); 未读消息 is the caller's own unread notices, for everyone.
 * Each chart counts the records created per day over the last 30 days (today included), again
 * through the list's scoped filter, for the callers holding that list's key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { permissionKey } from '../../../shared/resource-spec.ts';
import { countMatching, fieldAccess, filteredQuery, parseListQuery, scopedParams } from '../../crud/index.ts';
import { whereExpr } from '../../crud/query/query.ts';
import { countUnreadNotices } from '../messages/system-messages.ts';
import { nowText } from '../../db/index.ts';
import type { Summary, SummaryChart, SummaryItem } from '../../../shared/home-summary.ts';

export const SUMMARY_PATH = '/api/home/summary';
export const CHART_DAYS = 30;

/** A to-do item: a list with a fixed filter (the filter as the list screen sends it). */
export interface TodoDefinition {
  key: string;
  title: string;
  resource: string;
  filter: Record<string, string | number | boolean>;
}

export const TODO_ITEMS: TodoDefinition[] = [
  { key: 'pendingCarRequests', title: '待审核代步车申请', resource: 'dbcInfo', filter: { shStatus: 1 } },
  { key: 'openFeedback', title: '未处理问题反馈', resource: 'sysQuestion', filter: { status: false } },
  { key: 'newApplicants', title: '新应聘人员', resource: 'applicant', filter: { status: 2 } },
  { key: 'pendingLeads', title: '待处理潜客', resource: 'xsSubmersibleFile', filter: { status: 1 } },
];

export const UNREAD_ITEM = { key: 'unreadMessages', title: '未读消息' } as const;

/** A chart: records created per day, by the list's creation-time filter. */
export interface ChartDefinition {
  key: string;
  title: string;
  resource: string;
  /** the list's `between` filter on the creation time */
  field: string;
}

export const CHARTS: ChartDefinition[] = [
  { key: 'carRequests', title: '代步车申请', resource: 'dbcInfo', field: 'createTime' },
  { key: 'feedback', title: '问题反馈', resource: 'sysQuestion', field: 'createTime' },
  { key: 'applicants', title: '应聘人员', resource: 'applicant', field: 'createTime' },
];

function mayList(request: FastifyRequest, spec: ResourceSpec): boolean {
  const user = request.user;
  return !!user && (user.isAdmin || user.permissions.has(permissionKey(spec, 'list')));
}

function asQuery(filter: TodoDefinition['filter']): Record<string, string> {
  return Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, String(v)]));
}

async function todoCount(app: FastifyInstance, request: FastifyRequest, spec: ResourceSpec, item: TodoDefinition): Promise<number> {
  const database = app.database;
  const params = await scopedParams(database, spec, request, parseListQuery(spec, asQuery(item.filter), fieldAccess(request, spec)));
  return countMatching(database, spec.table, params.filterKey, () => filteredQuery(database, spec, params.conditions));
}

async function chartDays(
  app: FastifyInstance,
  request: FastifyRequest,
  spec: ResourceSpec,
  chart: ChartDefinition,
  days: string[],
): Promise<SummaryChart['days']> {
  const database = app.database;
  const field = spec.fields.find((f) => f.name === chart.field);
  if (!field) throw new Error(`${spec.name} has no field ${chart.field}`);
  const params = await scopedParams(
    database,
    spec,
    request,
    parseListQuery(spec, { [chart.field]: [days[0], days.at(-1)!] }, fieldAccess(request, spec)),
  );
  const column = sql.ref(field.column);
  const day = database.dialect === 'postgres' ? sql<string>`to_char(${column}, 'YYYY-MM-DD')` : sql<string>`substr(${column}, 1, 10)`;
  const rows = await database.db
    .selectFrom(spec.table)
    .where((eb) => whereExpr(eb, params.conditions, database.dialect))
    .select((eb) => [day.as('day'), eb.fn.countAll().as('n')])
    .groupBy(day)
    .execute();
  const byDay = new Map(rows.map((r) => [String(r.day), Number(r.n)]));
  return days.map((date) => ({ date, count: byDay.get(date) ?? 0 }));
}

/** The last `n` days up to `today`, oldest first. */
export function lastDays(today: Date, n = CHART_DAYS): string[] {
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(nowText(new Date(today.getFullYear(), today.getMonth(), today.getDate() - i)).slice(0, 10));
  return out;
}

export async function homeSummary(
  app: FastifyInstance,
  request: FastifyRequest,
  specs: ResourceSpec[],
  now = new Date(),
): Promise<Summary> {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const items: SummaryItem[] = [];
  for (const item of TODO_ITEMS) {
    const spec = byName.get(item.resource);
    if (!spec || !mayList(request, spec)) continue;
    items.push({
      key: item.key,
      title: item.title,
      count: await todoCount(app, request, spec, item),
      resource: spec.name,
      filter: item.filter,
    });
  }
  if (byName.has('sysSocket'))
    items.push({ ...UNREAD_ITEM, count: await countUnreadNotices(app.database, request.user!.id), resource: null, filter: {} });
  const days = lastDays(now);
  const charts: SummaryChart[] = [];
  for (const chart of CHARTS) {
    const spec = byName.get(chart.resource);
    if (!spec || !mayList(request, spec)) continue;
    charts.push({ key: chart.key, title: chart.title, resource: spec.name, days: await chartDays(app, request, spec, chart, days) });
  }
  return { items, charts, from: days[0], to: days.at(-1)! };
}

export function registerHomeRoutes(app: FastifyInstance, specs: ResourceSpec[]): void {
  app.get(
    SUMMARY_PATH,
    {
      preHandler: app.authenticate,
      schema: { summary: '首页：待办数量（按权限与数据范围）和近30天的新增数量', tags: ['api/home'] },
    },
    async (request) => homeSummary(app, request, specs),
  );
}
