/** Pure pieces of the roster's row dialogs: the company's departments offered by 调岗 and the 调岗记录 wording. */
import { describe, expect, it } from 'vitest';
import { companyDepartments } from '../../src/web/staff/resources/staff/TransferDialog.tsx';
import { describeChange } from '../../src/web/staff/resources/staff/HistoryDialog.tsx';
import { todayText } from '../../src/web/staff/resources/staff/LeaveDialog.tsx';
import type { DeptNode } from '../../src/web/staff/pages/system/common.tsx';
import type { JobHistoryRow } from '../../src/web/staff/resources/staff/api.ts';

const node = (id: number, pid: number, name: string, children: DeptNode[] = []): DeptNode => ({
  id,
  pid,
  name,
  enabled: true,
  sort: id,
  hasChildren: children.length > 0,
  createTime: null,
  children,
});

describe('companyDepartments', () => {
  const tree = [
    node(1, 0, '总公司', [node(2, 1, '销售部', [node(5, 2, '一组')]), node(3, 1, '售后服务部')]),
    node(4, 0, '洛阳分公司', [node(6, 4, '洛阳销售部')]),
  ];
  it('offers the company and everything below it, with depths', () => {
    expect(companyDepartments(tree, 1).map((d) => [d.name, d.depth])).toEqual([
      ['总公司', 0],
      ['销售部', 1],
      ['一组', 2],
      ['售后服务部', 1],
    ]);
    expect(companyDepartments(tree, 4).map((d) => d.name)).toEqual(['洛阳分公司', '洛阳销售部']);
    expect(companyDepartments(tree, 2).map((d) => d.name)).toEqual(['销售部', '一组']);
  });
  it('offers nothing for an unknown company or before the tree loads', () => {
    expect(companyDepartments(tree, 99)).toEqual([]);
    expect(companyDepartments(undefined, 1)).toEqual([]);
  });
});

describe('describeChange', () => {
  const base: JobHistoryRow = {
    id: 1,
    kind: '调岗',
    fromDeptName: '销售部',
    toDeptName: '售后服务部',
    fromJob: '销售顾问',
    toJob: '服务顾问',
    fromJpTypeName: '销售顾问',
    toJpTypeName: '销售顾问',
    roles: null,
    leaveDate: null,
    remark: null,
    createUser: 'hr',
    createTime: '2026-01-01 10:00:00',
  };
  it('names what changed in a transfer', () => {
    expect(describeChange(base)).toBe('部门 销售部 → 售后服务部；岗位 销售顾问 → 服务顾问');
    expect(describeChange({ ...base, toDeptName: '销售部', toJpTypeName: '服务顾问', roles: '服务顾问岗、质检岗' })).toBe(
      '部门 销售部；岗位 销售顾问 → 服务顾问；岗位类型 销售顾问 → 服务顾问；岗位权限 服务顾问岗、质检岗',
    );
  });
  it('describes leaving with its date', () => {
    expect(describeChange({ ...base, kind: '离职', toDeptName: null, toJob: null, leaveDate: '2026-02-01' })).toBe(
      '离职日期 2026-02-01（原部门 销售部，岗位 销售顾问）',
    );
  });
});

describe('todayText', () => {
  it('is the local date as yyyy-MM-dd', () => {
    expect(todayText(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
