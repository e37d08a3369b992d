/**
 * The tags view against the 404 page: an address the 404 page stands in for gets no tab, and
 * a mark it left does not hide the screen that shows at that address later in the session.
 * And against navigations that never land: 关闭全部's way home superseded by a visit back to
 * the screen still shown leaves that screen with its tab.
 */
import { lazy, Suspense, useEffect, type ReactElement, type ReactNode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes, useNavigate, type NavigateFunction } from 'react-router-dom';
import { NotificationContextProvider } from 'react-admin';
import { TagsView } from '../../src/web/staff/shell/TagsView.tsx';
import { NotFoundPage } from '../../src/web/staff/pages/ErrorPages.tsx';

let go: NavigateFunction = () => undefined;
/** whether /sysQuestion shows its screen yet */
let ready = false;

function Navigator() {
  const navigate = useNavigate();
  useEffect(() => {
    go = navigate;
  }, [navigate]);
  return null;
}

/** /sysQuestion: the 404 page until `ready`, then the screen (as when a screen's code was late) */
function Feedback(): ReactNode {
  return ready ? <p>问题反馈列表</p> : <NotFoundPage />;
}

function Harness({ at, home = <p>首页内容</p> }: { at: string; home?: ReactElement }) {
  return (
    <NotificationContextProvider>
      <MemoryRouter initialEntries={[at]}>
        <Navigator />
        <TagsView />
        <Suspense fallback={<p>加载中</p>}>
          <Routes>
            <Route path="/dashboard" element={home} />
            <Route path="/sysQuestion" element={<Feedback />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </MemoryRouter>
    </NotificationContextProvider>
  );
}

const tabs = () => within(screen.getByTestId('tags-view')).queryAllByRole('button');
const titles = () => tabs().map((t) => t.textContent);

describe('tags view and the 404 page', () => {
  beforeEach(() => {
    ready = false;
  });

  it('an address the 404 page stands in for gets no tab, also on a second visit', async () => {
    render(<Harness at="/dashboard" />);
    await act(async () => void (await go('/sysQuestion')));
    await screen.findByText('您访问的页面不存在');
    expect(titles()).toEqual(['首页']);
    await act(async () => void (await go('/dashboard')));
    await act(async () => void (await go('/sysQuestion')));
    await screen.findByText('您访问的页面不存在');
    expect(titles()).toEqual(['首页']);
  });

  it('a screen that shows where the 404 page once stood gets its tab, marked current', async () => {
    render(<Harness at="/dashboard" />);
    await act(async () => void (await go('/sysQuestion')));
    await screen.findByText('您访问的页面不存在');
    await act(async () => void (await go('/dashboard')));
    ready = true;
    await act(async () => void (await go('/sysQuestion')));
    await screen.findByText('问题反馈列表');
    await waitFor(() => expect(titles()).toEqual(['首页', '问题反馈']));
    const current = tabs().find((t) => t.getAttribute('aria-current') === 'page');
    expect(current?.textContent).toBe('问题反馈');
  });

  it('关闭全部, then a visit back to the screen before the way home landed: the screen keeps its tab', async () => {
    ready = true;
    // 首页's code arrives only when released: the way home waits (a pending transition)
    let release = () => undefined as void;
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const Home = lazy(() => arrived.then(() => ({ default: () => <p>首页内容</p> })));
    render(<Harness at="/sysQuestion" home={<Home />} />);
    await screen.findByText('问题反馈列表');
    await waitFor(() => expect(titles()).toEqual(['首页', '问题反馈']));
    fireEvent.contextMenu(tabs()[1]);
    fireEvent.click(await screen.findByRole('menuitem', { name: '关闭全部' }));
    // the user goes back to 问题反馈 before the way home has landed
    await act(async () => void (await go('/sysQuestion')));
    await waitFor(() => expect(titles()).toEqual(['首页', '问题反馈']));
    expect(tabs().find((t) => t.getAttribute('aria-current') === 'page')?.textContent).toBe('问题反馈');
    await act(async () => {
      release();
      await arrived;
    });
    expect(screen.getByText('问题反馈列表')).toBeTruthy();
  });
});
