/**
 * The 系统管理 forms are checked on the server against the definition the screens check with
 * (src/shared/admin-forms.ts): for what each screen sends when left empty or filled wrongly, the
 * server's 400 carries the same message as the browser's first marked field and names that field;
 * a name already taken names its field too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import {
  BUSI_DICT_FORM,
  checkForm,
  DEPT_FORM,
  DICT_DETAIL_FORM,
  DICT_FORM,
  firstFormError,
  MENU_FORM,
  ROLE_FORM,
  USER_FORM,
  type FormBody,
  type FormRules,
} from '../../src/shared/admin-forms.ts';

const EMPTY_USER = {
  username: '',
  nickName: '',
  phone: '',
  email: '',
  wecomUserId: '',
  orgId: '',
  deptId: '',
  roles: [],
  sex: 1,
  enabled: true,
};
const EMPTY_ROLE = { name: '', level: 3, dataScope: '全部', description: '' };
const EMPTY_MENU = {
  type: 1,
  title: '',
  name: '',
  component: '',
  path: '',
  icon: '',
  sort: 999,
  permission: '',
  iFrame: false,
  cache: false,
  hidden: false,
  pid: 0,
};
const EMPTY_DEPT = { name: '', pid: 0, sort: 999, enabled: true };
const EMPTY_DICT = { name: '', description: '' };
const EMPTY_BUSI = { code: '', name: '', value: '', sort: 999, enabled: true };

const CASES: Array<[string, string, FormRules, FormBody]> = [
  ['用户 empty', '/api/users', USER_FORM, EMPTY_USER],
  ['用户 bad username', '/api/users', USER_FORM, { ...EMPTY_USER, username: 'a b', nickName: '张' }],
  ['用户 bad mobile', '/api/users', USER_FORM, { ...EMPTY_USER, username: 'zhang', nickName: '张', phone: '1234' }],
  ['用户 no department', '/api/users', USER_FORM, { ...EMPTY_USER, username: 'zhang', nickName: '张', orgId: 1 }],
  ['角色 empty', '/api/roles', ROLE_FORM, EMPTY_ROLE],
  ['角色 custom scope without departments', '/api/roles', ROLE_FORM, { ...EMPTY_ROLE, name: '新角色', dataScope: '自定义', depts: [] }],
  ['角色 level out of range', '/api/roles', ROLE_FORM, { ...EMPTY_ROLE, name: '新角色', level: 1000 }],
  ['菜单 empty', '/api/menus', MENU_FORM, EMPTY_MENU],
  ['菜单 no path', '/api/menus', MENU_FORM, { ...EMPTY_MENU, title: '新菜单' }],
  ['菜单 external link', '/api/menus', MENU_FORM, { ...EMPTY_MENU, title: '新菜单', iFrame: true, path: 'www.example.com' }],
  ['菜单 button without permission', '/api/menus', MENU_FORM, { ...EMPTY_MENU, type: 2, title: '新按钮' }],
  ['菜单 bad permission', '/api/menus', MENU_FORM, { ...EMPTY_MENU, type: 2, title: '新按钮', permission: 'user' }],
  ['部门 empty', '/api/dept', DEPT_FORM, EMPTY_DEPT],
  ['字典 empty', '/api/dict', DICT_FORM, EMPTY_DICT],
  ['字典 bad name', '/api/dict', DICT_FORM, { name: '1abc', description: '' }],
  ['字典详情 empty', '/api/dictDetail', DICT_DETAIL_FORM, { label: '', value: '', dictSort: 999, dict: { id: 1 } }],
  ['业务字典 empty', '/api/busidict/add', BUSI_DICT_FORM, EMPTY_BUSI],
];

describe.each(testApps())('系统管理 form checks on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { ...bearer(admin), submit_id: submitId() }, payload: payload as object });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it.each(CASES)('%s: the 400 names the field the screen marks first, with its message', async (_case, url, rules, body) => {
    const expected = firstFormError(rules, body);
    expect(expected).toBeDefined();
    expect(Object.keys(checkForm(rules, body))[0]).toBe(expected!.field);
    const res = await post(url, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message: expected!.message, field: expected!.field });
  });

  it('the empty forms are marked with the messages the server uses', () => {
    expect(checkForm(USER_FORM, EMPTY_USER)).toEqual({
      username: '用户名不能为空',
      nickName: '昵称不能为空',
      orgId: '请选择公司',
      deptId: '请选择部门',
      roles: '请选择岗位',
    });
    expect(checkForm(ROLE_FORM, EMPTY_ROLE)).toEqual({ name: '角色名称不能为空' });
    expect(checkForm(MENU_FORM, EMPTY_MENU)).toEqual({ title: '菜单标题不能为空', path: '路由地址不能为空' });
    expect(checkForm(DEPT_FORM, EMPTY_DEPT)).toEqual({ name: '部门名称不能为空' });
    expect(checkForm(DICT_FORM, EMPTY_DICT)).toEqual({ name: '字典名称不能为空' });
    expect(checkForm(BUSI_DICT_FORM, EMPTY_BUSI)).toEqual({ code: '编码不能为空', name: '名称不能为空' });
  });

  it('a name already taken names its field', async () => {
    expect((await post('/api/dict', { name: 'formCheckDict', description: '' })).statusCode).toBe(201);
    const dup = await post('/api/dict', { name: 'formCheckDict', description: '' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ message: '字典名称已存在', field: 'name' });
    expect((await post('/api/roles', { ...EMPTY_ROLE, name: '表单角色' })).statusCode).toBe(201);
    expect((await post('/api/roles', { ...EMPTY_ROLE, name: '表单角色' })).json()).toMatchObject({
      message: '角色名称已存在',
      field: 'name',
    });
  });
});
