/**
 * Layout preferences of the staff console, remembered in the browser (localStorage):
 * theme colour (default the product blue, see common/palette.ts), tags view, fixed header, logo, unique-opened menu, component
 * size (default small) and whether the sidebar is open (1 open, 0 closed).
 */
import { useSyncExternalStore } from 'react';
import { parseJsonRecord } from '../../common/json.ts';
import { BRAND_BLUE, FORMER_THEME_COLORS, THEME_COLORS } from '../../common/palette.ts';

export { THEME_COLORS };

export interface Preferences {
  theme: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  uniqueOpened: boolean;
  size: 'small' | 'medium';
  sidebarOpen: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: BRAND_BLUE,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  uniqueOpened: true,
  size: 'small',
  sidebarOpen: true,
};

export const PREFERENCES_KEY = 'shell.preferences';
/** the sidebar state as the spec stores it: '1' open, '0' closed */
export const SIDEBAR_KEY = 'sidebarStatus';
const HEX = /^#[0-9a-fA-F]{6}$/;

/** Reads stored preferences, keeping only well-formed values. */
export function readPreferences(storage: Storage = localStorage): Preferences {
  const out = { ...DEFAULT_PREFERENCES };
  try {
    const saved = parseJsonRecord(storage.getItem(PREFERENCES_KEY) || '{}');
    if (saved) {
      // a former choice that fails contrast comes back as its darker replacement
      if (typeof saved.theme === 'string' && HEX.test(saved.theme))
        out.theme = FORMER_THEME_COLORS[saved.theme.toLowerCase()] ?? saved.theme;
      for (const key of ['tagsView', 'fixedHeader', 'sidebarLogo', 'uniqueOpened'] as const) {
        const value = saved[key];
        if (typeof value === 'boolean') out[key] = value;
      }
      if (saved.size === 'small' || saved.size === 'medium') out.size = saved.size;
    }
  } catch {
    /* damaged: defaults */
  }
  const sidebar = storage.getItem(SIDEBAR_KEY);
  if (sidebar === '0' || sidebar === '1') out.sidebarOpen = sidebar === '1';
  return out;
}

let current: Preferences | null = null;
const listeners = new Set<() => void>();

function snapshot(): Preferences {
  if (!current) current = readPreferences();
  return current;
}

export function setPreferences(patch: Partial<Preferences>): void {
  const next = { ...snapshot(), ...patch };
  if (patch.theme !== undefined && !HEX.test(patch.theme)) next.theme = snapshot().theme;
  current = next;
  const { sidebarOpen, ...rest } = next;
  localStorage.setItem(PREFERENCES_KEY, JSON.stringify(rest));
  localStorage.setItem(SIDEBAR_KEY, sidebarOpen ? '1' : '0');
  for (const l of listeners) l();
}

export function resetPreferences(): void {
  setPreferences({ ...DEFAULT_PREFERENCES, sidebarOpen: snapshot().sidebarOpen });
}

/** For tests: forget the cached copy so the next read comes from storage. */
export function reloadPreferences(): void {
  current = null;
  for (const l of listeners) l();
}

export function usePreferences(): Preferences {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    snapshot,
    snapshot,
  );
}
