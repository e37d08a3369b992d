/**
 * The light row controls of a generated list (schema/rowControls.tsx): the status radio group
 * (plain radio inputs) and the 操作 buttons (plain buttons with their LazyTooltip).
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AdminContext, RecordContextProvider, memoryStore } from 'react-admin';
import { EditorContext, type EditorApi } from '../../src/web/staff/schema/editor.tsx';
import { RowActions } from '../../src/web/staff/schema/columns.tsx';
import { feedbackRows } from './feedbackRows.ts';
import { mockFetch } from './fetchMock.ts';
import { renderScreen } from './renderScreen.tsx';
import { elapse } from '../support/wait.ts';

const LOAD = { timeout: 10000 };

// 问题三 (未处理) and 问题二 (已处理)
const rows = feedbackRows.slice(0, 2);

function feedbackServer() {
  return mockFetch({
    'GET /api/sysQuestion': { body: { content: rows, totalElements: rows.length } },
    'PUT /api/sysQuestion': { status: 204, delayMs: 50 },
  });
}

async function statusGroup(content: string) {
  await screen.findByText(content, {}, LOAD);
  const row = screen.getByText(content).closest('tr')!;
  return within(row).getByRole('radiogroup', { name: '状态' });
}

const listReads = (calls: ReturnType<typeof mockFetch>['calls']) =>
  calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/sysQuestion').length;

describe('status radios of a row', { timeout: 60000 }, () => {
  it('are real radios named by their option, the record value checked, one name per row', async () => {
    feedbackServer();
    renderScreen('sysQuestion', ['sysQuestion:edit']);
    const three = await statusGroup('问题三');
    const two = await statusGroup('问题二');
    const open = within(three).getByRole<HTMLInputElement>('radio', { name: '未处理' });
    const done = within(three).getByRole<HTMLInputElement>('radio', { name: '已处理' });
    expect(open.type).toBe('radio');
    expect(open.checked).toBe(true);
    expect(done.checked).toBe(false);
    expect(within(two).getByRole<HTMLInputElement>('radio', { name: '已处理' }).checked).toBe(true);
    expect(open.name).toBe(done.name);
    expect(open.name).not.toBe(within(two).getByRole<HTMLInputElement>('radio', { name: '未处理' }).name);
    expect(open.disabled).toBe(false);
  });

  it('a click saves through the data provider (PUT), says 状态修改成功, reloads the list; disabled while saving', async () => {
    const { calls } = feedbackServer();
    renderScreen('sysQuestion', ['sysQuestion:edit']);
    const group = await statusGroup('问题三');
    const readsBefore = listReads(calls);
    fireEvent.click(within(group).getByRole('radio', { name: '已处理' }));
    // saving: the group's radios wait for the answer
    await waitFor(() => expect(within(group).getByRole<HTMLInputElement>('radio', { name: '未处理' }).disabled).toBe(true));
    expect(await screen.findByText('状态修改成功')).toBeTruthy();
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0].body).toMatchObject({ id: 3, status: true, model: '销售', content: '问题三' });
    await waitFor(() => expect(listReads(calls)).toBeGreaterThan(readsBefore));
    await waitFor(() => expect(within(group).getByRole<HTMLInputElement>('radio', { name: '未处理' }).disabled).toBe(false));
  });

  it('arrow keys move to the next option and save it; Space selects the focused option', async () => {
    const { calls } = feedbackServer();
    const user = userEvent.setup();
    renderScreen('sysQuestion', ['sysQuestion:edit']);
    const group = await statusGroup('问题三');
    within(group).getByRole('radio', { name: '未处理' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(await screen.findByText('状态修改成功')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => (c.body as { status: boolean }).status)).toEqual([true]);

    const other = await statusGroup('问题二');
    await waitFor(() => expect(within(other).getByRole<HTMLInputElement>('radio', { name: '未处理' }).disabled).toBe(false));
    within(other).getByRole('radio', { name: '未处理' }).focus();
    await user.keyboard(' ');
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')[1].body).toMatchObject({ id: 2, status: false });
  });

  it('without the edit permission every radio is disabled and a click sends nothing', async () => {
    const { calls } = feedbackServer();
    renderScreen('sysQuestion', ['sysQuestion:list', 'sysQuestion:add']);
    const group = await statusGroup('问题三');
    const radios = within(group).getAllByRole<HTMLInputElement>('radio');
    expect(radios).toHaveLength(2);
    expect(radios.every((r) => r.disabled)).toBe(true);
    fireEvent.click(radios[1]);
    await elapse(100); // a spell in which a save would have been sent: none is
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    expect(radios[0].checked).toBe(true);
  });
});

describe('操作 buttons of a row', () => {
  const record = { id: 7, title: '标题七' };

  function renderActions(props: Partial<Parameters<typeof RowActions>[0]> = {}) {
    const editor: EditorApi = { openCreate: vi.fn(), openEdit: vi.fn(), requestDelete: vi.fn(), openImport: vi.fn(), openHistory: vi.fn() };
    const rowClick = vi.fn();
    render(
      <AdminContext store={memoryStore()}>
        <EditorContext.Provider value={editor}>
          <RecordContextProvider value={record}>
            <div onClick={rowClick}>
              <RowActions canEdit canDelete canHistory viewOnly={false} {...props} />
            </div>
          </RecordContextProvider>
        </EditorContext.Provider>
      </AdminContext>,
    );
    return { editor, rowClick };
  }

  it('编辑, 删除 and 历史记录 are buttons named so; each click calls the editor with the row, never the row', async () => {
    const { editor, rowClick } = renderActions();
    const names = (await screen.findAllByRole('button')).map((b) => b.getAttribute('aria-label'));
    expect(names).toEqual(['编辑', '删除', '历史记录']);
    fireEvent.click(screen.getByRole('button', { name: '编辑' }));
    expect(editor.openEdit).toHaveBeenCalledWith(record);
    fireEvent.click(screen.getByRole('button', { name: '删除' }));
    expect(editor.requestDelete).toHaveBeenCalledWith([7], true);
    fireEvent.click(screen.getByRole('button', { name: '历史记录' }));
    expect(editor.openHistory).toHaveBeenCalledWith(record);
    expect(rowClick).not.toHaveBeenCalled();
    for (const button of screen.getAllByRole<HTMLButtonElement>('button')) expect(button.type).toBe('button');
  });

  it('read-only screens show 查看; buttons without their permission are absent', async () => {
    const { editor } = renderActions({ viewOnly: true, canEdit: false, canDelete: false, canHistory: false });
    const buttons = await screen.findAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['查看']);
    fireEvent.click(buttons[0]);
    expect(editor.openEdit).toHaveBeenCalledWith(record);
  });

  it('pointed at, a button shows its tooltip', async () => {
    renderActions();
    fireEvent.mouseOver(screen.getByRole('button', { name: '删除' }));
    expect((await screen.findByRole('tooltip', {}, { timeout: 3000 })).textContent).toBe('删除');
  });
});
