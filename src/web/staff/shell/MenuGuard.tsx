/**
 * A screen opened without a menu for it shows the no-permission page (the address stays, so
 * the user sees what was refused). Pages every user has are always open. Until the menus have
 * loaded, the screen waits.
 */
import type { ReactNode } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { useLocation } from 'react-router-dom';
import { UnauthorizedPage } from '../pages/ErrorPages.tsx';
import { resources } from '../../../generated/resources.ts';
import { mayOpen, screenRoutes, useMenus } from './menus.ts';
import { SYSTEM_SCREENS } from '../pages/system/index.ts';

const RESOURCE_NAMES = new Set(resources.map((r) => r.name));
/** hand-written screens reached through a menu (the others are open to everyone) */
export const MENU_PAGES = ['/DecisionCenter/index', '/logs', '/outbox', '/brandTree', ...SYSTEM_SCREENS.map((s) => s.path)];
/** resource screens every signed-in user may read: 操作文档, linked from the header (writing still needs its keys) */
export const OPEN_RESOURCES = ['UserCzwd'];

/** Whether a path is a screen the console has (a resource list, narrowed or not, or a menu page). */
export function isMenuScreen(pathname: string): boolean {
  if (MENU_PAGES.includes(pathname)) return true;
  const first = (pathname.split('/')[1] ?? '').split(':')[0];
  return RESOURCE_NAMES.has(first) && !OPEN_RESOURCES.includes(first);
}

export function MenuGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { tree, error } = useMenus();
  if (error) return <>{children}</>; // the server checks every call anyway
  if (!tree) return <LinearProgress aria-label="正在加载" sx={{ mt: 1 }} />;
  // unknown paths are not refused here: the router answers them with 404
  if (isMenuScreen(pathname) && !mayOpen(pathname, screenRoutes(tree))) return <UnauthorizedPage />;
  return <>{children}</>;
}
