/**
 * 查找菜单: menu titles by the shared pinyin rule (用户管理 by yhgl, yonghu, 管理), then fuzzy
 * search over titles and paths (fuse.js, threshold 0.4, title 0.7, path 0.3).
 */
import Fuse from 'fuse.js';
import type { MenuEntry } from './titles.ts';
import { plainMatch, type TextMatcher } from '../../components/pinyin/usePinyin.ts';

export const SEARCH_OPTIONS = {
  threshold: 0.4,
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'path', weight: 0.3 },
  ],
};

/**
 * The entries found: those the rule finds in the order fuse ranks them, then the rule's other
 * finds, then fuse's other finds. `match` is the rule (plain substring until it has loaded).
 */
export function searchMenus(entries: MenuEntry[], query: string, limit = 10, match: TextMatcher = plainMatch): MenuEntry[] {
  const q = query.trim();
  if (!q) return [];
  const fuzzy = new Fuse(entries, SEARCH_OPTIONS).search(q, { limit }).map((r) => r.item);
  const byRule = new Set(entries.filter((e) => match(e.title, q)));
  const ordered = [...fuzzy.filter((e) => byRule.has(e)), ...byRule, ...fuzzy];
  return [...new Set(ordered)].slice(0, limit);
}
