import { describe, expect, it } from 'vitest';
import { ancestorsOf, toggleMenu, type MenuTreeNode } from '../../src/web/staff/pages/system/MenuTreeChecklist.tsx';

const tree: MenuTreeNode[] = [
  {
    id: 1,
    title: '系统管理',
    type: 0,
    permission: null,
    children: [
      {
        id: 2,
        title: '用户管理',
        type: 1,
        permission: 'user:list',
        children: [
          { id: 3, title: '用户新增', type: 2, permission: 'user:add' },
          { id: 4, title: '用户删除', type: 2, permission: 'user:del' },
        ],
      },
    ],
  },
  { id: 5, title: '问题反馈', type: 1, permission: 'sysQuestion:list' },
];

describe('role-menu tree', () => {
  it('checking an entry checks everything below it and keeps its ancestors', () => {
    expect([...toggleMenu(tree, new Set(), tree[0].children![0])].sort()).toEqual([1, 2, 3, 4]);
    expect([...toggleMenu(tree, new Set(), tree[0].children![0].children![0])].sort()).toEqual([1, 2, 3]);
  });
  it('unchecking takes the entry and everything below it away, not its parents or siblings', () => {
    const after = toggleMenu(tree, new Set([1, 2, 3, 4, 5]), tree[0].children![0].children![1]);
    expect([...after].sort()).toEqual([1, 2, 3, 5]);
    expect([...toggleMenu(tree, new Set([1, 2, 3, 4, 5]), tree[0])]).toEqual([5]);
  });
  it('knows every entry ancestors', () => {
    // the whole map: every entry of the tree, the roots with none
    expect(ancestorsOf(tree)).toEqual(
      new Map([
        [1, []],
        [2, [1]],
        [3, [1, 2]],
        [4, [1, 2]],
        [5, []],
      ]),
    );
  });
});
