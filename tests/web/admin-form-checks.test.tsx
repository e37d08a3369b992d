/**
 * The 系统管理 screens check their forms in the browser with the definition the server checks
 * with (src/shared/admin-forms.ts): an empty 确定 on 用户, 角色, 菜单, 部门, 字典, 字典详情 and
 * 业务字典 marks every field in error with the server's Chinese message and sends nothing; a field
 * the server's 400 names ({message, field}) is marked on that field.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { AdminContext, memoryStore } from 'react-admin';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { AppNotification } from '../../src/web/staff/layout/AppNotification.tsx';
import { createDataProvider } from '../../src/web/staff/providers/dataProvider.ts';
import { UserAdmin } from '../../src/web/staff/pages/system/UserAdmin.tsx';
import { RoleAdmin } from '../../src/web/staff/pages/system/RoleAdmin.tsx';
import { MenuAdmin } from '../../src/web/staff/pages/system/MenuAdmin.tsx';
import { DeptAdmin } from '../../src/web/staff/pages/system/DeptAdmin.tsx';
import { DictAdmin } from '../../src/web/staff/pages/system/DictAdmin.tsx';
import { BusiDictAdmin } from '../../src/web/staff/pages/system/BusiDictAdmin.tsx';
import { mockFetch } from './fetchMock.ts';
import { testAuthProvider } from './renderScreen.tsx';

afterEach(() => vi.unstubAllGlobals());

const DEPTS = [{ id: 1, pid: 0, name: '总公司', enabled: true, sort: 0, hasChildren: false, createTime: null }];
const READS = {
  'GET /api/dept/getDeptList': { body: DEPTS },
  'GET /api/dept/lazy': { body: DEPTS },
  'GET /api/roles/all': { body: [{ id: 3, name: '销售顾问', level: 3, dataScope: '本级' }] },
  'GET /api/roles/level': { body: { level: 1 } },
  'GET /api/roles': { body: { content: [], totalElements: 0 } },
  'GET /api/users': { body: { content: [], totalElements: 0 } },
  'GET /api/menus/list': { body: [] },
  'GET /api/menus/getMenusByPid': { body: [] },
  'GET /api/dict': {
    body: { content: [{ id: 5, name: 'job_status', description: '岗位状态', isPublic: false, createTime: null }], totalElements: 1 },
  },
  'GET /api/dictDetail': { body: { content: [], totalElements: 0 } },
  'GET /api/busidict/list/0': { body: { content: [], totalElements: 0 } },
};
const WRITES = ['POST', 'PUT', 'DELETE'];

function renderScreen(Screen: ComponentType) {
  return render(
    <AdminContext
      dataProvider={createDataProvider()}
      authProvider={testAuthProvider(['admin'], { username: 'admin', orgId: 1 })}
      i18nProvider={i18nProvider}
      store={memoryStore()}
    >
      <Screen />
      <AppNotification />
    </AdminContext>,
  );
}

/** The field's input and the text under it. */
function marked(dialog: HTMLElement, label: RegExp, message: string) {
  const box = within(dialog).getAllByLabelText(label)[0];
  expect(box.getAttribute('aria-invalid'), `${label} marked`).toBe('true');
  expect(within(dialog).getByText(message)).toBeTruthy();
}

const CASES: Array<[string, ComponentType, string, Array<[RegExp, string]>]> = [
  [
    '用户',
    UserAdmin,
    '新增',
    [
      [/用户名/, '用户名不能为空'],
      [/昵称/, '昵称不能为空'],
      [/^公司/, '请选择公司'],
      [/^部门/, '请选择部门'],
      [/岗位/, '请选择岗位'],
    ],
  ],
  ['角色', RoleAdmin, '新增', [[/角色名称/, '角色名称不能为空']]],
  [
    '菜单',
    MenuAdmin,
    '新增',
    [
      [/菜单标题/, '菜单标题不能为空'],
      [/路由地址/, '路由地址不能为空'],
    ],
  ],
  ['部门', DeptAdmin, '新增', [[/部门名称/, '部门名称不能为空']]],
  ['字典', DictAdmin, '新增', [[/字典名称/, '字典名称不能为空']]],
  [
    '业务字典',
    BusiDictAdmin,
    '新增类别',
    [
      [/^名称/, '名称不能为空'],
      [/编码/, '编码不能为空'],
    ],
  ],
];

describe('系统管理 forms are checked before sending', { timeout: 60000 }, () => {
  it.each(CASES)('%s: an empty 确定 marks the fields and sends nothing', async (_name, Screen, add, fields) => {
    const { calls } = mockFetch(READS);
    renderScreen(Screen);
    const button = await screen.findAllByRole('button', { name: add }, { timeout: 15000 });
    fireEvent.click(button[0]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => marked(dialog, fields[0][0], fields[0][1]));
    for (const [label, message] of fields) marked(dialog, label, message);
    expect(calls.filter((c) => WRITES.includes(c.method))).toEqual([]);
    // filling a field takes its mark away at once
    fireEvent.change(within(dialog).getAllByLabelText(fields[0][0])[0], { target: { value: 'abc' } });
    await waitFor(() => expect(within(dialog).queryByText(fields[0][1])).toBeNull());
  });

  it('字典详情: an empty 确定 marks 字典标签 and 字典值', async () => {
    const { calls } = mockFetch(READS);
    renderScreen(DictAdmin);
    fireEvent.click(await screen.findByText('job_status'));
    await waitFor(() => expect(screen.getAllByRole('button', { name: '新增' }).length).toBe(2));
    fireEvent.click(screen.getAllByRole('button', { name: '新增' })[1]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => marked(dialog, /字典标签/, '字典标签不能为空'));
    marked(dialog, /字典值/, '字典值不能为空');
    expect(calls.filter((c) => WRITES.includes(c.method))).toEqual([]);
  });

  it('the field a server 400 names is marked with its message until it changes', async () => {
    const { calls } = mockFetch({
      ...READS,
      'POST /api/dict': { status: 400, body: { status: 400, message: '字典名称已存在', field: 'name', timestamp: 'x' } },
    });
    renderScreen(DictAdmin);
    fireEvent.click((await screen.findAllByRole('button', { name: '新增' }, { timeout: 15000 }))[0]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/字典名称/), { target: { value: 'job_status' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    await waitFor(() =>
      expect(
        within(dialog)
          .getByLabelText(/字典名称/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(within(dialog).getByText('字典名称已存在')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/字典名称/), { target: { value: 'job_status2' } });
    await waitFor(() => expect(within(dialog).queryByText('字典名称已存在')).toBeNull());
  });
});
