/**
 * The rules of the tags view (visited screens as tabs), kept free of React so they can be
 * tested alone: the pinned home tab is always first and cannot be closed; at most
 * MAX_TAGS tabs; closing the active tab moves to the last one left.
 */
import { isJsonRecord } from '../../common/json.ts';

export const MAX_TAGS = 10;
export const TOO_MANY_TAGS = '最多支持10个菜单项!';
export const HOME_PATH = '/dashboard';

export interface Tag {
  /** pathname (the query is kept in `search`) */
  path: string;
  search: string;
  title: string;
  /** pinned: never closed */
  affix?: boolean;
}

export const HOME_TAG: Tag = { path: HOME_PATH, search: '', title: '首页', affix: true };

/**
 * Paths that are never tabs: the refresh detour, the error pages, and `/` (it only leads to
 * 首页, whose tab is the pinned one: a tab of its own would be a second 首页).
 */
export function isTaggable(path: string): boolean {
  return !path.startsWith('/redirect') && !['', '/', '/401', '/403', '/404', '/login'].includes(path);
}

/** Sent by the 404 page for the path it stands in for: that address is no screen, so no tab. */
export const NOT_A_TAB_EVENT = 'shell:not-a-tab';

export function markNotATab(path: string): void {
  window.dispatchEvent(new CustomEvent(NOT_A_TAB_EVENT, { detail: path }));
}

/** Removes the (unpinned) tab of `path`. */
export function dropTag(tags: Tag[], path: string): Tag[] {
  return tags.some((t) => t.path === path && !t.affix) ? tags.filter((t) => t.affix || t.path !== path) : tags;
}

export type AddResult = { tags: Tag[]; refused: boolean };

/** Adds or updates the tab of `tag` (same path: the query and title are refreshed). */
export function addTag(tags: Tag[], tag: Tag): AddResult {
  const withHome = tags.some((t) => t.path === HOME_PATH) ? tags : [HOME_TAG, ...tags];
  if (!isTaggable(tag.path)) return { tags: withHome, refused: false };
  const at = withHome.findIndex((t) => t.path === tag.path);
  if (at >= 0) {
    const current = withHome[at];
    if (current.search === tag.search && current.title === tag.title) return { tags: withHome, refused: false };
    const next = withHome.slice();
    next[at] = { ...current, search: tag.search, title: tag.title };
    return { tags: next, refused: false };
  }
  if (withHome.length >= MAX_TAGS) return { tags: withHome, refused: true };
  return { tags: [...withHome, { path: tag.path, search: tag.search, title: tag.title }], refused: false };
}

export interface CloseResult {
  tags: Tag[];
  /** where to go when the active tab was closed, else null */
  goTo: Tag | null;
}

export function closeTag(tags: Tag[], path: string, activePath: string): CloseResult {
  const target = tags.find((t) => t.path === path);
  if (!target || target.affix) return { tags, goTo: null };
  const next = tags.filter((t) => t.path !== path);
  return { tags: next, goTo: path === activePath ? (next.at(-1) ?? HOME_TAG) : null };
}

/** Keeps the pinned tabs and `path`. */
export function closeOtherTags(tags: Tag[], path: string, activePath: string): CloseResult {
  const next = tags.filter((t) => t.affix || t.path === path);
  const keep = next.find((t) => t.path === path) ?? next.at(-1) ?? HOME_TAG;
  return { tags: next, goTo: activePath === keep.path ? null : keep };
}

/** Keeps the pinned tabs only and goes home. */
export function closeAllTags(tags: Tag[], activePath: string): CloseResult {
  const next = tags.filter((t) => t.affix);
  const home = next[0] ?? HOME_TAG;
  return { tags: next.length ? next : [HOME_TAG], goTo: activePath === home.path ? null : home };
}

/** The refresh detour: /redirect + path + query, which the redirect route turns back. */
export function refreshPath(tag: Pick<Tag, 'path' | 'search'>): string {
  return `/redirect${tag.path}${tag.search}`;
}

export const TAGS_STORAGE_KEY = 'shell.tags';

export function loadTags(storage: Storage = sessionStorage): Tag[] {
  try {
    const saved: unknown = JSON.parse(storage.getItem(TAGS_STORAGE_KEY) || '[]');
    if (Array.isArray(saved)) {
      const valid = (saved as unknown[]).filter(
        (t): t is Tag =>
          isJsonRecord(t) && typeof t.path === 'string' && typeof t.title === 'string' && typeof (t.search ?? '') === 'string',
      );
      return addTag(
        valid
          .filter((t) => isTaggable(t.path))
          .map((t) => ({ path: t.path, search: t.search ?? '', title: t.title, affix: t.path === HOME_PATH || undefined }))
          .slice(0, MAX_TAGS),
        HOME_TAG,
      ).tags;
    }
  } catch {
    /* a damaged entry starts afresh */
  }
  return [HOME_TAG];
}

export function saveTags(tags: Tag[], storage: Storage = sessionStorage): void {
  storage.setItem(TAGS_STORAGE_KEY, JSON.stringify(tags));
}
