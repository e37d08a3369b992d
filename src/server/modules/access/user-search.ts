/**
 * The text search of the user lists (用户管理 `api/users`, the user picker `api/users/pick`, a
 * company's users `api/users/option`): the text is found in the user name and the nickname as
 * a substring (and in the phone and e-mail for callers who see them in full), and a pinyin
 * query (zs, zhangsan, zsan: the shared rule of shared/pinyin.ts, with surname readings) also
 * finds nicknames: 张三 by zs, 单雄信 by sxx.
 *
 * Users are a group's staff, a few thousand rows, so the nicknames are matched in memory rather
 * than through stored keys as the schemas' marked fields are: each search by pinyin reads the
 * ids and nicknames (never more than MAX_USERS_BY_PINYIN rows; past that it answers 400 and asks
 * for characters) and the keys of each nickname are computed once and kept while the process
 * lives. The ids found only widen the text condition: the list's own filters and the caller's
 * data scope still apply to them.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../types.ts';
import { pinyinMatcher, pinyinQuery } from '../../../shared/pinyin.ts';
import { badRequest } from '../../errors.ts';
import { escapeLike } from './input.ts';

export const MAX_USERS_BY_PINYIN = 50_000;
export const TOO_MANY_USERS_FOR_PINYIN = '用户过多，无法按拼音查找，请输入姓名中的汉字';

const matchName = pinyinMatcher('name');

/** The ids of the users whose nickname the pinyin query finds (in id order). */
async function idsByPinyin(db: Db, text: string): Promise<number[]> {
  const rows = await db
    .selectFrom('sys_user')
    .select(['id', 'nick_name'])
    .where('nick_name', 'is not', null)
    .where('nick_name', '!=', '')
    .orderBy('id')
    .limit(MAX_USERS_BY_PINYIN + 1)
    .execute();
  if (rows.length > MAX_USERS_BY_PINYIN) throw badRequest(TOO_MANY_USERS_FOR_PINYIN);
  const ids: number[] = [];
  for (const r of rows) if (matchName(String(r.nick_name), text)) ids.push(Number(r.id));
  return ids;
}

/** The condition on `sys_user as u` of a search text; `contacts`: also the phone and e-mail. */
export async function userTextCondition(db: Db, text: string, contacts = false): Promise<Expression<SqlBool>> {
  const like = `%${escapeLike(text)}%`;
  const columns = contacts ? ['u.username', 'u.nick_name', 'u.phone', 'u.email'] : ['u.username', 'u.nick_name'];
  const parts = columns.map((c) => sql<SqlBool>`${sql.ref(c)} like ${like} escape '\\'`);
  if (pinyinQuery(text)) {
    const ids = await idsByPinyin(db, text);
    // integers read from the table, written as literals: any number of them fits one statement
    if (ids.length) parts.push(sql<SqlBool>`u.id in (${sql.raw(ids.map((id) => String(Math.trunc(id))).join(','))})`);
  }
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
