/**
 * The list screens' code (./resourceScreens.tsx), loaded on demand: by the first list shown, or
 * ahead of it when a visit opens on a list (prefetchScreen, and the modulepreload of index.html's
 * early start). Once loaded, a list renders directly; before, it shows the thin progress bar
 * under the tabs that every screen loaded on demand shows.
 */
import { Suspense } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { preloadable } from '../preloadable.tsx';

const load = () => import('./resourceScreens.tsx');

const List = preloadable<{ name: string }>(() => load().then((m) => ({ default: m.ResourceList })));
const ParamRoute = preloadable<object>(() => load().then((m) => ({ default: m.ResourceParamRoute })));

/** Starts loading the list screens (once). */
export function preloadResourceScreens(): void {
  void List.preload().catch(() => undefined);
  void ParamRoute.preload().catch(() => undefined);
}

const fallback = <LinearProgress aria-label="正在加载" sx={{ mt: 1 }} />;

/** The generated list of resource `name`. */
export function ResourceListScreen({ name }: { name: string }) {
  return (
    <Suspense fallback={fallback}>
      <List.Component key={name} name={name} />
    </Suspense>
  );
}

/** `#/{resource}:{param}`. */
export function ResourceParamScreen() {
  return (
    <Suspense fallback={fallback}>
      <ParamRoute.Component />
    </Suspense>
  );
}
