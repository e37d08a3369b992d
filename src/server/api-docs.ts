/**
 * The API's OpenAPI 3.1 description, built by @fastify/swagger from the routes as they are
 * registered, never written by hand:
 * - every route the app registers (Fastify's onRoute, the same source as the route catalogue),
 *   with who may call it read from the route catalogue: the permission key (as the role list of
 *   the staff bearer scheme and as `x-permission`), a signed-in staff member, the dealer's or the
 *   applicant's token (schemes of their own), or nobody (public);
 * - for the generic routes of each entity schema (crud/routes.ts, crud/capabilities.ts): paging,
 *   sort, `blurry` and every `x-filter` as query parameters, the body as the very JSON Schema the
 *   server validates with (its Chinese `errorMessage`s included), and the answers: pages
 *   `{content, totalElements}`, records, 204, xlsx files, 299 background tasks;
 * - on every route the error answers `{status, message, timestamp}` with the server's own Chinese
 *   messages as examples.
 * Served at GET /api/docs/openapi.json (also /api/docs/json for the page) and as an interactive
 * page at /api/docs (@fastify/swagger-ui, its files served from this origin). API_DOCS_ENABLED=false
 * registers none of it.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { uniqueRules, type FieldSpec, type ResourceSpec } from '../shared/resource-spec.ts';
import { routeCatalogue, type RouteEntry } from './auth/route-catalogue.ts';
import { MAX_PAGE_SIZE } from './crud/query/query.ts';
import { DATABASE_UNAVAILABLE } from './db/unavailable.ts';
import { DUPLICATE_SUBMIT, SUBMIT_ID_HEADER } from './submit-id.ts';
import { ASYNC_STATUS, EXPORT_STARTED, IMPORT_STARTED } from './realtime/long-tasks.ts';
import { XLSX_MIME } from './crud/sheets/spreadsheet.ts';
import { BODY_NOT_OBJECT } from './crud/validation.ts';
import { HAND_WRITTEN_COMPONENTS, HAND_WRITTEN_ROUTES } from './api-docs-routes.ts';
import { errorAnswer, LIST_QUERY_OF, NO_BODY } from './openapi/shapes.ts';
import { STORAGE_FULL } from './db/storage-full.ts';
import { STORAGE_LOW } from './disk/free-space.ts';
import { DEFAULT_PRODUCT_NAME, productName } from '../shared/product.ts';
import { getPublicSettings } from './modules/system/public-settings.ts';
import { historyRouteKinds, historySchema, type HistoryKind } from './crud/history/history-docs.ts';

export const DOCS_PREFIX = '/api/docs';
/** YAML copies of the document kept, one per title (api-docs routes). */
const YAML_TITLES_KEPT = 4;
export const OPENAPI_PATH = `${DOCS_PREFIX}/openapi.json`;

type Json = Record<string, unknown>;
type CrudKind =
  'list' | 'create' | 'update' | 'delete' | 'download' | 'import' | 'template' | 'toggle' | 'queryAll' | 'total' | HistoryKind;
interface CrudRoute {
  spec: ResourceSpec;
  kind: CrudKind;
}

/** The component names of an entity: its record as answered and its body as validated. */
const recordName = (spec: ResourceSpec) => `${spec.name}`;
const bodyName = (spec: ResourceSpec) => `${spec.name}Body`;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Fastify's `/a/:id/*` as OpenAPI's `/a/{id}/{path}`. A closing slash is dropped: the router
 * ignores it (`/api/users/updatePass/` answers as `/api/users/updatePass`).
 */
export function openapiPath(url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A stable operationId from the method and the path, so generated clients keep their function
 * names while routes are added: `GET /api/dept/lazy` → `getApiDeptLazy`,
 * `PUT /api/jobs/{id}/run` → `putApiJobsByIdRun`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = openapiPath(url)
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const word = (param ? `by-${param[1]}` : segment).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) =>
        c ? c.toUpperCase() : '',
      );
      return capital(word);
    });
  return method.toLowerCase() + words.join('');
}

/**
 * A published copy of a schema without ajv-errors' `errorMessage`, which is no JSON Schema
 * keyword (OpenAPI tools reject it): the Chinese messages move to `x-errorMessage`, an extension
 * every tool accepts, so a client can still show the server's wording.
 */
export function publishedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(publishedSchema);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as Json).map(([key, value]) =>
      key === 'errorMessage' ? ['x-errorMessage', value] : [key, publishedSchema(value)],
    ),
  );
}

function crudRoutes(specs: ResourceSpec[]): Map<string, CrudRoute> {
  const out = new Map<string, CrudRoute>();
  for (const spec of specs) {
    const base = `/${spec.path}`;
    const can = (a: (typeof spec.actions)[number]) => spec.actions.includes(a);
    out.set(`GET ${base}`, { spec, kind: 'list' });
    if (can('add')) out.set(`POST ${base}`, { spec, kind: 'create' });
    if (can('edit')) out.set(`PUT ${base}`, { spec, kind: 'update' });
    if (can('del')) out.set(`DELETE ${base}`, { spec, kind: 'delete' });
    if (can('download')) out.set(`GET ${base}/download`, { spec, kind: 'download' });
    if (can('import')) out.set(`POST ${base}/import`, { spec, kind: 'import' });
    if (can('import')) out.set(`GET ${base}/template`, { spec, kind: 'template' });
    if (spec.enabledToggle) out.set(`PUT ${base}/updateEnabled/:id`, { spec, kind: 'toggle' });
    if (spec.queryAll) out.set(`GET ${base}/queryAll`, { spec, kind: 'queryAll' });
    if (spec.total?.length) out.set(`GET ${base}/total`, { spec, kind: 'total' });
    for (const [route, kind] of historyRouteKinds(spec)) out.set(route, { spec, kind });
  }
  return out;
}

function fieldSchema(field: FieldSpec): Json {
  const s: Json = { type: field.required ? field.type : [field.type, 'null'], title: field.title };
  if (field.format) s.format = field.format;
  if (field.maxLength) s.maxLength = field.maxLength;
  if (field.readOnly || field.auto) s.readOnly = true;
  let description: string | undefined;
  if (field.options?.length) description = field.options.map((o) => `${String(o.value)}: ${o.label}`).join('; ');
  if (field.mask) description = `${description ? `${description}. ` : ''}未持有查看权限时脱敏显示（${field.mask}）`;
  if (description !== undefined) s.description = description;
  return s;
}

/** A record as the server answers it: every field of the spec. */
function recordSchema(spec: ResourceSpec): Json {
  return {
    type: 'object',
    title: spec.title,
    properties: Object.fromEntries(spec.fields.map((f) => [f.name, fieldSchema(f)])),
  };
}

/** The body schema: the JSON Schema the server validates create and update bodies with. */
function bodySchema(spec: ResourceSpec): Json {
  const { $id: _id, $schema: _schema, ...schema } = spec.schema;
  return {
    ...(publishedSchema(schema) as Json),
    description: `${spec.title}：服务器用同一个 JSON Schema（ajv）校验新增和修改的请求体，x-errorMessage 为各项校验的中文提示；自动字段（ID、创建时间等）由服务器填写`,
  };
}

function filterParameter(field: FieldSpec): Json | undefined {
  const value = { type: field.type, ...(field.format ? { format: field.format } : {}) };
  switch (field.filter) {
    case 'eq':
      return { ...value, description: `${field.title}：等于` };
    case 'like':
      return { type: 'string', description: `${field.title}：包含` };
    case 'between':
      return {
        type: 'array',
        items: value,
        minItems: 2,
        maxItems: 2,
        description: `${field.title}：范围，参数写两次（开始、结束），一端为空表示不限`,
      };
    case 'in':
      return { type: 'array', items: value, description: `${field.title}：任一值，参数可重复` };
    default:
      return undefined;
  }
}

function listQuery(spec: ResourceSpec, paging: boolean): Json {
  const properties: Json = {};
  if (paging) {
    properties.page = { type: 'integer', minimum: 0, default: 0, description: '页码，从0开始' };
    properties.size = { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: spec.pageSize, description: '每页条数' };
    properties.sort = {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Za-z0-9_]+(,(asc|desc))?$' },
      default: spec.sort,
      description: '排序：字段,asc|desc，可重复',
    };
  }
  if (spec.search.length) {
    const titles = spec.search.map((n) => spec.fields.find((f) => f.name === n)?.title ?? n);
    properties.blurry = { type: 'string', maxLength: 500, description: `关键字：匹配${titles.join('、')}` };
  }
  for (const field of spec.fields) {
    const p = filterParameter(field);
    if (p) properties[field.name] = p;
  }
  return { type: 'object', properties };
}

const ERROR_SCHEMA: Json = {
  type: 'object',
  required: ['status', 'message', 'timestamp'],
  properties: {
    status: { type: 'integer', description: '与 HTTP 状态码相同' },
    message: { type: 'string', description: '中文提示' },
    timestamp: { type: 'string', format: 'date-time' },
  },
};

/** The errors any route may answer, with the server's own messages. */
const COMMON_ERRORS = {
  unauthorized: errorAnswer(401, '未登录或登录已过期', '登录状态已过期，请重新登录'),
  forbidden: errorAnswer(403, '没有该接口的权限', '没有权限，请联系管理员'),
  duplicate: errorAnswer(409, '同一 submit_id 的重复提交', DUPLICATE_SUBMIT),
  tooMany: errorAnswer(429, '请求过于频繁', '请求过于频繁，请稍后再试'),
  unavailable: errorAnswer(503, '数据库暂不可用或请求处理超时', DATABASE_UNAVAILABLE),
  storageFull: errorAnswer(507, '存储空间已满，写入未完成', STORAGE_FULL),
  storageLow: errorAnswer(507, '数据目录剩余空间低于下限，导入导出不开始', STORAGE_LOW),
};

/** The 409 of a write to a resource with `x-unique` rules (crud/unique.ts): the value is taken, or the submit_id was sent before. */
function uniqueAnswers(spec: ResourceSpec): Json {
  const [rule] = uniqueRules(spec);
  if (!rule) return {};
  const titles = rule.map((n) => spec.fields.find((f) => f.name === n)?.title ?? n);
  const example =
    titles.length === 1 ? `${titles[0]}“…”已存在` : `${titles.slice(0, -1).join('、')}“…”与${titles[titles.length - 1]}“…”的组合已存在`;
  const rules = uniqueRules(spec)
    .map((r) => r.map((n) => spec.fields.find((f) => f.name === n)?.title ?? n).join('+'))
    .join('、');
  return { 409: errorAnswer(409, `唯一值（${rules}）已被其他记录使用，未写入；或同一 submit_id 的重复提交`, example) };
}

/** The first message the schema answers for a missing required field, as the 400 example. */
function firstRequiredMessage(spec: ResourceSpec): string {
  const field = spec.fields.find((f) => f.required && f.form && !f.auto);
  if (!field) return BODY_NOT_OBJECT;
  return field.messages.required ?? `${field.title}不能为空`;
}

const pageOf = (spec: ResourceSpec): Json => ({
  type: 'object',
  required: ['content', 'totalElements'],
  properties: { content: { type: 'array', items: ref(recordName(spec)) }, totalElements: { type: 'integer', minimum: 0 } },
});

function crudSchema(route: CrudRoute): Json {
  const { spec, kind } = route;
  const title = spec.title;
  switch (kind) {
    case 'history':
    case 'restore':
    case 'binList':
    case 'binRestore':
    case 'binPurge':
      return historySchema(spec, kind, ref(recordName(spec)), errorAnswer);
    case 'list':
      return {
        summary: `${title}：分页列表`,
        querystring: listQuery(spec, true),
        response: { 200: { description: '一页记录', content: { 'application/json': { schema: pageOf(spec) } } } },
        badRequest: '不支持的查询参数: foo',
      };
    case 'queryAll':
      return {
        summary: `${title}：全部记录（筛选与排序同列表）`,
        querystring: listQuery(spec, true),
        response: {
          200: { description: '记录数组', content: { 'application/json': { schema: { type: 'array', items: ref(recordName(spec)) } } } },
        },
        badRequest: '不支持的查询参数: foo',
      };
    case 'total':
      return {
        summary: `${title}：合计（筛选同列表）`,
        querystring: listQuery(spec, false),
        response: {
          200: {
            description: '各合计字段之和与条数',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries([
                    ...(spec.total ?? []).map((n): [string, Json] => [n, { type: 'number' }]),
                    ['count', { type: 'integer' }] satisfies [string, Json],
                  ]),
                },
              },
            },
          },
        },
        badRequest: '不支持的查询参数: foo',
      };
    case 'create':
      return {
        summary: `${title}：新增`,
        body: ref(bodyName(spec)),
        response: {
          201: { description: '新增的记录', content: { 'application/json': { schema: ref(recordName(spec)) } } },
          ...uniqueAnswers(spec),
        },
        badRequest: firstRequiredMessage(spec),
      };
    case 'update':
      return {
        summary: `${title}：修改（请求体含 id）`,
        body: { allOf: [ref(bodyName(spec)), { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } }] },
        response: {
          204: { type: 'null', description: '已修改' },
          404: errorAnswer(404, '记录不存在', '数据不存在'),
          ...uniqueAnswers(spec),
        },
        badRequest: 'ID不能为空',
      };
    case 'delete':
      return {
        summary: `${title}：删除`,
        body: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 10000, description: '要删除的记录 ID' },
        response: { 200: { type: 'null', description: '已删除' } },
        badRequest: '请至少选择一条数据',
      };
    case 'download':
      return {
        summary: `${title}：导出 xlsx（筛选同列表）`,
        querystring: listQuery(spec, false),
        response: {
          200: { description: 'xlsx 文件', content: { [XLSX_MIME]: { schema: { type: 'string', contentMediaType: XLSX_MIME } } } },
          [ASYNC_STATUS]: errorAnswer(ASYNC_STATUS, '数据较多，转入后台导出，完成后经 WebSocket 通知下载', EXPORT_STARTED),
        },
        badRequest: '不支持的查询参数: foo',
      };
    case 'template':
      return {
        summary: `${title}：下载导入模板（xlsx，含示例行）`,
        response: {
          200: { description: 'xlsx 模板', content: { [XLSX_MIME]: { schema: { type: 'string', contentMediaType: XLSX_MIME } } } },
        },
        badRequest: '不支持的查询参数: foo',
      };
    case 'import':
      return {
        summary: `${title}：导入 xlsx（全部成功或全部不导入）`,
        body: {
          type: 'object',
          required: ['file'],
          properties: { file: { type: 'string', contentMediaType: XLSX_MIME, description: '按导出模板填写的 xlsx 文件' } },
        },
        consumes: ['multipart/form-data'],
        response: {
          200: {
            description: '已导入的条数',
            content: { 'application/json': { schema: { type: 'object', properties: { count: { type: 'integer' } } } } },
          },
          [ASYNC_STATUS]: errorAnswer(ASYNC_STATUS, '数据较多，转入后台导入，进度经 WebSocket 通知', IMPORT_STARTED),
          ...uniqueAnswers(spec),
        },
        badRequest: '上传模板只能是xlsx格式!',
      };
    case 'toggle': {
      const name = spec.enabledToggle!;
      return {
        summary: `${title}：启用/禁用`,
        body: { type: 'object', properties: { [name]: { type: 'boolean' } }, description: '不传则切换当前状态' },
        response: {
          200: {
            description: '新的状态',
            content: {
              'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' }, [name]: { type: 'boolean' } } } },
            },
          },
          404: errorAnswer(404, '记录不存在', '数据不存在'),
        },
        badRequest: 'ID必须是正整数',
      };
    }
  }
}

/** Who may call the route, as OpenAPI security and a sentence. */
function access(entry: RouteEntry | undefined, applicantToo: boolean): { security: Json[]; note: string; keys: string[] } {
  if (!entry) return { security: [], note: '公开', keys: [] };
  const keys = entry.permissions ?? (entry.permission ? [entry.permission] : []);
  if (entry.identity === 'dealer') return { security: [{ dealerToken: [] }], note: '经销商令牌（POST /comp/dbcCompany/auth/login）', keys };
  if (entry.identity === 'applicant')
    return { security: [{ applicantToken: [] }], note: '应聘人员令牌（POST /api/staffun 注册时返回）', keys };
  if (entry.identity === 'socket') return { security: [], note: 'WebSocket：令牌在地址中（/webSocket/{token}）', keys };
  if (entry.identity === 'metrics') return { security: [], note: '监控令牌（METRICS_TOKEN，Bearer）', keys };
  const staff = keys.length ? keys.map((k) => ({ staffToken: [k] })) : entry.authenticated ? [{ staffToken: [] }] : [];
  const note = keys.length ? `员工令牌，权限：${keys.join(' 或 ')}` : entry.authenticated ? '员工令牌（登录即可）' : '公开';
  if (applicantToo) return { security: [...staff, { applicantToken: [] }], note: `${note}；或应聘人员令牌（仅本人的记录）`, keys };
  return { security: staff, note, keys };
}

/** The tag of a path: its first segments after /api (the module), e.g. `api/users`, `comp/dbcCompany`. */
function tagOf(url: string): string {
  const parts = url.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length > 1) return `${parts[0]}/${parts[1]}`;
  return parts.slice(0, 2).join('/') || '/';
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The document's schema of one route: what the route declares, the entity parts, access and errors. */
function routeSchema(
  route: RouteOptions,
  url: string,
  entry: RouteEntry | undefined,
  crud: CrudRoute | undefined,
  given: FastifySchema | undefined,
  specs: ResourceSpec[] = [],
): Json {
  const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
  const generic = crud ? crudSchema(crud) : undefined;
  const { badRequest: badMessage, consumes, ...genericSchema } = generic ?? {};
  const applicantToo = !!crud?.spec.ownedByApplicant && ['list', 'create', 'update', 'delete'].includes(crud.kind);
  const who = access(entry, applicantToo);
  // hand-written routes: what they take and answer, from the docs table (never Fastify's own schema)
  const writtenEntry = crud ? undefined : HAND_WRITTEN_ROUTES[`${method} ${openapiPath(url)}`];
  const { [LIST_QUERY_OF]: listOf, ...written } = writtenEntry ?? {};
  const schema: Json = { ...(given as Json | undefined), ...genericSchema, ...written };
  // a hand-written read taking an entity list's paging, sort and filters
  const listOfEntry = listOf as { entity: string; paging: boolean } | undefined;
  const listSpec = listOfEntry ? specs.find((s) => s.name === listOfEntry.entity) : undefined;
  if (listOfEntry && !listSpec) throw new Error(`OpenAPI table: no entity ${listOfEntry.entity}`);
  if (listSpec) schema.querystring = listQuery(listSpec, listOfEntry!.paging);
  const params = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  if (url.endsWith('*')) params.push('path');
  if (params.length && !schema.params) {
    schema.params = { type: 'object', required: params, properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])) };
  }
  if (WRITES.has(method)) {
    schema.headers = {
      type: 'object',
      properties: {
        [SUBMIT_ID_HEADER]: {
          type: 'string',
          pattern: '^[A-Za-z0-9]{16,64}$',
          description: '防重复提交：每次写操作一个新的随机值，10分钟内重复则409',
        },
      },
    };
  }
  if (consumes) schema.consumes = consumes;
  // restoring a revision names it in the path
  if (crud?.kind === 'restore' && !schema.body) schema[NO_BODY] = '要恢复的版本由路径指定，不带请求体';
  schema.tags = [crud ? `${crud.spec.title} (${crud.spec.path})` : tagOf(url)];
  schema.operationId = operationIdOf(method, url);
  schema.summary ??= `${method} ${url}`;
  schema.description = [entry?.identity === 'socket' ? 'WebSocket 连接（Upgrade）' : '', `调用者：${who.note}`]
    .filter(Boolean)
    .join('\n\n');
  schema.security = who.security;
  if (who.keys.length) schema['x-permission'] = who.keys.length === 1 ? who.keys[0] : who.keys;
  const response: Json = { ...((schema.response as Json | undefined) ?? {}) };
  if (entry?.identity === 'socket') response['101'] ??= { description: '切换到 WebSocket 协议；消息为 JSON 文本' };
  else if (!writtenEntry && !Object.keys(response).some((s) => s.startsWith('2'))) response['200'] = { description: '成功' };
  response['400'] ??= errorAnswer(400, '请求不正确（中文提示说明原因）', typeof badMessage === 'string' ? badMessage : '请求参数错误');
  if (who.security.length) {
    response['401'] ??= COMMON_ERRORS.unauthorized;
    if (who.keys.length) response['403'] ??= COMMON_ERRORS.forbidden;
  }
  if (WRITES.has(method)) response['409'] ??= COMMON_ERRORS.duplicate;
  if (crud?.kind === 'download' || crud?.kind === 'import') response['507'] ??= COMMON_ERRORS.storageLow;
  else if (WRITES.has(method)) response['507'] ??= COMMON_ERRORS.storageFull;
  response['429'] ??= COMMON_ERRORS.tooMany;
  response['503'] ??= COMMON_ERRORS.unavailable;
  schema.response = response;
  return schema;
}

export interface ApiDocsOptions {
  specs: ResourceSpec[];
  version: string;
}

/**
 * Registers @fastify/swagger; call before any route is registered (it collects them as they come).
 * The page and the document's own routes are added by registerApiDocsRoutes, after the others.
 */
export async function registerApiDocs(app: FastifyInstance, opts: ApiDocsOptions): Promise<void> {
  const crud = crudRoutes(opts.specs);
  const components = {
    securitySchemes: {
      staffToken: { type: 'http', scheme: 'bearer', description: '员工令牌：POST /api/login 返回的 token；需要权限的接口在此列出权限标识' },
      dealerToken: {
        type: 'http',
        scheme: 'bearer',
        description: '经销商令牌：POST /comp/dbcCompany/auth/login 返回的 token（员工令牌不被接受）',
      },
      applicantToken: {
        type: 'http',
        scheme: 'bearer',
        description: '应聘人员令牌（ap. 开头）：POST /api/staffun 注册时返回，只能访问本人的记录',
      },
    },
    schemas: {
      Error: ERROR_SCHEMA,
      ...HAND_WRITTEN_COMPONENTS,
      ...Object.fromEntries(
        opts.specs.flatMap((s) => [
          [recordName(s), recordSchema(s)],
          [bodyName(s), bodySchema(s)],
        ]),
      ),
    },
  };
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      servers: [{ url: '/', description: '提供本文档的服务器（接口与文档同源）' }],
      info: {
        title: `${DEFAULT_PRODUCT_NAME} API`,
        version: opts.version,
        description:
          '由服务器注册的路由、路由权限目录和实体 JSON Schema 生成。所有错误都以 `{status, message, timestamp}` 返回，status 等于 HTTP 状态码，message 为中文提示。写操作可带 `submit_id` 请求头防重复提交。',
      },
      components: components as never,
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
      const docUrl = openapiPath(url);
      // @fastify/websocket hides its routes; they are part of the API (the console's messages)
      const socket = (route as { websocket?: boolean }).websocket === true;
      const { hide, ...given } = (schema ?? {}) as Json;
      if (hide && !socket) return { schema, url: docUrl };
      const entry = routeCatalogue(app).find((r) => r.method === method && r.url === url);
      return { schema: routeSchema(route, url, entry, crud.get(`${method} ${url}`), given, opts.specs), url: docUrl };
    },
  });
}

/** The document's title: the product's name (系统设置's 系统名称, else the default) and "API". */
async function documentTitle(app: FastifyInstance): Promise<string> {
  try {
    return `${productName((await getPublicSettings(app.database.db, app.config)).title)} API`;
  } catch {
    return `${DEFAULT_PRODUCT_NAME} API`;
  }
}

function withTitle<T extends { info?: object }>(doc: T, title: string): T {
  return { ...doc, info: { ...doc.info, title } };
}

/** The document and the interactive page; called after every other route is registered. */
export async function registerApiDocsRoutes(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, { schema: { summary: '本文档（OpenAPI 3.1）', tags: ['api/docs'] } }, async (_request, reply) => {
    return reply.header('cache-control', 'no-cache').send(withTitle(app.swagger(), await documentTitle(app)));
  });
  // the page's own copies of the document carry the same title, read as each is asked for
  const titles = new WeakMap<FastifyRequest, string>();
  // The YAML copy, by title: the page's plugin clones the document and writes it as YAML on every
  // request (seconds of CPU under load); the routes are fixed for the life of the process, so the
  // text of a title is written once. A few titles at most (the product name as set in 系统设置).
  const yamlByTitle = new Map<string, string>();
  const isYaml = (request: FastifyRequest) => request.url.split('?')[0].endsWith('/yaml');
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      if (/\/(json|yaml)$/.test(request.url.split('?')[0])) titles.set(request, await documentTitle(app));
    });
    scope.addHook('preHandler', async (request, reply) => {
      const text = isYaml(request) ? yamlByTitle.get(titles.get(request) ?? '') : undefined;
      if (text !== undefined) return reply.type('application/x-yaml').send(text);
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      const title = titles.get(request);
      if (title !== undefined && isYaml(request) && reply.statusCode === 200 && typeof payload === 'string' && !yamlByTitle.has(title)) {
        if (yamlByTitle.size >= YAML_TITLES_KEPT) yamlByTitle.delete(yamlByTitle.keys().next().value as string);
        yamlByTitle.set(title, payload);
      }
      return payload;
    });
    await scope.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { docExpansion: 'none', deepLinking: true, defaultModelsExpandDepth: 0, persistAuthorization: false },
      theme: { title: `${DEFAULT_PRODUCT_NAME} API` },
      transformSpecification: (doc, request) => withTitle(doc as { info?: object }, titles.get(request) ?? `${DEFAULT_PRODUCT_NAME} API`),
    });
  });
}
