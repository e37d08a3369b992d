/**
 * The console's react-query client, given to <Admin>. When the signed-in user's info has
 * already arrived (the page asks for it as it opens), react-admin's auth answers are put in
 * its cache before the first render: the check, the permissions and the identity are then
 * known at once, so the console renders its layout and first screen without first rendering
 * a loading state and then again for each answer. Without the info, react-admin asks the
 * auth provider as usual.
 */
import { QueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '../../common/session.ts';
import { identityOf } from './authProvider.ts';
import type { ListPrefetch } from '../prefetchScreen.ts';

/** How long a seeded sign-in check counts as fresh (react-admin would check again on the next mount). */
export const CHECK_FRESH_MS = 10_000;
/** How long the early first page counts as fresh: the list mounting just after does not ask again. */
export const FIRST_PAGE_FRESH_MS = 5_000;

export function createConsoleQueryClient(session: SessionInfo | null, firstPage: ListPrefetch | null = null): QueryClient {
  const client = new QueryClient();
  if (firstPage) {
    // fresh only as the first answer of that query: any later answer (a refresh, a save) goes back to react-admin's rule
    client.setQueryDefaults(firstPage.key, { staleTime: (query) => (query.state.dataUpdateCount <= 1 ? FIRST_PAGE_FRESH_MS : 0) });
    void client.prefetchQuery({ queryKey: firstPage.key, queryFn: () => firstPage.result, retry: false });
  }
  if (session) {
    // the keys and values react-admin's useAuthState, usePermissions and useGetIdentity use
    client.setQueryDefaults(['auth', 'checkAuth'], { staleTime: CHECK_FRESH_MS });
    client.setQueryData(['auth', 'checkAuth', {}], true);
    client.setQueryData(['auth', 'getPermissions', {}], session.permissions);
    client.setQueryData(['auth', 'getIdentity'], identityOf(session.user));
  }
  return client;
}
