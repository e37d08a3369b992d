/**
 * The OpenAPI document as an API consumer meets it:
 * - `@redocly/cli lint` with its recommended rules finds 0 errors;
 * - every operation has a unique, stable operationId;
 * - a TypeScript client generated from it by openapi-typescript, with openapi-fetch, type-checks
 *   a program that signs in, reads a generated list and hand-written routes with real types (a
 *   misspelt property is a compile error, so the answers are not `unknown` or `any`), and that
 *   program then runs against the server;
 * - the hand-written routes answer what the document says they answer (each answer validated
 *   against its documented schema).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import Ajv2020 from 'ajv/dist/2020.js';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf } from '../../src/server/api-docs.ts';
import { HAND_WRITTEN_ROUTES } from '../../src/server/api-docs-routes.ts';
import { ADMIN_PASSWORD, testApps, type TestApp } from './helpers.ts';
import { encryptPassword, loginAs, publicKeyOf } from './auth-helpers.ts';
import { multipartFile } from './multipart.ts';

const WORK = resolve('.tmp', `api-docs-client-${process.pid}`);
const execFileAsync = promisify(execFile);

interface Operation {
  operationId?: string;
  requestBody?: object;
  'x-no-body'?: string;
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

/** A schema that says something about the value (not just a description). */
const typedSchema = (schema: object | undefined) =>
  !!schema && ['type', '$ref', 'properties', 'allOf', 'anyOf', 'oneOf', 'items', 'const', 'enum'].some((k) => k in schema);
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: object;
}

/** The program a client developer would write; every `const x: T` fails to compile when the answer is untyped. */
const PROGRAM = `
import { constants, publicEncrypt } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.ts';

type IsUnknown<T> = unknown extends T ? true : false;
const typed = <T>(_value: T, ok: IsUnknown<T> extends true ? never : true): void => void ok;

const baseUrl = process.env.API_BASE_URL ?? 'http://127.0.0.1:8000';
const client = createClient<paths>({ baseUrl });

const key = await client.GET('/api/publicKey');
if (!key.data) throw new Error('no public key');
const publicKey: string = key.data.publicKey;
const pem = '-----BEGIN PUBLIC KEY-----\\n' + publicKey.match(/.{1,64}/g)!.join('\\n') + '\\n-----END PUBLIC KEY-----\\n';
const password = publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(process.env.API_PASSWORD ?? '')).toString('base64');

const captcha = await client.GET('/api/code');
typed(captcha.data, true);
const needsCode: boolean | undefined = captcha.data?.enabled;

const login = await client.POST('/api/login', { body: { username: 'admin', password, uuid: captcha.data?.uuid, rememberMe: false } });
if (!login.data) throw new Error('sign-in refused: ' + login.error?.message);
typed(login.data, true);
const token: string = login.data.token;
const roles: components['schemas']['RoleInfo'][] = login.data.user.roles;
// @ts-expect-error the answer is typed: a property it does not have is an error
void login.data.notAField;

const headers = { Authorization: 'Bearer ' + token };
const info = await client.GET('/api/info', { headers });
const nickName: string | undefined = info.data?.user.nickName;
const permissions: string[] | undefined = info.data?.permissions;

// a generated list: a page of the entity's records
const feedback = await client.GET('/api/sysQuestion', { params: { query: { page: 0, size: 5, sort: ['id,desc'] } }, headers });
typed(feedback.data, true);
const total: number | undefined = feedback.data?.totalElements;
const firstTitle: string | null | undefined = feedback.data?.content[0]?.title;

// hand-written routes: the department tree and the brand tree
const companies = await client.GET('/api/dept/lazy', { params: { query: { pid: 0 } }, headers });
typed(companies.data, true);
const companyNames: string[] = (companies.data ?? []).map((d) => d.name);
const brands = await client.GET('/api/brandTree/getTree', { params: { query: { levels: 2 } }, headers });
const kinds: Array<'brand' | 'series' | 'model' | 'config' | 'colour' | 'pack'> = (brands.data ?? []).flatMap((b) => [b.kind, ...(b.children ?? []).map((c) => c.kind)]);

// hand-written routes with schemas of their own: 首页's summary and the backups list
const home = await client.GET('/api/home/summary', { headers });
typed(home.data, true);
const todo: number = (home.data?.items ?? []).reduce((n, item) => n + item.count, 0);
const chartDays: string[] = (home.data?.charts[0]?.days ?? []).map((d) => d.date);
const backups = await client.GET('/api/backups', { headers });
typed(backups.data, true);
const keep: number | undefined = backups.data?.keep;
const reasons: Array<'manual' | 'schedule' | 'cli' | 'pre-restore' | 'pre-migration'> = (backups.data?.content ?? []).map((b) => b.reason);

// the user picker of other screens' dialogs
const picked = await client.GET('/api/users/pick', { params: { query: { blurry: 'admin', size: 5 } }, headers });
typed(picked.data, true);
const pickedNames: string[] = (picked.data?.content ?? []).map((u) => u.nickName);

// an error answer is typed too
const refused = await client.GET('/api/info');
const message: string | undefined = refused.error?.message;

await client.DELETE('/api/logout', { headers });
console.log(JSON.stringify({ needsCode, roles: roles.length, nickName, permissions, total, firstTitle, companyNames, kinds: [...new Set(kinds)], message, todo, chartDays: chartDays.length, keep, reasons, pickedNames }));
`;

describe.each(testApps().slice(0, 1))('the OpenAPI document for client generators on %s', (_dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let doc: Document;
  let base: string;

  beforeAll(async () => {
    t = await start({ seedDemo: true });
    app = t.app;
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await app.inject({ url: '/api/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json<Document>();
    mkdirSync(WORK, { recursive: true });
    writeFileSync(join(WORK, 'openapi.json'), res.body);
  });
  afterAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    await t?.close();
  });

  it('passes @redocly/cli lint with the recommended rules at 0 errors', () => {
    const lint = spawnSync(
      process.execPath,
      [resolve('node_modules/@redocly/cli/bin/cli.js'), 'lint', join(WORK, 'openapi.json'), '--format=json', '--max-problems=10000'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{'))) as {
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(lint.status).toBe(0);
    // warnings left on purpose: no licence (the product is not published), the websocket routes' 101,
    // and `<path>/updateEnabled/{id}` beside `<path>/{id}/history` (a static segment wins in the router,
    // so `updateEnabled/history` is the toggle; ids are numbers)
    const warnings = new Set(report.problems.filter((p) => p.severity === 'warn').map((p) => p.ruleId));
    expect([...warnings].sort()).toEqual(['info-license', 'no-ambiguous-paths', 'operation-2xx-response']);
  }, 120_000);

  it('gives every operation a unique operationId made from its method and path', () => {
    const ids: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${path}`).toBe(operationIdOf(method, path));
        ids.push(op.operationId!);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationIdOf('get', '/api/dept/lazy')).toBe('getApiDeptLazy');
    expect(operationIdOf('PUT', '/api/sysQuestion/updateEnabled/:id')).toBe('putApiSysQuestionUpdateEnabledById');
    expect(operationIdOf('POST', '/api/users/updatePass/')).toBe('postApiUsersUpdatePass');
  });

  it('documents every entry of the hand-written tables on a served route, and types every answer and every write body', () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    expect(Object.keys(HAND_WRITTEN_ROUTES).filter((key) => !documented.has(key))).toEqual([]);
    const untypedAnswers: string[] = [];
    const writesWithoutBody: string[] = [];
    const declaredWithoutBody: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          const media = Object.values(answer.content ?? {});
          // every answer with a body, errors included, says what the body is (101 switches to WebSocket: no HTTP body)
          if (status !== '101' && media.length && !media.some((m) => typedSchema(m.schema)))
            untypedAnswers.push(`${method} ${path} ${status}`);
        }
        if (!['post', 'put', 'patch'].includes(method) || op.requestBody) continue;
        // restoring a revision names it in the path: declared like the others, not listed one by one
        if (op['x-no-body']) {
          if (!/\/restore\/\{revisionId\}$/.test(path)) declaredWithoutBody.push(`${method} ${path}`);
        } else writesWithoutBody.push(`${method} ${path}`);
      }
    }
    // every hand-written route is in src/server/api-docs-routes.ts or an area table beside it (src/server/openapi/)
    expect(untypedAnswers).toEqual([]);
    expect(writesWithoutBody).toEqual([]);
    // the writes that only trigger an action (what they act on is in the path or the query) say so
    // explicitly (`x-no-body` with the reason); a new one is added here on purpose, not by omission
    expect(declaredWithoutBody.sort()).toEqual([
      'post /api/backups',
      'post /api/privacy/retention/run',
      'post /api/users/resetPass',
      'put /api/jobs/exec/{id}',
      'put /api/jobs/passwordReminder/read',
      'put /api/jobs/{id}',
    ]);
    for (const key of ['POST /api/login', 'GET /api/info', 'GET /api/dept/lazy', 'GET /api/brandTree/getTree', 'POST /api/staffun']) {
      const [method, path] = key.split(' ');
      expect(untypedAnswers, key).not.toContain(`${method.toLowerCase()} ${path}`);
    }
  });

  it('generates a typed client that signs in and calls a generated list and hand-written routes', async () => {
    const types = astToString(await openapiTS(JSON.parse(JSON.stringify(doc)) as never));
    writeFileSync(join(WORK, 'schema.ts'), types);
    writeFileSync(join(WORK, 'program.ts'), PROGRAM);
    writeFileSync(
      join(WORK, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          allowImportingTsExtensions: true,
          types: ['node'],
          skipLibCheck: true,
        },
        files: ['program.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [resolve('node_modules/typescript-native/bin/tsc'), '-p', join(WORK, 'tsconfig.json')], {
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // asynchronously: the server answering the program lives in this process
    const run = await execFileAsync(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), join(WORK, 'program.ts')], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, API_BASE_URL: base, API_PASSWORD: ADMIN_PASSWORD },
    });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(out).toMatchObject({ needsCode: false, roles: 1, nickName: expect.any(String) as string, permissions: ['admin'] });
    expect(out.total).toBeGreaterThan(0);
    expect(out.companyNames).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(out.kinds).toEqual(['brand', 'series']);
    expect(out.message).toBe('登录状态已过期，请重新登录');
    expect(out).toMatchObject({ chartDays: 30, keep: expect.any(Number) as number, reasons: [] });
    expect(out.todo).toBeGreaterThanOrEqual(0);
    expect(out.pickedNames).toEqual([expect.any(String)]);
  }, 180_000);
  it('answers the hand-written routes as documented', async () => {
    const token = await loginAs(app, 'admin', ADMIN_PASSWORD);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'https://openapi.local/doc', components: doc.components });
    let bearer = token;
    const call = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${bearer}`, ...headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      const isJson = /json/.test(String(res.headers['content-type']));
      return { status: res.statusCode, body: res.body === '' ? null : isJson ? res.json<unknown>() : { binary: res.rawPayload.length } };
    };
    /** Sends the call and validates the answer against the documented answer of its status. */
    const check = async (path: string, url: string, method = 'GET', payload?: unknown, headers?: Record<string, string>) => {
      const answer = await call(method, url, payload, headers);
      const documented = doc.paths[path]?.[method.toLowerCase()]?.responses[String(answer.status)];
      expect(documented, `${method} ${url} answered ${answer.status}, which the document does not give`).toBeDefined();
      const media = documented?.content?.['application/json']?.schema;
      if (!media && documented?.content) {
        // a file: the document gives its media type, the answer is not JSON
        expect(answer.body, `${method} ${url}`).toMatchObject({ binary: expect.any(Number) as number });
        return answer.body;
      }
      if (!media) {
        expect(answer.body, `${method} ${url}: the document gives no body for ${answer.status}`).toBeNull();
        return answer.body;
      }
      const schema = JSON.parse(JSON.stringify(media).replaceAll('"#/components/', '"https://openapi.local/doc#/components/')) as object;
      const validate = ajv.compile(schema);
      expect(validate(answer.body) ? [] : validate.errors, `${method} ${url}`).toEqual([]);
      return answer.body;
    };
    const companies = (await check('/api/dept/lazy', '/api/dept/lazy?pid=0')) as Array<{ id: number }>;
    const brands = (await check('/api/brandTree/getTreeByPid', '/api/brandTree/getTreeByPid?pid=0')) as Array<{ id: number; name: string }>;
    const postings = (await check('/api/staffunZp/public', '/api/staffunZp/public')) as { content: Array<{ id: number }> };
    expect(companies.length && brands.length && postings.content.length).toBeTruthy();
    for (const [path, url] of [
      ['/api/health', '/api/health'],
      ['/api/health/ready', '/api/health/ready'],
      ['/api/code', '/api/code'],
      ['/api/publicKey', '/api/publicKey'],
      ['/api/info', '/api/info'],
      ['/api/menus/build', '/api/menus/build'],
      ['/api/dept', '/api/dept?page=0&size=50'],
      ['/api/dept/getDeptList', '/api/dept/getDeptList'],
      ['/api/dept/getIdNameAndPid', '/api/dept/getIdNameAndPid'],
      ['/api/dept/getIdsByPid', `/api/dept/getIdsByPid?id=${companies[0].id}`],
      ['/api/brandTree', '/api/brandTree?pid=0'],
      ['/api/brandTree/getTree', '/api/brandTree/getTree'],
      ['/api/brandTree/getBrandTree', '/api/brandTree/getBrandTree?levels=3'],
      ['/api/system/deptRemark/getBrandTree', '/api/system/deptRemark/getBrandTree'],
      ['/api/brandTree/getItem', `/api/brandTree/getItem?id=${brands[0].id}`],
      ['/api/brandTree/getItem', '/api/brandTree/getItem?id=999999'],
      ['/api/brandTree/findTree', `/api/brandTree/findTree?name=${encodeURIComponent(brands[0].name)}`],
      ['/api/staffunZp/public/getZpById', `/api/staffunZp/public/getZpById?id=${postings.content[0].id}`],
      ['/api/users', '/api/users?page=0&size=10'],
      ['/api/roles', '/api/roles?page=0&size=10'],
      ['/api/roles/all', '/api/roles/all'],
      ['/api/roles/level', '/api/roles/level'],
      ['/api/roles/{id}', '/api/roles/1'],
      ['/api/menus', '/api/menus?pid=0'],
      ['/api/menus/getMenusByPid', '/api/menus/getMenusByPid?pid=0'],
      ['/api/menus/list', '/api/menus/list'],
      ['/api/menus/findUserByMenu', '/api/menus/findUserByMenu?menuId=1'],
      ['/api/dict', '/api/dict?page=0&size=10'],
      ['/api/dictDetail', '/api/dictDetail?dictName=user_type'],
      ['/api/busidict/options/{x}', `/api/busidict/options/${encodeURIComponent('承保公司')}`],
      ['/api/busidict/list/{x}', '/api/busidict/list/0'],
      ['/api/staff/findByMobile', '/api/staff/findByMobile?mobile=13800000001'],
      ['/api/system/sysConfigInit/anon/pc', '/api/system/sysConfigInit/anon/pc'],
      ['/api/system/sysConfig', '/api/system/sysConfig'],
      ['/api/outbox', '/api/outbox?page=0&size=10'],
      ['/api/jobs/functions', '/api/jobs/functions'],
      ['/api/jobs/logs', '/api/jobs/logs?page=0&size=10'],
      ['/api/logs', '/api/logs?page=0&size=10'],
      ['/api/logs/user', '/api/logs/user?page=0&size=10'],
      ['/api/sysSocket/getSocket', '/api/sysSocket/getSocket?page=0&size=10'],
      ['/api/sysSocket/getNotRead', '/api/sysSocket/getNotRead?page=0&size=10'],
      ['/api/system/deptRemark/getOrg', '/api/system/deptRemark/getOrg'],
      ['/api/system/deptRemark/getDeptRemarkByOrgId', `/api/system/deptRemark/getDeptRemarkByOrgId?orgId=${companies[0].id}`],
      ['/api/staff/getAllOnStaff', `/api/staff/getAllOnStaff?orgId=${companies[0].id}`],
      ['/api/staff/search', `/api/staff/search?search=${encodeURIComponent('张')}`],
      ['/api/staff/jobHistory', '/api/staff/jobHistory?id=1'],
      ['/api/dbc/dbcInfo/viewContract', '/api/dbc/dbcInfo/viewContract?contract_id=999999'],
      ['/api/home/summary', '/api/home/summary'],
      ['/api/backups', '/api/backups'],
      ['/api/backups/task', '/api/backups/task'],
      ['/api/users/pick', '/api/users/pick?blurry=a&page=0&size=5'],
      ['/api/users/option', `/api/users/option?orgId=${companies[0].id}`],
      ['/api/jobs/passwordReminder', '/api/jobs/passwordReminder'],
      ['/api/menuPage/menu', '/api/menuPage/menu?path=system/user'],
      ['/api/menuPage/menu', '/api/menuPage/menu?path=no/such/page'],
      ['/api/decision/getDecision', '/api/decision/getDecision'],
      ['/api/decision/sso', '/api/decision/sso?page=0&size=5'],
      ['/api/getQywxInfo', '/api/getQywxInfo'],
      ['/api/findByPhone', '/api/findByPhone?phone=13900000000'],
      ['/api/sysSocketChat/wssList', '/api/sysSocketChat/wssList'],
      ['/api/xs/xsSubmersibleFile/getOwn', '/api/xs/xsSubmersibleFile/getOwn?page=0&size=5'],
      [
        '/api/xs/xsSubmersibleFile/getValidMainClue',
        `/api/xs/xsSubmersibleFile/getValidMainClue?mobile=13900000000&orgId=${companies[0].id}`,
      ],
      ['/api/xs/xsSubmersibleFile/isTjgc', '/api/xs/xsSubmersibleFile/isTjgc?id=999999'],
      ['/api/xs/xsSubmersibleFile/getSalesConsultant', `/api/xs/xsSubmersibleFile/getSalesConsultant?orgId=${companies[0].id}`],
      ['/api/xs/xsLrSjmx/getListAll', '/api/xs/xsLrSjmx/getListAll'],
      ['/api/xs/xsLrSjmx/findGroup', '/api/xs/xsLrSjmx/findGroup'],
      ['/api/xs/xsLrSjmx/selectGroupBrandCxType', '/api/xs/xsLrSjmx/selectGroupBrandCxType'],
      ['/api/xsZjs/getcx', '/api/xsZjs/getcx'],
      ['/api/staffunZp/getZpById', `/api/staffunZp/getZpById?id=${postings.content[0].id}`],
      ['/api/dbc/dbcInfo/history', '/api/dbc/dbcInfo/history?id=999999'],
      ['/api/other/otherSysDbx', '/api/other/otherSysDbx?vin=LSVAA4182E2184859'],
      ['/api/dbc/dbcInfo/queryQmbcByVin', '/api/dbc/dbcInfo/queryQmbcByVin?vin=LSVAA4182E2184859&page=0&size=5'],
      ['/api/dbc/dbcInfo/invokeFindPersonCert', '/api/dbc/dbcInfo/invokeFindPersonCert?contract_id=999999'],
      ['/api/qywxapp/approval/approvalBizSync/{id}', '/api/qywxapp/approval/approvalBizSync/12345'],
      ['/api/kf/phoneToAddress', '/api/kf/phoneToAddress?phone=13800138000'],
      ['/api/kf/phoneToAddress', '/api/kf/phoneToAddress?phone=12'],
      ['/api/tms/tmsZhcl/findZhclItem', '/api/tms/tmsZhcl/findZhclItem'],
      ['/api/dept/syncQwDept', '/api/dept/syncQwDept'],
    ])
      await check(path, url);

    // writes, and what they answer
    const chat = (await check('/api/sysSocketChat', '/api/sysSocketChat', 'POST', { msg: '文档<b>测试</b>' })) as { id: number };
    await check('/api/sysSocketChat', '/api/sysSocketChat', 'PUT', { id: chat.id, msg: '改过的消息' });
    await check('/api/sysSocketChat', '/api/sysSocketChat', 'POST', { msg: '' });
    await check('/api/sysSocketChat', '/api/sysSocketChat?page=0&size=5');
    await check('/api/sysSocketChat', '/api/sysSocketChat', 'DELETE', [chat.id]);
    await check('/api/jobs/passwordReminder/read', '/api/jobs/passwordReminder/read', 'PUT');
    await check('/api/backups/{name}', '/api/backups/backup-20200101-000000-manual.tar.gz', 'DELETE');
    const lead = { mobile: '13900000000', orgId: companies[0].id };
    await check('/api/xs/xsSubmersibleFile/isCreate', '/api/xs/xsSubmersibleFile/isCreate', 'POST', lead);
    const visit = '/api/xs/xsSubmersibleFile/passengerFlowTransform';
    const clue = (await check(visit, visit, 'POST', { ...lead, customerName: '文档客户' })) as { id: number; created: boolean };
    expect(clue.created).toBe(true);
    await check(visit, visit, 'POST', { ...lead, customerName: '文档客户' });
    await check('/api/xs/xsSubmersibleFile/isCreate', '/api/xs/xsSubmersibleFile/isCreate', 'POST', lead);
    await check(
      '/api/xs/xsSubmersibleFile/getValidMainClue',
      `/api/xs/xsSubmersibleFile/getValidMainClue?mobile=${lead.mobile}&orgId=${lead.orgId}`,
    );
    const convert = '/api/xs/xsSubmersibleFile/clueConvertSubmersibleFile';
    await check(convert, convert, 'POST', { ids: [clue.id] });
    await check(convert, convert, 'POST', { ids: [999999] });
    await check('/api/xsZjs/updateCreateTime', '/api/xsZjs/updateCreateTime', 'PUT', { id: 999999, createTime: '2025-01-01 00:00:00' });
    // uploads: a picture stored, then served; no file is a 400
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const upload = multipartFile('dot.png', png, 'image/png');
    const stored = (await check('/api/pictures', '/api/pictures', 'POST', upload.payload, upload.headers)) as { key: string };
    await check('/api/files/{key}', `/api/files/${stored.key}`);
    await check('/api/files/{key}', `/api/files/${'0'.repeat(32)}`);
    await check('/api/public/imgToTByte', '/api/public/imgToTByte', 'POST', upload.payload, upload.headers);
    await check('/api/uploadFileApi', '/api/uploadFileApi', 'POST', { file: 'none' });
    const ocr = multipartFile('dot.png', png, 'image/png');
    await check('/api/ocr/getVin', '/api/ocr/getVin', 'POST', ocr.payload, ocr.headers);
    await check('/api/dbc/dbcInfo/status', '/api/dbc/dbcInfo/status', 'PUT', { id: 999999, status: 4 });
    await check('/api/dbc/dbcInfo/resendMessage', '/api/dbc/dbcInfo/resendMessage', 'POST', { contract_id: 999999 });
    await check('/api/staffjlk/staffJoin', '/api/staffjlk/staffJoin', 'POST', { id: 999999 });
    await check('/api/staff/qywx', '/api/staff/qywx', 'POST', { id: 1 });
    await check('/api/dept/addQw', '/api/dept/addQw', 'PUT', { id: companies[0].id });
    await check('/api/resetPassword', '/api/resetPassword', 'POST', { phone: '13900000000', code: '1', password: 'x' });

    // the dealer portal, with a dealer's token
    const dealer = await app.inject({
      method: 'POST',
      url: '/comp/dbcCompany/auth/login',
      payload: { username: 'jxs001', password: encryptPassword(await publicKeyOf(app), 'Jxs@123456') },
    });
    expect(dealer.statusCode).toBe(200);
    bearer = dealer.json<{ token: string }>().token;
    for (const [path, url] of [
      ['/comp/dbcCompany/auth/info', '/comp/dbcCompany/auth/info'],
      ['/comp/dbcCompany/getDbcUserInfos', '/comp/dbcCompany/getDbcUserInfos?page=0&size=10'],
      ['/comp/dbcCompany/getMember', '/comp/dbcCompany/getMember?mobile=13800000001'],
      ['/comp/dbcCompany/getTree', '/comp/dbcCompany/getTree?levels=2'],
    ])
      await check(path, url);
  });
});
