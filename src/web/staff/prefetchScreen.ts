/**
 * Data the screen a signed-in visit opens on will ask for as soon as it renders, asked for
 * while the console's code is still loading: the dictionaries of a resource list's `x-dict`
 * fields (so the list renders its first page once, with their options).
 */
import { resourceByName } from '../../generated/resources.ts';
import { prefetchDictionaries } from './schema/dictionaries.ts';

/** The resource a console path opens (`/sysQuestion`, `/sysQuestion:销售`, `/applicant/7/show`), if any. */
export function resourceOfPath(path: string): string | undefined {
  const name = (path.split('/')[1] ?? '').split(':')[0];
  return Object.prototype.hasOwnProperty.call(resourceByName, name) ? name : undefined;
}

export function prefetchScreen(path: string): void {
  const name = resourceOfPath(path);
  if (name) prefetchDictionaries(resourceByName[name]);
}
