import { Suspense, useEffect } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { preloadable } from '../../src/web/preloadable.tsx';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Hello({ name }: { name: string }) {
  return <p>你好 {name}</p>;
}

const inSuspense = (node: React.ReactNode) => <Suspense fallback={<p>正在加载...</p>}>{node}</Suspense>;

describe('preloadable', () => {
  it('loaded ahead: the first render shows the component, never the fallback', async () => {
    const app = preloadable(() => Promise.resolve({ default: Hello }));
    await app.preload();
    const seen: string[] = [];
    function Probe() {
      useEffect(() => {
        seen.push(document.body.textContent ?? '');
      });
      return null;
    }
    render(
      inSuspense(
        <>
          <app.Component name="张三" />
          <Probe />
        </>,
      ),
    );
    expect(screen.getByText('你好 张三')).toBeTruthy();
    expect(screen.queryByText('正在加载...')).toBeNull();
    expect(seen.some((text) => text.includes('正在加载'))).toBe(false);
  });

  it('not loaded: suspends with the fallback, then shows the component; loads once', async () => {
    const load = deferred<{ default: typeof Hello }>();
    const loader = vi.fn(() => load.promise);
    const app = preloadable(loader);
    render(inSuspense(<app.Component name="李四" />));
    expect(screen.getByText('正在加载...')).toBeTruthy();
    void app.preload();
    await act(() => Promise.resolve(load.resolve({ default: Hello })));
    expect(await screen.findByText('你好 李四')).toBeTruthy();
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('a component mounted before its code came is not mounted again when re-rendered after', async () => {
    const load = deferred<{ default: typeof Hello }>();
    const mounts = vi.fn();
    function Counted({ name }: { name: string }) {
      useEffect(() => {
        mounts();
      }, []);
      return <Hello name={name} />;
    }
    const app = preloadable<{ name: string }>(() => load.promise.then(() => ({ default: Counted })));
    const view = render(inSuspense(<app.Component name="王五" />));
    await act(() => Promise.resolve(load.resolve({ default: Hello })));
    expect(await screen.findByText('你好 王五')).toBeTruthy();
    view.rerender(inSuspense(<app.Component name="赵六" />));
    expect(screen.getByText('你好 赵六')).toBeTruthy();
    expect(mounts).toHaveBeenCalledTimes(1);
  });

  it('a failed load is started again by the next preload', async () => {
    const loader = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(new Error('网络错误'))
      .mockResolvedValueOnce({ default: Hello });
    const app = preloadable(loader);
    await expect(app.preload()).rejects.toThrow('网络错误');
    await expect(app.preload()).resolves.toBe(Hello);
    expect(loader).toHaveBeenCalledTimes(2);
    render(inSuspense(<app.Component name="孙七" />));
    expect(screen.getByText('你好 孙七')).toBeTruthy();
  });
});
