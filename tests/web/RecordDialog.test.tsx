import { fireEvent, queries, screen, waitFor, within, type BoundFunctions } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from './fetchMock.ts';
import { resources } from '../../src/generated/resources.ts';
import { renderScreen } from './renderScreen.tsx';

const LOAD = { timeout: 10000 };
const feedbackRows = [
  {
    id: 8,
    userType: '员工',
    model: '销售',
    title: '实名标题',
    content: '实名问题',
    remark: '实名建议',
    status: false,
    createTime: '2024-05-03 10:00:00',
    username: '王五',
    mobile: '13700137000',
  },
  {
    id: 7,
    userType: '员工',
    model: '系统',
    title: '匿名标题',
    content: '匿名问题',
    remark: '',
    status: false,
    createTime: '2024-05-02 10:00:00',
    username: null,
    mobile: null,
  },
];

function toolbar() {
  return within(screen.getByTestId('list-toolbar'));
}

async function openCreate() {
  await waitFor(() => expect(toolbar().getByRole('button', { name: '新增' })).toBeTruthy(), LOAD);
  fireEvent.click(toolbar().getByRole('button', { name: '新增' }));
  return within(await screen.findByRole('dialog'));
}

async function choose(dialog: BoundFunctions<typeof queries>, label: string, option: string) {
  fireEvent.mouseDown(dialog.getByRole('combobox', { name: new RegExp(label) }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('feedback dialog', { timeout: 60000 }, () => {
  it('is 700 px wide; named shows contact fields, anonymous hides them and sends no username/mobile', async () => {
    const { calls } = mockFetch({
      'GET /api/sysQuestion': { body: { content: [], totalElements: 0 } },
      'POST /api/sysQuestion': { status: 201, body: { id: 11 } },
    });
    renderScreen('sysQuestion', ['admin']);
    const dialog = await openCreate();
    expect(screen.getByRole('dialog').style.width || getComputedStyle(screen.getByRole('dialog')).width).toBe('700px');
    expect(dialog.queryByLabelText(/联系人/)).toBeNull();
    fireEvent.click(dialog.getByLabelText('实名'));
    expect(await dialog.findByLabelText(/联系人/)).toBeTruthy();
    expect(dialog.getByLabelText(/联系电话/)).toBeTruthy();
    fireEvent.click(dialog.getByLabelText('匿名'));
    await waitFor(() => expect(dialog.queryByLabelText(/联系人/)).toBeNull());

    await choose(dialog, '模块', '售后');
    fireEvent.change(dialog.getByLabelText(/问题描述/), { target: { value: '保养预约打不开' } });
    fireEvent.click(dialog.getByRole('button', { name: '确认' }));
    expect(await screen.findByText('新增成功')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ userType: '员工', model: '售后', content: '保养预约打不开' });
  });

  it('named feedback sends the contact name and phone', async () => {
    const { calls } = mockFetch({
      'GET /api/sysQuestion': { body: { content: [], totalElements: 0 } },
      'POST /api/sysQuestion': { status: 201, body: { id: 12 } },
    });
    renderScreen('sysQuestion', ['sysQuestion:add']);
    const dialog = await openCreate();
    fireEvent.click(dialog.getByLabelText('实名'));
    const name = await dialog.findByLabelText<HTMLInputElement>(/联系人/);
    await waitFor(() => expect(name.value).toBe('张三'));
    fireEvent.change(dialog.getByLabelText(/联系电话/), { target: { value: '13912345678' } });
    await choose(dialog, '模块', '人事');
    fireEvent.change(dialog.getByLabelText(/问题描述/), { target: { value: '考勤异常' } });
    fireEvent.click(dialog.getByRole('button', { name: '确认' }));
    await screen.findByText('新增成功');
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ username: '张三', mobile: '13912345678', model: '人事' });
  });

  it('shows the first error in a notice and focuses its field; nothing is sent', async () => {
    const { calls } = mockFetch({ 'GET /api/sysQuestion': { body: { content: [], totalElements: 0 } } });
    renderScreen('sysQuestion', ['admin']);
    const dialog = await openCreate();
    fireEvent.click(dialog.getByRole('button', { name: '确认' }));
    expect(await dialog.findByText('问题描述不能为空')).toBeTruthy();
    expect(dialog.getByText('模块不能为空')).toBeTruthy();
    const alert = await screen.findByRole('alert', { hidden: true });
    expect(alert.textContent).toBe('模块不能为空');
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByRole('combobox', { name: /模块/ })));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('an existing record opens read-only; a username sets identity to named', async () => {
    mockFetch({ 'GET /api/sysQuestion': { body: { content: feedbackRows, totalElements: 2 } } });
    renderScreen('sysQuestion', ['admin']);
    const row = (await screen.findByText('实名问题', {}, LOAD)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '查看' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('查看问题反馈')).toBeTruthy();
    expect(dialog.getByLabelText<HTMLInputElement>('实名').checked).toBe(true);
    expect(dialog.getByLabelText<HTMLInputElement>(/联系人/).value).toBe('王五');
    expect(dialog.getByLabelText<HTMLInputElement>(/联系人/).readOnly).toBe(true);
    expect(dialog.getByLabelText<HTMLTextAreaElement>(/问题描述/).readOnly).toBe(true);
    expect(dialog.queryByRole('button', { name: '确认' })).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const anonymousRow = screen.getByText('匿名问题').closest('tr')!;
    fireEvent.click(within(anonymousRow).getByRole('button', { name: '查看' }));
    const second = within(await screen.findByRole('dialog'));
    expect(second.getByLabelText<HTMLInputElement>('匿名').checked).toBe(true);
    expect(second.queryByLabelText(/联系人/)).toBeNull();
  });
});

describe('recruitment posting dialog', { timeout: 60000 }, () => {
  it('requires every field with its own message and picks the department from api/dept', async () => {
    const { calls } = mockFetch({
      'GET /api/staffunZp': { body: { content: [], totalElements: 0 } },
      'GET /api/dept': { body: { content: [{ id: 4, name: '销售部', pid: 0 }], totalElements: 1 } },
      'POST /api/staffunZp': { status: 201, body: { id: 1 } },
    });
    renderScreen('staffunZp', ['admin']);
    const dialog = await openCreate();
    fireEvent.click(dialog.getByRole('button', { name: '确认' }));
    // generated from the schema: every required field the form does not fill in by default
    const zp = resources.find((s) => s.name === 'staffunZp')!;
    const required = zp.fields.filter((f) => f.required && f.default === undefined);
    expect(required.length).toBeGreaterThanOrEqual(7);
    for (const field of required) {
      expect(await dialog.findByText(field.messages.required), field.name).toBeTruthy();
    }
    await choose(dialog, '所属部门', '销售部');
    fireEvent.change(dialog.getByLabelText(/招聘岗位/), { target: { value: '销售顾问' } });
    fireEvent.change(dialog.getByLabelText(/薪资待遇/), { target: { value: '6000-9000' } });
    fireEvent.change(dialog.getByLabelText(/工作区域/), { target: { value: '郑州市中原区' } });
    // a positive integer only: letters and leading zeros are dropped with 请输入正整数
    fireEvent.change(dialog.getByLabelText(/招聘人数/), { target: { value: '02人' } });
    expect(await screen.findByText('请输入正整数')).toBeTruthy();
    expect(dialog.getByLabelText<HTMLInputElement>(/招聘人数/).value).toBe('2');
    fireEvent.change(dialog.getByLabelText(/岗位职责/), { target: { value: '接待客户' } });
    fireEvent.change(dialog.getByLabelText(/任职要求/), { target: { value: '大专以上' } });
    fireEvent.click(dialog.getByRole('button', { name: '确认' }));
    expect(await screen.findByText('新增成功')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      deptId: 4,
      job: '销售顾问',
      money: '6000-9000',
      address: '郑州市中原区',
      jobNum: 2,
      jobZz: '接待客户',
      jobYq: '大专以上',
      enabled: true,
    });
  });
});
