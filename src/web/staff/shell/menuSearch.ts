/** 查找菜单: fuzzy search over the menu entries (fuse.js, threshold 0.4, title 0.7, path 0.3). */
import Fuse from 'fuse.js';
import type { MenuEntry } from './titles.ts';

export const SEARCH_OPTIONS = {
  threshold: 0.4,
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'path', weight: 0.3 },
  ],
};

export function searchMenus(entries: MenuEntry[], query: string, limit = 10): MenuEntry[] {
  const q = query.trim();
  if (!q) return [];
  return new Fuse(entries, SEARCH_OPTIONS).search(q, { limit }).map((r) => r.item);
}
