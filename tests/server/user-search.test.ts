/**
 * The user lists' text search by pinyin (api/users, api/users/pick, api/users/option): a
 * nickname is found by its initials, full pinyin or a mix, with surname readings, while the
 * substring search, the data scope and the other filters keep working; past MAX_USERS_BY_PINYIN
 * users a pinyin search answers 400 asking for characters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { nowText } from '../../src/server/db/index.ts';
import { MAX_USERS_BY_PINYIN, TOO_MANY_USERS_FOR_PINYIN } from '../../src/server/modules/access/user-search.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Page } from '../support/answers.ts';

const NAMES = { u9001: '张三', u9002: '单雄信', u9003: '曾国藩', u9004: '李四', u9005: '解缙' };

describe.each(testApps())('user search by pinyin on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  let rootId: number;
  let branchId: number;

  const names = async (token: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Page<{ nickName: string }>>();
    return body.content.map((u) => u.nickName).sort();
  };

  beforeAll(async () => {
    t = await start();
    const { db } = t.app.database;
    rootId = Number((await db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow()).id);
    const enabled = t.dialect === 'postgres' ? true : 1;
    branchId = Number(
      (
        await db
          .insertInto('sys_dept')
          .values({ name: '拼音分部', pid: rootId, sort: 9, enabled, create_time: nowText() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    for (const [username, nick] of Object.entries(NAMES)) {
      const id = await createStaff(t.app, { username, password: 'Passw0rd!x', permissions: ['sysQuestion:list'] });
      await db.updateTable('sys_user').set({ nick_name: nick }).where('id', '=', id).execute();
    }
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => t?.close());

  it('用户管理 finds nicknames by initials, full pinyin and a mix, any case, with spaces', async () => {
    expect(await names(admin, '/api/users?blurry=zs')).toEqual(['张三']);
    expect(await names(admin, '/api/users?blurry=zhangsan')).toEqual(['张三']);
    expect(await names(admin, '/api/users?blurry=ZhangS')).toEqual(['张三']);
    expect(await names(admin, `/api/users?blurry=${encodeURIComponent('Zhang san')}`)).toEqual(['张三']);
    expect(await names(admin, '/api/users?blurry=ls')).toEqual(['李四']);
    // characters still match as a substring; a user name still matches as before
    expect(await names(admin, `/api/users?blurry=${encodeURIComponent('国')}`)).toEqual(['曾国藩']);
    expect(await names(admin, '/api/users?blurry=u9004')).toEqual(['李四']);
    // nothing by a guess that reads no nickname
    expect(await names(admin, '/api/users?blurry=wxy')).toEqual([]);
  });

  it('surnames take their surname reading: 单 shan, 曾 zeng, 解 xie', async () => {
    expect(await names(admin, '/api/users?blurry=sxx')).toEqual(['单雄信']);
    expect(await names(admin, '/api/users?blurry=shanxiongxin')).toEqual(['单雄信']);
    expect(await names(admin, '/api/users?blurry=zgf')).toEqual(['曾国藩']);
    expect(await names(admin, '/api/users?blurry=xiej')).toEqual(['解缙']);
  });

  it('the user picker and a company user list find the same, and the total counts the matches', async () => {
    expect(await names(admin, '/api/users/pick?blurry=sxx')).toEqual(['单雄信']);
    expect(await names(admin, `/api/users/option?orgId=${rootId}&blurry=zgf`)).toEqual(['曾国藩']);
    const res = await t.app.inject({ method: 'GET', url: '/api/users?blurry=zs', headers: bearer(admin) });
    expect(res.json<Page>().totalElements).toBe(1);
  });

  it('the data scope still applies to the users found by pinyin', async () => {
    await createStaff(t.app, {
      username: 'branchlead',
      password: 'Passw0rd!x',
      permissions: ['user:list'],
      deptId: branchId,
      dataScope: '本级',
    });
    const lead = await loginAs(t.app, 'branchlead', 'Passw0rd!x');
    expect(await names(lead, '/api/users?blurry=zs')).toEqual([]);
    expect(await names(lead, '/api/users?blurry=branchlead')).toEqual(['branchlead']);
  });

  it(`past ${MAX_USERS_BY_PINYIN.toLocaleString('en')} users a pinyin search asks for characters; a character search still answers`, async () => {
    const { db } = t.app.database;
    const now = nowText();
    const rows = MAX_USERS_BY_PINYIN;
    if (t.dialect === 'postgres') {
      await sql`insert into sys_user (username, nick_name, password, sex, dept_id, org_id, enabled, lock_time, is_def_password, pwd_reset_time, create_time, update_time)
        select 'bulk' || g, '员工' || g, 'x', 1, ${branchId}, ${rootId}, true, 0, false, ${now}, ${now}, ${now} from generate_series(1, ${rows}) g`.execute(
        db,
      );
    } else {
      await sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${rows})
        insert into sys_user (username, nick_name, password, sex, dept_id, org_id, enabled, lock_time, is_def_password, pwd_reset_time, create_time, update_time)
        select 'bulk' || n, '员工' || n, 'x', 1, ${branchId}, ${rootId}, 1, 0, 0, ${now}, ${now}, ${now} from g`.execute(db);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/users?blurry=zs', headers: bearer(admin) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(TOO_MANY_USERS_FOR_PINYIN);
    expect(await names(admin, `/api/users?blurry=${encodeURIComponent('张三')}`)).toEqual(['张三']);
  });
});
