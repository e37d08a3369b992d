import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AdminContext, memoryStore } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { cleanHtml } from '../../src/web/components/RichText.tsx';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { HelpPage } from '../../src/web/staff/pages/HelpPage.tsx';
import { ownFirst } from '../../src/web/staff/pages/JobDescriptionPage.tsx';
import { timeColor } from '../../src/web/staff/resources/dj/JobLogDialog.tsx';
import { createDataProvider } from '../../src/web/staff/providers/dataProvider.ts';
import { mockFetch } from './fetchMock.ts';
import { renderScreen, testAuthProvider } from './renderScreen.tsx';

const LOAD = { timeout: 10000 };
const job = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  money: `任务${id}`,
  project: 'authMaintenance',
  methodName: 'purgeExpiredCaptchas',
  params: null,
  cronExpression: '0 */10 * * * ?',
  isPause: false,
  remark: null,
  createTime: '2026-01-01 00:00:00',
  ...over,
});

describe('jobs screen (定时任务)', { timeout: 60000 }, () => {
  it('runs a job now with the notice 执行成功 and pauses it after a confirm', async () => {
    const { calls } = mockFetch({
      'GET /api/dj': { body: { content: [job(1)], totalElements: 1 } },
      'PUT /api/jobs/exec/1': { body: { success: true, message: '删除过期验证码 0 条', time: 3, logId: 9 } },
      'PUT /api/jobs/1': { body: { id: 1, isPause: true } },
    });
    renderScreen('dj', ['timing:edit']);
    const row = (await screen.findByText('任务1', {}, LOAD)).closest('tr')!;
    expect(within(row).getByText('运行中')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: '执行' }));
    await screen.findByText('执行成功', {}, LOAD);
    expect(calls.some((c) => c.method === 'PUT' && c.url.pathname === '/api/jobs/exec/1')).toBe(true);
    fireEvent.click(within(row).getByRole('button', { name: '暂停' }));
    await screen.findByText('确定暂停任务「任务1」吗？暂停后不再按时执行。');
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await screen.findByText('暂停成功', {}, LOAD);
    expect(calls.some((c) => c.method === 'PUT' && c.url.pathname === '/api/jobs/1')).toBe(true);
  });

  it('a failed run shows its error; without timing:edit only the log is offered', async () => {
    mockFetch({
      'GET /api/dj': { body: { content: [job(2, { isPause: true })], totalElements: 1 } },
      'GET /api/jobs/logs': {
        body: {
          content: [
            {
              id: 5,
              trigger: 'schedule',
              startTime: '2026-01-01 03:00:00',
              time: 4200,
              isSuccess: false,
              result: '故意失败',
              exceptionDetail: 'Error: 故意失败',
              instance: 'a',
            },
          ],
          totalElements: 1,
        },
      },
    });
    renderScreen('dj', ['timing:list']);
    const row = (await screen.findByText('任务2', {}, LOAD)).closest('tr')!;
    expect(within(row).getByText('已暂停')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: '执行' })).toBeNull();
    expect(within(row).queryByRole('button', { name: '恢复' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: '日志' }));
    const dialog = await screen.findByRole('dialog', { name: '执行日志：任务2' }, LOAD);
    await within(dialog).findByText('故意失败');
    expect(within(dialog).getByText('失败')).toBeTruthy();
    expect(within(dialog).getByText('定时执行')).toBeTruthy();
    expect(within(dialog).getByText('4200ms')).toBeTruthy();
  });

  it('log time colours follow the spec bands', () => {
    expect([300, 301, 1000, 1001, 3000, 8000, 8001].map(timeColor)).toEqual([
      'success',
      'default',
      'default',
      'warning',
      'warning',
      'error',
      'info',
    ]);
  });
});

function renderHelp(route: string) {
  return render(
    <MemoryRouter initialEntries={[route]}>
      <AdminContext
        dataProvider={createDataProvider()}
        authProvider={testAuthProvider(['admin'])}
        i18nProvider={i18nProvider}
        store={memoryStore()}
      >
        <HelpPage />
      </AdminContext>
    </MemoryRouter>,
  );
}

describe('help page', { timeout: 60000 }, () => {
  it('shows the first help page of the menu, sanitised', async () => {
    const { calls } = mockFetch({
      'GET /api/menuPage': {
        body: {
          content: [
            {
              id: 3,
              title: '定时任务使用说明',
              pageRemark: '<p>说明<img src="x" onerror="window.hacked=1"></p><script>window.hacked=2</script>',
            },
          ],
          totalElements: 1,
        },
      },
    });
    renderHelp('/help?menuId=12');
    await screen.findByText('定时任务使用说明', {}, LOAD);
    expect(screen.getByText('说明')).toBeTruthy();
    const html = document.querySelector('.rich-text')!.innerHTML;
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('script');
    const list = calls.find((c) => c.url.pathname === '/api/menuPage')!;
    expect(list.url.searchParams.get('menuId')).toBe('12');
    expect(list.url.searchParams.get('size')).toBe('1');
  });

  it('finds the menu of a screen path, and says so when there is no help', async () => {
    const { calls } = mockFetch({
      'GET /api/menuPage/menu': { body: { menuId: 7, title: '品牌车型' } },
      'GET /api/menuPage': { body: { content: [], totalElements: 0 } },
    });
    renderHelp('/help?path=%2FbrandTree');
    await screen.findByText('该页面暂无帮助内容', {}, LOAD);
    expect(screen.getByText('品牌车型 · 帮助')).toBeTruthy();
    expect(calls.find((c) => c.url.pathname === '/api/menuPage/menu')!.url.searchParams.get('path')).toBe('/brandTree');
    expect(calls.find((c) => c.url.pathname === '/api/menuPage')!.url.searchParams.get('menuId')).toBe('7');
  });

  it('a screen without a menu has no help', async () => {
    mockFetch({ 'GET /api/menuPage/menu': { status: 404, body: { status: 404, message: '当前页面没有对应的菜单' } } });
    renderHelp('/help?path=%2Fdashboard');
    await screen.findByText('当前页面没有对应的菜单，暂无帮助内容', {}, LOAD);
  });
});

describe('job descriptions and rich text', () => {
  it("orders the user's own positions first", () => {
    const entries = [
      { id: 1, roleName: '销售顾问', content: '', sort: 1 },
      { id: 2, roleName: '店长', content: '', sort: 2 },
      { id: 3, roleName: '财务', content: '', sort: 3 },
    ];
    expect(ownFirst(entries, ['财务', '店长']).map((e) => [e.roleName, e.own])).toEqual([
      ['店长', true],
      ['财务', true],
      ['销售顾问', false],
    ]);
  });

  it('DOMPurify removes scripts, handlers, styles and javascript: links', () => {
    const html = cleanHtml(
      '<a href="javascript:alert(1)">x</a><p style="color:red" onclick="y()">p</p><style>p{}</style><iframe src="https://e"></iframe>',
    );
    expect(html).toBe('<a>x</a><p>p</p>');
  });
});
