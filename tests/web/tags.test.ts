import { describe, expect, it } from 'vitest';
import {
  addTag,
  closeAllTags,
  closeOtherTags,
  closeTag,
  HOME_TAG,
  loadTags,
  MAX_TAGS,
  refreshPath,
  saveTags,
  TAGS_STORAGE_KEY,
  type Tag,
} from '../../src/web/staff/shell/tags.ts';
import { DEFAULT_PREFERENCES, PREFERENCES_KEY, readPreferences, SIDEBAR_KEY } from '../../src/web/staff/shell/preferences.ts';
import { BRAND_BLUE } from '../../src/web/common/palette.ts';
import { titleOf } from '../../src/web/staff/shell/titles.ts';

const tag = (path: string, search = ''): Tag => ({ path, search, title: path.slice(1) });

function open(paths: string[]): Tag[] {
  let tags: Tag[] = [HOME_TAG];
  for (const p of paths) tags = addTag(tags, tag(p)).tags;
  return tags;
}

describe('tags view rules', () => {
  it('always starts with the pinned home tab and adds each path once', () => {
    const tags = open(['/a', '/b', '/a']);
    expect(tags.map((t) => t.path)).toEqual(['/dashboard', '/a', '/b']);
    expect(tags[0].affix).toBe(true);
    expect(addTag([], tag('/x')).tags.map((t) => t.path)).toEqual(['/dashboard', '/x']);
  });

  it('refuses the 11th tab (最多支持10个菜单项!) but still updates an open one', () => {
    const nine = Array.from({ length: MAX_TAGS - 1 }, (_, i) => `/p${i}`);
    const tags = open(nine);
    expect(tags).toHaveLength(MAX_TAGS);
    const eleventh = addTag(tags, tag('/p10'));
    expect(eleventh.refused).toBe(true);
    expect(eleventh.tags).toHaveLength(MAX_TAGS);
    const again = addTag(tags, tag('/p3', '?page=2'));
    expect(again.refused).toBe(false);
    expect(again.tags.find((t) => t.path === '/p3')!.search).toBe('?page=2');
  });

  it('never adds the refresh detour or the error pages', () => {
    expect(open(['/redirect/a', '/404', '/401']).map((t) => t.path)).toEqual(['/dashboard']);
  });

  it('closing: the home tab stays; closing the active tab goes to the last one', () => {
    const tags = open(['/a', '/b', '/c']);
    expect(closeTag(tags, '/dashboard', '/a').tags).toBe(tags);
    const closedActive = closeTag(tags, '/c', '/c');
    expect(closedActive.tags.map((t) => t.path)).toEqual(['/dashboard', '/a', '/b']);
    expect(closedActive.goTo?.path).toBe('/b');
    const closedOther = closeTag(tags, '/a', '/c');
    expect(closedOther.goTo).toBeNull();
  });

  it('关闭其他 keeps home and the chosen tab; 关闭全部 keeps home and goes there', () => {
    const tags = open(['/a', '/b', '/c']);
    const others = closeOtherTags(tags, '/b', '/c');
    expect(others.tags.map((t) => t.path)).toEqual(['/dashboard', '/b']);
    expect(others.goTo?.path).toBe('/b');
    expect(closeOtherTags(tags, '/b', '/b').goTo).toBeNull();
    const all = closeAllTags(tags, '/c');
    expect(all.tags.map((t) => t.path)).toEqual(['/dashboard']);
    expect(all.goTo?.path).toBe('/dashboard');
  });

  it('/ (which leads to 首页) is no tab of its own, also not from a saved list', () => {
    expect(open(['/', '/a']).map((t) => t.path)).toEqual(['/dashboard', '/a']);
    sessionStorage.setItem(TAGS_STORAGE_KEY, JSON.stringify([HOME_TAG, { path: '/', title: '首页' }]));
    expect(loadTags(sessionStorage)).toEqual([HOME_TAG]);
  });

  it('refresh keeps the query through /redirect', () => {
    expect(refreshPath({ path: '/sysQuestion', search: '?page=2' })).toBe('/redirect/sysQuestion?page=2');
  });

  it('survives a reload; damaged storage starts afresh', () => {
    const tags = open(['/a', '/b']);
    saveTags(tags, sessionStorage);
    expect(loadTags(sessionStorage).map((t) => t.path)).toEqual(['/dashboard', '/a', '/b']);
    sessionStorage.setItem(TAGS_STORAGE_KEY, '{oops');
    expect(loadTags(sessionStorage)).toEqual([HOME_TAG]);
    sessionStorage.setItem(TAGS_STORAGE_KEY, JSON.stringify([{ path: 5 }, { path: '/ok', title: 'OK' }]));
    expect(loadTags(sessionStorage).map((t) => t.path)).toEqual(['/dashboard', '/ok']);
  });

  it('titles come from fixed pages and resource schemas', () => {
    expect(titleOf('/dashboard')).toBe('首页');
    expect(titleOf('/user/center')).toBe('个人中心');
    expect(titleOf('/sysQuestion')).toBe('问题反馈');
    expect(titleOf('/staffunZp/5')).toBe(titleOf('/staffunZp'));
    expect(titleOf('/sysQuestion:销售')).toBe('销售问题反馈');
    expect(titleOf(`/sysQuestion:${encodeURIComponent('人事')}`)).toBe('人事问题反馈');
    expect(titleOf('/content', `?src=api%2Fx&title=${encodeURIComponent('处理说明')}`)).toBe('处理说明');
    expect(titleOf('/content', '?src=api%2Fx')).toBe('内容');
    expect(titleOf('/system/user')).toBe('用户管理');
    expect(titleOf('/no/such/screen')).toBe('页面不存在');
    expect(titleOf('/')).toBe('首页');
  });
});

describe('layout preferences', () => {
  it('defaults: the product blue, tags, fixed header, logo, unique-opened, small, sidebar open', () => {
    localStorage.clear();
    expect(readPreferences(localStorage)).toEqual(DEFAULT_PREFERENCES);
  });

  it('keeps only well-formed stored values; the sidebar reads 1 open / 0 closed', () => {
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ theme: '#409EFF', tagsView: false, size: 'huge', fixedHeader: 'yes' }));
    localStorage.setItem(SIDEBAR_KEY, '0');
    const prefs = readPreferences(localStorage);
    // a former choice that fails contrast comes back as its darker replacement
    expect(prefs.theme).toBe('#1f6fc5');
    expect(prefs.tagsView).toBe(false);
    expect(prefs.size).toBe('small');
    expect(prefs.fixedHeader).toBe(true);
    expect(prefs.sidebarOpen).toBe(false);
    localStorage.setItem(PREFERENCES_KEY, 'not json');
    expect(readPreferences(localStorage).theme).toBe(BRAND_BLUE);
    localStorage.clear();
  });
});

describe('menu search (查找菜单)', () => {
  it('finds screens by a fuzzy title or path, at most 10', async () => {
    const { searchMenus, SEARCH_OPTIONS } = await import('../../src/web/staff/shell/menuSearch.ts');
    const { menuEntries } = await import('../../src/web/staff/shell/titles.ts');
    expect(SEARCH_OPTIONS.threshold).toBe(0.4);
    expect(SEARCH_OPTIONS.keys).toEqual([
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ]);
    const entries = menuEntries();
    expect(searchMenus(entries, '反馈').map((e) => e.path)).toContain('/sysQuestion');
    expect(searchMenus(entries, 'staffun').map((e) => e.path)).toContain('/staffunZp');
    expect(searchMenus(entries, '招聘')[0].title).toBe('人事招聘信息');
    expect(searchMenus(entries, '   ')).toEqual([]);
    expect(searchMenus(entries, 'zzzzqqqq')).toEqual([]);
  });
});
