/**
 * The OpenAPI document at /api/docs/openapi.json: generated from the routes as registered, so it
 * names every route of the route catalogue (nothing more, nothing less), validates against the
 * OpenAPI 3.1 schema, carries the entity schemas the server validates with and who may call each
 * route; the interactive page is served from this origin under the usual CSP, and
 * API_DOCS_ENABLED=false removes both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { routeCatalogue, type RouteEntry } from '../../src/server/auth/index.ts';
import { resources } from '../../src/generated/resources.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openapiPath, publishedSchema } from '../../src/server/api-docs.ts';
import { testApps, type TestApp } from './helpers.ts';

/** The page's own files: the page, its scripts and styles; the document is at openapi.json (and json, yaml for the page). */
const PAGE_ROUTES = new Set([
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/static/*',
]);

/** the parts of a JSON schema the tests read */
interface Schema {
  type?: string;
  required?: string[];
  properties: Record<string, Schema>;
  items?: Schema;
  'x-errorMessage': Record<string, string>;
  [keyword: string]: unknown;
}

interface MediaType {
  schema: Schema;
  example: { status?: number; message?: string };
}

interface Operation {
  security: Array<Record<string, string[]>>;
  'x-permission'?: string | string[];
  parameters: Array<{ name: string; in: string; schema: Schema }>;
  requestBody: { content: Record<string, MediaType> };
  responses: Record<string, { content: Record<string, MediaType> }>;
}

type Doc = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
};

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => ({ method: m.toUpperCase(), path, op: item[m] })));

describe.each(testApps())('OpenAPI document on %s', (_name, start) => {
  let t: TestApp;
  let doc: Doc;
  let catalogue: RouteEntry[];

  beforeAll(async () => {
    t = await start();
    const res = await t.app.inject({ url: '/api/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    doc = res.json<Doc>();
    catalogue = routeCatalogue(t.app);
  }, 60_000);
  afterAll(() => t?.close());

  it('validates against the OpenAPI 3.1 schema', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names every registered route, and only those', () => {
    const documented = new Set(operations(doc).map((o) => `${o.method} ${o.path}`));
    const missing = catalogue
      .filter((r) => !PAGE_ROUTES.has(`${r.method} ${r.url}`) && !documented.has(`${r.method} ${openapiPath(r.url)}`))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const registered = new Set(catalogue.map((r) => `${r.method} ${openapiPath(r.url)}`));
    expect([...documented].filter((k) => !registered.has(k))).toEqual([]);
    // the catalogue is the whole API: far more than the generic routes
    expect(documented.size).toBeGreaterThan(300);
  });

  it('every documented path is served (no 接口不存在)', async () => {
    const unserved: string[] = [];
    for (const { method, path } of operations(doc)) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        ...(method === 'GET' ? {} : { payload: method === 'DELETE' ? [] : {} }),
      });
      if (res.statusCode === 404 && /接口不存在/.test(res.body)) unserved.push(`${method} ${path}`);
      if (res.statusCode === 405 && method !== 'GET') unserved.push(`${method} ${path} 405`);
    }
    expect(unserved).toEqual([]);
  }, 120_000);

  it('says who may call each route: the permission key, sign-in, the dealer or applicant token, or nobody', () => {
    const byKey = new Map(operations(doc).map((o) => [`${o.method} ${o.path}`, o.op]));
    for (const r of catalogue) {
      const op = byKey.get(`${r.method} ${openapiPath(r.url)}`);
      if (!op) continue;
      const keys = r.permissions ?? (r.permission ? [r.permission] : []);
      const schemes = op.security.flatMap((s) => Object.entries(s));
      if (keys.length) {
        expect(op['x-permission'], `${r.method} ${r.url}`).toEqual(keys.length === 1 ? keys[0] : keys);
        for (const k of keys) expect(schemes, `${r.method} ${r.url}`).toContainEqual(['staffToken', [k]]);
      } else if (r.identity === 'dealer') expect(schemes).toEqual([['dealerToken', []]]);
      else if (r.identity === 'applicant') expect(schemes).toEqual([['applicantToken', []]]);
      else if (r.authenticated) expect(schemes, `${r.method} ${r.url}`).toEqual([['staffToken', []]]);
      else expect(op.security, `${r.method} ${r.url}`).toEqual([]);
      if (op.security.length)
        expect(op.responses['401'].content['application/json'].example.message, `${r.method} ${r.url}`).toBe('登录状态已过期，请重新登录');
      if (keys.length)
        expect(op.responses['403'].content['application/json'].example.message, `${r.method} ${r.url}`).toBe('没有权限，请联系管理员');
      for (const answer of Object.values(op.responses)) {
        const example = answer.content?.['application/json']?.example;
        if (example?.message) expect(Object.keys(example), `${r.method} ${r.url}`).toEqual(['status', 'message', 'timestamp']);
      }
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['applicantToken', 'dealerToken', 'staffToken']);
    // records an applicant owns take the applicant's token as well as the staff key
    const owned = resources.find((s) => s.ownedByApplicant)!;
    const list = doc.paths[`/${owned.path}`].get;
    expect(list.security).toContainEqual({ applicantToken: [] });
    expect(list.security).toContainEqual({ staffToken: [`${owned.permission}:list`] });
  });

  it('documents each entity: paging, sort, every x-filter, the validated body with its Chinese messages, pages and records', () => {
    for (const spec of resources) {
      const list = doc.paths[`/${spec.path}`]?.get;
      expect(list, spec.path).toBeDefined();
      const names = list.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['page', 'size', 'sort']));
      for (const f of spec.fields.filter((x) => x.filter)) expect(names, `${spec.name}.${f.name}`).toContain(f.name);
      const page = list.responses['200'].content['application/json'].schema;
      expect(page.required).toEqual(['content', 'totalElements']);
      expect(page.properties.content.items).toEqual({ $ref: `#/components/schemas/${spec.name}` });
      // the body is the server's own validation schema, ajv-errors' errorMessage published as x-errorMessage
      const { $id: _i, $schema: _s, ...validated } = spec.schema;
      const { description: _d, ...body } = doc.components.schemas[`${spec.name}Body`];
      expect(body, spec.name).toEqual(JSON.parse(JSON.stringify(publishedSchema(validated))));
      expect(JSON.stringify(body)).not.toContain('"errorMessage"');
      if (spec.actions.includes('add')) {
        const create = doc.paths[`/${spec.path}`].post;
        expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${spec.name}Body` });
        expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${spec.name}` });
        const bad = create.responses['400'].content['application/json'].example;
        expect(bad.status).toBe(400);
        expect(bad.message).toMatch(/[\u4e00-\u9fa5]/);
      }
    }
    const question = doc.components.schemas.sysQuestionBody;
    expect(question.properties.userType['x-errorMessage'].enum).toBe('身份只能是员工或客户');
    const list = doc.paths['/api/sysQuestion'].get;
    const userType = list.parameters.find((p) => p.name === 'userType');
    expect(userType!.schema.type).toBe('string');
  });

  it('serves the YAML copy of the document with its title, the same text again from the copy written once', async () => {
    const first = await t.app.inject({ url: '/api/docs/yaml' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/application\/x-yaml/);
    expect(first.body).toContain(`title: ${doc.info.title}`);
    for (const path of Object.keys(doc.paths).slice(0, 20)) expect(first.body).toContain(`${path}:`);
    // the second comes from the copy: the document is not built or written again
    const swagger = t.app.swagger;
    const app = t.app as { swagger: unknown };
    app.swagger = () => {
      throw new Error('the document was built again');
    };
    const second = await t.app.inject({ url: '/api/docs/yaml' }).finally(() => (app.swagger = swagger));
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toMatch(/application\/x-yaml/);
    expect(second.body).toBe(first.body);
  });

  it('serves the interactive page and its files from this origin under the usual CSP', async () => {
    const page = await t.app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const srcs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs.length).toBeGreaterThan(2);
    for (const src of srcs) {
      expect(src, 'no CDN').not.toMatch(/^(https?:)?\/\//);
      const res = await t.app.inject({ url: new URL(src, 'http://x/api/docs/').pathname });
      expect(res.statusCode, src).toBe(200);
    }
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.body).not.toMatch(/<script>[^<]/);
  });
});

describe('API_DOCS_ENABLED=false', () => {
  it('reads the variable', () => {
    expect(loadConfig({}).apiDocsEnabled).toBe(true);
    expect(loadConfig({ API_DOCS_ENABLED: 'false' }).apiDocsEnabled).toBe(false);
  });

  it('serves neither the document nor the page', async () => {
    const [, start] = testApps()[0];
    const t = await start({ apiDocsEnabled: false });
    try {
      for (const url of ['/api/docs/openapi.json', '/api/docs', '/api/docs/json', '/api/docs/static/swagger-ui-bundle.js']) {
        const res = await t.app.inject({ url });
        expect(res.statusCode, url).toBe(404);
      }
      expect(routeCatalogue(t.app).filter((r) => r.url.startsWith('/api/docs'))).toEqual([]);
    } finally {
      await t.close();
    }
  }, 60_000);
});
