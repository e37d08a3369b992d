/**
 * A component whose code comes on demand, like React.lazy, that can be loaded ahead of its first
 * render. Once loaded it renders directly: no Suspense fallback, which React would keep on screen
 * for at least 300 ms before revealing what replaces it.
 */
import { createElement, lazy, useState, type ComponentType } from 'react';

export interface Preloadable<P> {
  /** renders the loaded component, or suspends (like React.lazy) until it is loaded */
  Component: ComponentType<P>;
  /** starts loading (once; a failed load is started again by the next call) */
  preload: () => Promise<ComponentType<P>>;
}

export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (m) => (loaded = m.default),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Component(props: P) {
    // chosen once per mount: switching between the two would mount the application again
    const [ready] = useState(() => loaded);
    return createElement(ready ?? (Lazy as ComponentType<P>), props);
  }
  return { Component, preload };
}
