/**
 * Pieces of the console loaded only when first shown, so the console's first download holds
 * what every screen needs and nothing more: a screen's own page, a dialog, a form, a drawer.
 * The part shows `fallback` (nothing by default) while its code arrives, inside its own
 * Suspense, so callers render it like any component.
 */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import LinearProgress from '@mui/material/LinearProgress';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;

/**
 * `lazyPart(() => import('./JobForm.tsx'), 'JobForm')`: the module's export `name`, loaded on
 * first render. The import must stay a literal `import()` for the bundler to split it off.
 */
export function lazyPart<M, K extends keyof M>(load: () => Promise<M>, name: K, fallback: ReactNode = null): M[K] & AnyComponent {
  const Lazy = lazy(async () => ({ default: (await load())[name] as unknown as AnyComponent }));
  function LazyPart(props: Record<string, unknown>) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyPart.displayName = `Lazy(${String(name)})`;
  return LazyPart as unknown as M[K] & AnyComponent;
}

/** A whole screen loaded on first visit: a thin progress bar under the tabs while it arrives. */
export function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] & AnyComponent {
  return lazyPart(load, name, <LinearProgress aria-label="正在加载" sx={{ mt: 1 }} />);
}
