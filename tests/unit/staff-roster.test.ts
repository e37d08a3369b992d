/** Pure pieces of the staff roster: the look-ups' order and the member WeCom gets for an entry. */
import { describe, expect, it } from 'vitest';
import { byDeptThenName, type StaffBrief } from '../../src/server/modules/staff/lookups.ts';
import { memberOf, WECOM_USER_ID } from '../../src/server/modules/staff/wecom-members.ts';

const brief = (id: number, name: string, deptId: number | null, deptSort: number | null): StaffBrief & { deptSort: number | null } => ({
  id,
  name,
  deptId,
  deptSort,
  mobile: '',
  sex: 1,
  orgId: 1,
  deptName: null,
  job: null,
  jpTypeId: null,
  jpTypeName: null,
  userId: null,
  status: 1,
});

describe('byDeptThenName', () => {
  it('orders by department sort, then department id, then name in pinyin order, then id', () => {
    const rows = [
      brief(1, '赵六', 3, 2),
      brief(2, '张三', 2, 1),
      brief(3, '安娜', 2, 1),
      brief(4, '李四', 4, 1),
      brief(5, '无部门', null, null),
      brief(6, '安娜', 2, 1),
    ];
    expect(rows.sort(byDeptThenName).map((r) => r.id)).toEqual([3, 6, 2, 4, 1, 5]);
  });
});

describe('memberOf', () => {
  it('maps the entry to WeCom fields (gender 1 male, 2 female) and leaves out empty ones', () => {
    expect(memberOf({ id: 1, name: '王芳', mobile: '13800000000', sex: 0, job: '销售顾问', email: 'wf@example.com' }, 'wangfang')).toEqual({
      userid: 'wangfang',
      name: '王芳',
      mobile: '13800000000',
      gender: '2',
      position: '销售顾问',
      email: 'wf@example.com',
    });
    expect(memberOf({ id: 2, name: '张伟', mobile: '13800000001', sex: 1, job: null, email: null }, '13800000001')).toEqual({
      userid: '13800000001',
      name: '张伟',
      mobile: '13800000001',
      gender: '1',
    });
  });
  it('accepts WeCom user ids only', () => {
    for (const ok of ['13800000000', 'zhang.san', 'a_b-c@d']) expect(WECOM_USER_ID.test(ok)).toBe(true);
    for (const bad of ['', 'has space', '张三', 'x'.repeat(65)]) expect(WECOM_USER_ID.test(bad)).toBe(false);
  });
});
