/**
 * Fills the feedback table (sysQuestion) with many rows, fast, for the benchmarks.
 *
 * The app creates the table and its indexes; the seeder drops those indexes, inserts, then
 * recreates them from their own definitions (bulk building an index is much faster than
 * growing it row by row) and runs ANALYZE so the planner knows the table.
 *
 * SQLite: multi-row INSERTs of 500 rows in transactions of 100,000 through a second
 * better-sqlite3 handle on the same file. PostgreSQL: INSERT ... SELECT FROM generate_series.
 * Values are a realistic mix: mostly 员工, 销售 and 售后 the busiest modules, about 60 %
 * 已处理, creation times spread over three years and rising with the id, contact details only
 * for named customers.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { resourceByName } from '../../src/generated/resources.ts';
import type { Database, Db } from '../../src/server/types.ts';
import { mulberry32 } from './random.ts';

const spec = resourceByName.sysQuestion;
if (!spec) throw new Error('sysQuestion is not among the generated resources (run npm run codegen)');
export const QUESTION_TABLE = spec.table;

/** property name -> column name, from the resource spec */
export function col(name: string): string {
  const f = spec.fields.find((x) => x.name === name);
  if (!f) throw new Error(`sysQuestion has no field ${name}`);
  return f.column;
}

export const USER_TYPES: Array<[string, number]> = [
  ['员工', 65],
  ['客户', 35],
];
/** module and its share in percent */
export const MODELS: Array<[string, number]> = [
  ['系统', 15],
  ['销售', 22],
  ['售后', 18],
  ['人事', 6],
  ['行政', 5],
  ['服务', 12],
  ['客户', 10],
  ['市场', 7],
  ['其他', 5],
];
export const STATUS_DONE_PERCENT = 60;
export const ENABLED_PERCENT = 98;
export const SPAN_SECONDS = 3 * 365 * 24 * 3600;
/** the first creation time; row i is created at START + i * SPAN / rows (+ up to 10 minutes) */
export const START = '2022-01-01 08:00:00';

const TITLES = [
  '系统登录偶尔失败',
  '报表导出速度慢',
  '客户信息无法保存',
  '希望增加批量操作',
  '页面加载时间过长',
  '审批流程提醒不及时',
  '手机端显示错位',
  '数据统计口径不一致',
  '建议优化搜索功能',
  '售后工单无法关闭',
  '',
];
const SENTENCES = [
  '在客户管理页面点击保存后一直转圈，刷新后数据丢失。',
  '导出本月销售报表需要等待很久，希望能够加快。',
  '建议在列表页增加按门店筛选的条件。',
  '手机上打开审批页面时按钮被遮挡，无法提交。',
  '售后回访记录偶尔重复生成两条。',
  '希望新车到店后能自动提醒对应的销售顾问。',
  '统计报表中的成交台数与实际不一致，请核实。',
  '登录时验证码经常看不清，建议换一种样式。',
];
const REMARKS = ['建议增加导出进度提示。', '希望下个版本能够修复。', '可以参考其他门店的做法。', '请尽快处理，影响日常工作。'];
const NAMES = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊', '赵敏', '黄强'];

function pickWeighted(table: Array<[string, number]>, r: number): string {
  let acc = 0;
  const x = r * 100;
  for (const [v, w] of table) {
    acc += w;
    if (x < acc) return v;
  }
  return table[table.length - 1][0];
}

function timeText(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
const START_EPOCH = Date.parse(START.replace(' ', 'T') + 'Z') / 1000;

/** Creation time of the row at 0-based position i out of total rows (without the jitter). */
export function createTimeAt(i: number, total: number): string {
  return timeText(START_EPOCH + Math.floor((i * SPAN_SECONDS) / total));
}

interface Index {
  name: string;
  definition: string;
}

async function dropIndexes(database: Database): Promise<Index[]> {
  const { db, dialect } = database;
  let found: Index[];
  if (dialect === 'sqlite') {
    const r = await sql<{
      name: string;
      sql: string | null;
    }>`select name, sql from sqlite_master where type = 'index' and tbl_name = ${QUESTION_TABLE}`.execute(db);
    found = r.rows.filter((x) => x.sql).map((x) => ({ name: x.name, definition: x.sql! }));
  } else {
    const r = await sql<{
      indexname: string;
      indexdef: string;
    }>`select indexname, indexdef from pg_indexes where tablename = ${QUESTION_TABLE} and indexdef not like '%UNIQUE%'`.execute(db);
    found = r.rows.map((x) => ({ name: x.indexname, definition: x.indexdef }));
  }
  for (const ix of found) await sql`drop index ${sql.id(ix.name)}`.execute(db);
  return found;
}

async function recreateIndexes(database: Database, indexes: Index[]): Promise<void> {
  for (const ix of indexes) await sql.raw(ix.definition).execute(database.db);
  // PostgreSQL's autovacuum would do the same soon after a bulk insert (visibility map, statistics)
  if (database.dialect === 'postgres') await sql`vacuum analyze ${sql.id(QUESTION_TABLE)}`.execute(database.db);
  else await sql`analyze ${sql.id(QUESTION_TABLE)}`.execute(database.db);
}

async function rowCount(db: Db): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.id(QUESTION_TABLE)}`.execute(db);
  return Number(r.rows[0].n);
}

/**
 * Adds rows so the table holds `total` rows (the rows already there are kept: the export
 * benchmark grows 100k to 1M). Answers the number of rows added.
 */
export async function seedQuestions(database: Database, total: number): Promise<number> {
  const have = await rowCount(database.db);
  if (have >= total) return 0;
  const indexes = await dropIndexes(database);
  if (database.dialect === 'sqlite') await seedSqlite(database, have, total);
  else await seedPostgres(database, have, total);
  await recreateIndexes(database, indexes);
  const now = await rowCount(database.db);
  if (now !== total) throw new Error(`seeding left ${now} rows, expected ${total}`);
  return total - have;
}

async function sqliteFile(db: Db): Promise<string> {
  const r = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const main = r.rows.find((x) => x.name === 'main');
  if (!main?.file) throw new Error('the SQLite database has no file');
  return main.file;
}

const COLUMNS = ['userType', 'model', 'title', 'content', 'remark', 'username', 'mobile', 'status', 'enabled', 'createTime'];

async function seedSqlite(database: Database, from: number, total: number): Promise<void> {
  const file = await sqliteFile(database.db);
  const handle = new SQLite(file);
  try {
    handle.pragma('synchronous = OFF');
    const cols = COLUMNS.map(col);
    const perStatement = 500;
    const placeholders = `(${cols.map(() => '?').join(',')})`;
    const insertSql = (n: number) =>
      `insert into "${QUESTION_TABLE}" (${cols.map((c) => `"${c}"`).join(',')}) values ${Array(n).fill(placeholders).join(',')}`;
    const full = handle.prepare(insertSql(perStatement));
    const rand = mulberry32(from + 1);
    const values: unknown[] = [];
    const rowValues = (i: number) => {
      const userType = pickWeighted(USER_TYPES, rand());
      const named = userType === '客户' && rand() < 0.5;
      const model = pickWeighted(MODELS, rand());
      const s1 = SENTENCES[Math.floor(rand() * SENTENCES.length)];
      const s2 = rand() < 0.5 ? SENTENCES[Math.floor(rand() * SENTENCES.length)] : '';
      values.push(
        userType,
        model,
        TITLES[Math.floor(rand() * TITLES.length)] || null,
        s1 + s2,
        rand() < 0.4 ? REMARKS[Math.floor(rand() * REMARKS.length)] : null,
        named ? NAMES[Math.floor(rand() * NAMES.length)] : null,
        named ? `13${String(Math.floor(rand() * 1e9)).padStart(9, '0')}` : null,
        rand() * 100 < STATUS_DONE_PERCENT ? 1 : 0,
        rand() * 100 < ENABLED_PERCENT ? 1 : 0,
        timeText(START_EPOCH + Math.floor((i * SPAN_SECONDS) / total) + Math.floor(rand() * 600)),
      );
    };
    const batch = handle.transaction((start: number, end: number) => {
      let i = start;
      for (; i + perStatement <= end; i += perStatement) {
        values.length = 0;
        for (let k = 0; k < perStatement; k++) rowValues(i + k);
        full.run(values);
      }
      if (i < end) {
        values.length = 0;
        for (let k = i; k < end; k++) rowValues(k);
        handle.prepare(insertSql(end - i)).run(values);
      }
    });
    const perTransaction = 100_000;
    for (let start = from; start < total; start += perTransaction) batch(start, Math.min(total, start + perTransaction));
    handle.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    handle.close();
  }
}

function pgArray(items: string[]): string {
  return `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;
}

/** CASE over a 0..99 bucket picking by weight */
function pgWeighted(bucket: string, table: Array<[string, number]>): string {
  let acc = 0;
  const whens = table.slice(0, -1).map(([v, w]) => {
    acc += w;
    return `when ${bucket} < ${acc} then '${v}'`;
  });
  return `case ${whens.join(' ')} else '${table[table.length - 1][0]}' end`;
}

async function seedPostgres(database: Database, from: number, total: number): Promise<void> {
  const { db } = database;
  // h(k): a stable pseudo-random integer 0..99 per row and per column
  const h = (k: number) => `(abs(hashint4(g * 7 + ${k})) % 100)`;
  const hi = (k: number, n: number) => `(abs(hashint4(g * 13 + ${k})) % ${n})`;
  const cols = COLUMNS.map(col);
  const userType = pgWeighted(h(1), USER_TYPES);
  const chunk = 250_000;
  for (let start = from; start < total; start += chunk) {
    const end = Math.min(total, start + chunk);
    const select = `
      select ${userType},
        ${pgWeighted(h(2), MODELS)},
        nullif((${pgArray(TITLES)})[1 + ${hi(3, TITLES.length)}], ''),
        (${pgArray(SENTENCES)})[1 + ${hi(4, SENTENCES.length)}] || case when ${h(5)} < 50 then (${pgArray(SENTENCES)})[1 + ${hi(6, SENTENCES.length)}] else '' end,
        case when ${h(7)} < 40 then (${pgArray(REMARKS)})[1 + ${hi(8, REMARKS.length)}] end,
        case when ${h(1)} >= ${USER_TYPES[0][1]} and ${h(9)} < 50 then (${pgArray(NAMES)})[1 + ${hi(10, NAMES.length)}] end,
        case when ${h(1)} >= ${USER_TYPES[0][1]} and ${h(9)} < 50 then '13' || lpad(${hi(11, 1_000_000_000)}::text, 9, '0') end,
        ${h(12)} < ${STATUS_DONE_PERCENT},
        ${h(13)} < ${ENABLED_PERCENT},
        timestamp '${START}' + make_interval(secs => floor((g::bigint * ${SPAN_SECONDS}) / ${total}) + ${hi(14, 600)})
      from generate_series(${start}, ${end - 1}) as g`;
    await sql.raw(`insert into "${QUESTION_TABLE}" (${cols.map((c) => `"${c}"`).join(',')}) ${select}`).execute(db);
  }
}
