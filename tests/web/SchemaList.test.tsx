import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { listFields } from '../../src/shared/resource-spec.ts';
import { pageAfterDelete, ROWS_PER_PAGE_OPTIONS } from '../../src/web/staff/schema/SchemaList.tsx';
import { selectionRules } from '../../src/web/staff/schema/ListToolbar.tsx';
import { checkImportFile, IMPORT_MAX_BYTES } from '../../src/web/staff/schema/importFile.ts';
import { canUse } from '../../src/web/staff/schema/permissions.ts';
import { feedbackRows } from './feedbackRows.ts';
import { mockFetch } from './fetchMock.ts';
import { renderScreen } from './renderScreen.tsx';

const rows = feedbackRows;

function feedbackServer(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/sysQuestion': { body: { content: rows, totalElements: rows.length } },
    ...extra,
  });
}

const toolbarButton = (name: string) => {
  const toolbar = screen.queryByTestId('list-toolbar');
  return toolbar ? within(toolbar).queryByRole<HTMLButtonElement>('button', { name }) : null;
};
const LOAD = { timeout: 10000 };

describe('rules', { timeout: 60000 }, () => {
  it('selection: edit needs exactly one row, delete at least one', () => {
    expect(selectionRules(0)).toEqual({ canEdit: false, canDelete: false });
    expect(selectionRules(1)).toEqual({ canEdit: true, canDelete: true });
    expect(selectionRules(2)).toEqual({ canEdit: false, canDelete: true });
  });

  it('a delete that empties the last page steps back one page', () => {
    expect(pageAfterDelete(3, 2, 2)).toBe(2);
    expect(pageAfterDelete(3, 5, 2)).toBe(3);
    expect(pageAfterDelete(1, 1, 1)).toBe(1);
  });

  it('permission keys: admin passes, actions outside spec.actions never show', () => {
    const zp = resourceByName.staffunZp;
    expect(canUse(zp, ['admin'], 'download')).toBe(true);
    expect(canUse(zp, ['admin'], 'import')).toBe(false);
    expect(canUse(zp, ['staffunZp:add'], 'add')).toBe(true);
    expect(canUse(zp, ['staffunZp:add'], 'del')).toBe(false);
    expect(canUse(zp, [], 'add')).toBe(false);
  });

  it('import accepts only xlsx up to 10 MB', () => {
    expect(checkImportFile({ name: 'a.xls', size: 10 })).toBe('上传模板只能是xlsx格式!');
    expect(checkImportFile({ name: 'a.csv', size: 10 })).toBe('上传模板只能是xlsx格式!');
    expect(checkImportFile({ name: 'a.xlsx', size: IMPORT_MAX_BYTES + 1 })).toBe('上传模板大小不能超过 10MB!');
    expect(checkImportFile({ name: '数据.XLSX', size: IMPORT_MAX_BYTES })).toBeUndefined();
  });
});

describe('generated feedback list', { timeout: 60000 }, () => {
  it('requests page 0, size 15, sort id,desc and shows the columns with option labels', async () => {
    const { calls } = feedbackServer();
    renderScreen('sysQuestion', ['admin']);
    expect(await screen.findByText('问题三', {}, LOAD)).toBeTruthy();
    const list = calls.find((c) => c.url.pathname === '/api/sysQuestion')!;
    expect(list.url.searchParams.get('page')).toBe('0');
    expect(list.url.searchParams.get('size')).toBe('15');
    expect(list.url.searchParams.get('sort')).toBe('id,desc');
    const headers = screen
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim())
      .filter(Boolean);
    const titles = listFields(resourceByName.sysQuestion).map((f) => f.title);
    expect(titles).toEqual(['身份', '模块', '标题', '问题描述', '优化建议', '创建时间', '状态']);
    for (const title of titles) expect(headers.some((h) => h.startsWith(title))).toBe(true);
    expect(headers.some((h) => h.startsWith('操作'))).toBe(true);
    const row = screen.getByText('问题二').closest('tr')!;
    expect(within(row).getByText('客户')).toBeTruthy();
    expect(within(row).getByLabelText<HTMLInputElement>('已处理').checked).toBe(true);
    expect(within(row).getByLabelText<HTMLInputElement>('未处理').checked).toBe(false);
    // filters: identity, status, module, creation time, search box
    expect(screen.getAllByText('身份').length).toBeGreaterThan(1);
    // the filters come as soon as the first rows are painted (their placeholder stands in until then)
    expect(await screen.findByPlaceholderText('请输入搜索内容', {}, LOAD)).toBeTruthy();
    // page sizes
    expect(ROWS_PER_PAGE_OPTIONS).toEqual([15, 30, 45, 60, 100]);
  });

  it('paging: next page asks page=1; changing the page size goes back to page 0', async () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ ...rows[0], id: 100 - i, content: `问题${i}` }));
    const { calls } = mockFetch({ 'GET /api/sysQuestion': { body: { content: many, totalElements: 40 } } });
    renderScreen('sysQuestion', ['admin']);
    await screen.findByText('问题0', {}, LOAD);
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('page') === '1')).toBe(true));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /每页条数/ }));
    const sizes = screen.getAllByRole('option').map((o) => o.textContent);
    expect(sizes).toEqual(['15', '30', '45', '60', '100']);
    fireEvent.click(screen.getByRole('option', { name: '30' }));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/sysQuestion').at(-1)!;
      expect([last.url.searchParams.get('page'), last.url.searchParams.get('size')]).toEqual(['0', '30']);
    });
  });

  it('shows each toolbar button only with its permission key', async () => {
    feedbackServer();
    renderScreen('sysQuestion', ['sysQuestion:add', 'sysQuestion:download']);
    await screen.findByText('问题三', {}, LOAD);
    await waitFor(() => expect(toolbarButton('新增')).toBeTruthy());
    expect(toolbarButton('导出')).toBeTruthy();
    expect(toolbarButton('修改')).toBeNull();
    expect(toolbarButton('查看')).toBeNull();
    expect(toolbarButton('删除')).toBeNull();
    expect(toolbarButton('导入')).toBeNull();
    // no edit/del permission: no action column
    expect(screen.getAllByRole('columnheader').some((h) => h.textContent?.includes('操作'))).toBe(false);
  });

  it('the header: a column sorts ascending then descending, its tooltip names the next order, 全选 ticks the page', async () => {
    const { calls } = feedbackServer();
    renderScreen('sysQuestion', ['admin']);
    await screen.findByText('问题三', {}, LOAD);
    const lastSort = () =>
      calls
        .filter((c) => c.url.pathname === '/api/sysQuestion')
        .at(-1)!
        .url.searchParams.get('sort');
    const header = () => screen.getByRole('columnheader', { name: /创建时间/ });
    const label = () => within(header()).getByRole('button');
    // the tooltip mounts on the first hover and says what a click does
    fireEvent.mouseOver(label());
    expect(await screen.findByRole('tooltip', {}, LOAD)).toHaveProperty('textContent', '按 创建时间 升序');
    fireEvent.click(label());
    await waitFor(() => expect(lastSort()).toBe('createTime,asc'));
    fireEvent.click(label());
    await waitFor(() => expect(lastSort()).toBe('createTime,desc'));
    // columns that do not sort have no sort button
    expect(within(screen.getByRole('columnheader', { name: '状态' })).queryByRole('button')).toBeNull();
    const all = screen.getByRole('checkbox', { name: '全选' });
    fireEvent.click(all);
    await waitFor(() => expect(toolbarButton('删除')!.disabled).toBe(false));
    const ticked = screen.getAllByRole('row').filter((r) => within(r).queryByRole('checkbox')?.matches(':checked'));
    expect(ticked.length).toBe(rows.length + 1);
    fireEvent.click(all);
    await waitFor(() => expect(toolbarButton('删除')!.disabled).toBe(true));
  });

  it('edit needs exactly one selected row; delete at least one, with the bulk confirm', async () => {
    const { calls } = feedbackServer({ 'DELETE /api/sysQuestion': { status: 200 } });
    renderScreen('sysQuestion', ['admin']);
    await screen.findByText('问题三', {}, LOAD);
    const view = toolbarButton('查看')!; // existing feedback opens read-only
    const del = toolbarButton('删除')!;
    expect(view.disabled).toBe(true);
    expect(del.disabled).toBe(true);
    const boxes = ['问题三', '问题二'].map((text) => within(screen.getByText(text).closest('tr')!).getByRole('checkbox'));
    fireEvent.click(boxes[0]);
    await waitFor(() => expect(view.disabled).toBe(false));
    expect(del.disabled).toBe(false);
    fireEvent.click(boxes[1]);
    await waitFor(() => expect(view.disabled).toBe(true));
    expect(del.disabled).toBe(false);
    fireEvent.click(del);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('提示')).toBeTruthy();
    expect(within(dialog).getByText('确认删除选中的2条数据?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    const deletion = calls.find((c) => c.method === 'DELETE')!;
    expect(deletion.body).toEqual([3, 2]);
  });

  it('per-row delete asks 确定删除本条数据吗？', async () => {
    feedbackServer();
    renderScreen('sysQuestion', ['sysQuestion:del']);
    await screen.findByText('问题三', {}, LOAD);
    const row = screen.getByText('问题一').closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('确定删除本条数据吗？')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '取消' }));
  });

  it('the status radio saves at once with PUT and says 状态修改成功', async () => {
    const { calls } = feedbackServer({ 'PUT /api/sysQuestion': { status: 204 } });
    renderScreen('sysQuestion', ['sysQuestion:edit']);
    await screen.findByText('问题三', {}, LOAD);
    const row = screen.getByText('问题三').closest('tr')!;
    fireEvent.click(within(row).getByLabelText('已处理'));
    expect(await screen.findByText('状态修改成功')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ id: 3, status: true, model: '销售', content: '问题三', userType: '员工' });
    expect(put.body).not.toHaveProperty('createTime');
    expect(put.body).not.toHaveProperty('username');
  });

  it('the status radio is disabled without the edit permission', async () => {
    feedbackServer();
    renderScreen('sysQuestion', ['sysQuestion:add']);
    await screen.findByText('问题三', {}, LOAD);
    const row = screen.getByText('问题三').closest('tr')!;
    expect(within(row).getByLabelText<HTMLInputElement>('已处理').disabled).toBe(true);
  });

  it('a module route parameter fixes the module filter (first 2 characters)', async () => {
    const { calls } = feedbackServer();
    renderScreen('sysQuestion', ['admin'], { routeParam: '销售模块' });
    await screen.findByText('问题三', {}, LOAD);
    const list = calls.find((c) => c.url.pathname === '/api/sysQuestion')!;
    expect(list.url.searchParams.get('model')).toBe('销售');
  });

  it('import rejects a non-xlsx file before uploading', async () => {
    const { calls } = feedbackServer();
    renderScreen('sysQuestion', ['admin']);
    await screen.findByText('问题三', {}, LOAD);
    fireEvent.click(toolbarButton('导入')!);
    const input = await screen.findByTestId<HTMLInputElement>('import-file');
    const file = new File(['x'], '数据.xls', { type: 'application/vnd.ms-excel' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('上传模板只能是xlsx格式!')).toBeTruthy();
    expect(calls.some((c) => c.url.pathname.endsWith('/import'))).toBe(false);
  });
});

describe('generated recruitment postings list', { timeout: 60000 }, () => {
  it('lists job, pay, address, headcount; offers add/edit/delete/export but no import', async () => {
    mockFetch({
      'GET /api/staffunZp': {
        body: {
          content: [
            { id: 5, deptId: 1, job: '销售顾问', money: '5000-8000', address: '郑州', jobNum: 3, jobZz: 'a', jobYq: 'b', enabled: true },
          ],
          totalElements: 1,
        },
      },
      'GET /api/dept': { body: { content: [{ id: 1, name: '销售部', pid: 0 }], totalElements: 1 } },
    });
    renderScreen('staffunZp', ['admin']);
    expect(await screen.findByText('销售顾问', {}, LOAD)).toBeTruthy();
    for (const text of ['5000-8000', '郑州', '3']) expect(screen.getByText(text)).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent ?? '');
    for (const title of ['招聘岗位', '薪资待遇', '工作区域', '招聘人数']) expect(headers.some((h) => h.startsWith(title))).toBe(true);
    await waitFor(() => expect(toolbarButton('新增')).toBeTruthy());
    expect(toolbarButton('修改')).toBeTruthy();
    expect(toolbarButton('删除')).toBeTruthy();
    expect(toolbarButton('导出')).toBeTruthy();
    expect(toolbarButton('导入')).toBeNull();
  });
});

describe('generated system messages list', { timeout: 60000 }, () => {
  it('shows a rich-text message as its words on one line, never as HTML source', async () => {
    mockFetch({
      'GET /api/sysSocket': {
        body: {
          content: [
            {
              id: 9,
              title: '系统升级通知',
              msg: '<p>今晚<b>22:00</b>升级</p><script>alert(1)</script><img src="x">',
              type: 1,
              enabled: true,
              sort: 1,
              createTime: '2024-05-03 10:00:00',
            },
          ],
          totalElements: 1,
        },
      },
    });
    renderScreen('sysSocket', ['admin']);
    expect(await screen.findByText('系统升级通知', {}, LOAD)).toBeTruthy();
    const row = screen.getByText('系统升级通知').closest('tr')!;
    const cell = within(row).getByTitle(/今晚/);
    expect(cell.textContent).toBe('今晚22:00升级');
    expect(row.innerHTML).not.toContain('&lt;p&gt;');
    expect(row.querySelector('img, script, b')).toBeNull();
  });
});
