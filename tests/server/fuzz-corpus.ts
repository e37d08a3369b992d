/**
 * Hostile requests for every route the server registers, generated from the route catalogue
 * (so a new route is fuzzed without editing anything): wrong types, huge and empty strings,
 * prototype keys, SQL and script text, 20,000-deep nesting, bad encodings and content types,
 * hostile files on every route that takes a file, and bad tokens. Used by the fuzz test (a small
 * corpus) and by `npm run fuzz` (at least 10,000 requests).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { routeCatalogue, type RouteEntry } from '../../src/server/auth/index.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import { hostileImportFiles } from './zip-fixtures.ts';

export interface FuzzCase {
  route: string;
  kind: string;
  request: InjectOptions;
}

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Strings a client may send anywhere. */
export const HOSTILE_TEXT = [
  '',
  ' ',
  'x'.repeat(100_000),
  "' or 1=1 --",
  '1; drop table sys_user',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '__proto__',
  'constructor',
  '%00',
  '\u0000\u0001\u001f',
  '\ud800',
  '../../etc/passwd',
  '${7*7}{{7*7}}',
  '1e309',
  '-1',
  '99999999999999999999999',
  '中文'.repeat(5000),
];

/** Bodies of every shape a JSON route may be sent. */
export const HOSTILE_BODIES: Array<{ kind: string; payload: string | Buffer; type: string }> = [
  { kind: 'string', payload: '"text"', type: 'application/json' },
  { kind: 'number', payload: '42', type: 'application/json' },
  { kind: 'null', payload: 'null', type: 'application/json' },
  { kind: 'array of junk', payload: JSON.stringify([{}, -1, 'x', null, [[]]]), type: 'application/json' },
  { kind: 'proto keys', payload: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"id":1}', type: 'application/json' },
  {
    kind: 'wrong types',
    payload: JSON.stringify({
      id: 'abc',
      pid: {},
      name: 12,
      enabled: 'yes',
      sort: [],
      roles: 'all',
      menus: [{ id: {} }],
      depts: [null],
      page: -1,
      size: 'x',
    }),
    type: 'application/json',
  },
  { kind: 'huge numbers', payload: JSON.stringify({ id: 1e308, pid: -1e308, level: 1e20, sort: 2 ** 53 + 1 }), type: 'application/json' },
  { kind: 'deep array', payload: deep(20_000), type: 'application/json' },
  { kind: 'deep object', payload: deepObject(20_000), type: 'application/json' },
  { kind: 'broken json', payload: '{"a":', type: 'application/json' },
  {
    kind: 'bad utf-8',
    payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
    type: 'application/json; charset=utf-8',
  },
  { kind: 'text/plain', payload: 'name=x', type: 'text/plain' },
  {
    kind: 'xml',
    payload: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
    type: 'application/xml',
  },
  { kind: 'form', payload: 'a=1&__proto__[x]=1', type: 'application/x-www-form-urlencoded' },
];

export const HOSTILE_TOKENS = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer x',
  `Bearer ${'a'.repeat(10_000)}`,
  'Basic YWRtaW46YWRtaW4=',
  'Bearer ap.forged',
  'Bearer \u0000',
];

/** Routes that take a file (multipart). */
export function takesFile(r: RouteEntry): boolean {
  return (
    r.method === 'POST' &&
    /\/(import|pictures|uploadFileApi|qiNiuContent|updateAvatar|media\/\w+|imgToTByte|getCph|getJz|getXsz|getVin|getYhk)$/.test(r.url)
  );
}

/** Percent-encoded text; a lone surrogate (which encodeURIComponent refuses) goes as its raw bytes, invalid UTF-8. */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function pathOf(r: RouteEntry, param: string): string {
  return r.url.replace(/:[A-Za-z]+/g, enc(param)).replace(/\*$/, 'x');
}

/**
 * The cases for every route; `size` picks how many variants of each kind (1 for the test's
 * small corpus, all for `npm run fuzz`).
 */
export function fuzzCases(app: FastifyInstance, token: string, opts: { full: boolean }): FuzzCase[] {
  const routes = routeCatalogue(app).filter((r) => !r.url.includes('*') && r.identity !== 'socket' && r.url !== '/api/logout');
  const texts = opts.full ? HOSTILE_TEXT : [HOSTILE_TEXT[2], HOSTILE_TEXT[3], HOSTILE_TEXT[7], HOSTILE_TEXT[11]];
  const bodies = opts.full
    ? HOSTILE_BODIES
    : HOSTILE_BODIES.filter((b) => ['proto keys', 'wrong types', 'deep array', 'bad utf-8', 'xml'].includes(b.kind));
  const tokens = opts.full ? HOSTILE_TOKENS : HOSTILE_TOKENS.slice(3, 5);
  const auth = { authorization: `Bearer ${token}` };
  const files = hostileImportFiles(64 * 1024 * 1024);
  const out: FuzzCase[] = [];
  for (const r of routes) {
    const route = `${r.method} ${r.url}`;
    // a path parameter: hostile texts (the small corpus: a plain one and invalid UTF-8)
    const params = !r.url.includes(':') ? [''] : opts.full ? texts.filter((t) => t.length < 1000) : ['1', '\ud800'];
    for (const p of params) {
      const url = pathOf(r, p || '1');
      if (r.method === 'GET' || r.method === 'DELETE') {
        for (const t of texts) {
          const v = enc(t);
          out.push({
            route,
            kind: 'query',
            request: { method: r.method, url: `${url}?id=${v}&page=${v}&size=${v}&sort=${v}&blurry=${v}&${v}=${v}`, headers: auth },
          });
        }
      }
      if (r.method !== 'GET') {
        for (const b of bodies) {
          out.push({
            route,
            kind: `body ${b.kind}`,
            request: {
              method: r.method as 'POST',
              url,
              headers: { ...auth, 'content-type': b.type, submit_id: `fuzz-${out.length}` },
              payload: b.payload,
            },
          });
        }
      }
      if (takesFile(r)) {
        for (const [name, content] of Object.entries(files)) {
          const form = multipartFile(`${name}.xlsx`, content, XLSX_TYPE);
          out.push({
            route,
            kind: `file ${name}`,
            request: { method: 'POST', url, headers: { ...auth, ...form.headers, submit_id: `fuzz-${out.length}` }, payload: form.payload },
          });
        }
      }
      for (const t of tokens) {
        out.push({ route, kind: 'token', request: { method: r.method as 'GET', url, headers: { authorization: t } } });
      }
    }
  }
  return out;
}

/** A digest of every row of the tables a rejected request must leave alone (logs, sessions and counters excepted). */
/**
 * A hash of every table's rows by table (logs, sessions, counters and other bookkeeping left
 * out). Run the app with `jobsEnabled: false`: a scheduled job firing meanwhile writes its log.
 */
export async function tableFingerprint(app: FastifyInstance): Promise<Map<string, string>> {
  const db = app.database.db;
  const tables = (await db.introspection.getTables())
    .map((t) => t.name)
    .filter(
      (n) =>
        !/^(sys_log|sys_session|sys_captcha|sys_submit|sys_outbox|sys_download|sys_rate|sys_counter|sys_limit_counter|sys_realtime_event|sys_user_online|kysely_)/.test(
          n,
        ) && !n.startsWith('sqlite_'),
    )
    .sort();
  const out = new Map<string, string>();
  for (const t of tables) {
    const rows = await db.selectFrom(t).selectAll().execute();
    out.set(t, createHash('sha256').update(JSON.stringify(rows)).digest('hex'));
  }
  return out;
}

/** The tables whose rows differ between two fingerprints. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((t) => before.get(t) !== after.get(t));
}
