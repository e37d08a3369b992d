/**
 * Visited screens as tabs under the app bar: the pinned 首页 tab first, at most 10 tabs
 * (最多支持10个菜单项!), a close control on each unpinned tab (Delete or Backspace on a focused
 * tab), and a right-click menu (from the keyboard: the context-menu key or Shift+F10) with
 * 刷新 / 关闭 / 关闭其他 / 关闭全部. Refresh goes through /redirect/<path> so the screen
 * remounts with its query kept. Tabs survive a reload (session storage).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useLocation, useNavigate } from 'react-router-dom';
import { useNotify } from 'react-admin';
import {
  addTag,
  closeAllTags,
  closeOtherTags,
  closeTag,
  dropTag,
  loadTags,
  NOT_A_TAB_EVENT,
  refreshPath,
  saveTags,
  TOO_MANY_TAGS,
  type CloseResult,
  type Tag,
} from './tags.ts';
import { NOT_FOUND_TITLE, titleOf } from './titles.ts';
import { useOpenedOnce } from '../../components/useOpenedOnce.ts';

/** The tabs with the screen at `path` added, when it is a tab and there is room (the effect's rule). */
function withOpened(tags: Tag[], path: string, search: string): Tag[] {
  const title = titleOf(path, search);
  if (title === NOT_FOUND_TITLE) return tags;
  return addTag(tags, { path, search, title }).tags;
}

export function TagsView() {
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  // the opened screen's tab is there in the first render: added by the effect below, it made the
  // tabs render twice before the console's first paint
  const [tags, setTags] = useState<Tag[]>(() => withOpened(loadTags(), location.pathname, location.search));
  const [menu, setMenu] = useState<{ x: number; y: number; tag: Tag } | null>(null);
  const active = location.pathname;
  // the tab menu renders from its first opening on
  const menuUsed = useOpenedOnce(!!menu);

  /** the path last refused for want of room: warned once, not again on its every query change */
  const refusedPath = useRef<string | null>(null);
  /** addresses the 404 page stood in for this session: no warning about room for them */
  const notTabs = useRef(new Set<string>());
  /** the tabs as last rendered, plus what the effects below changed since (read and written by them only) */
  const tagsRef = useRef(tags);
  useEffect(() => {
    tagsRef.current = tags;
  }, [tags]);

  useEffect(() => {
    const path = location.pathname;
    const title = titleOf(path, location.search);
    // an address with no screen shows the 404 page: it is no tab (and no reason to warn)
    if (title === NOT_FOUND_TITLE) return;
    // An address the 404 page once stood in for is added again all the same: if the page is
    // still the 404, its mark drops the tab in this same commit (this effect runs first); if a
    // screen shows there now, the tab stays. A mark never hides a screen for the session.
    const { tags: next, refused } = addTag(tagsRef.current, { path, search: location.search, title });
    tagsRef.current = next;
    setTags(next);
    if (!refused) {
      refusedPath.current = null;
      return;
    }
    if (refusedPath.current === path || notTabs.current.has(path)) return;
    refusedPath.current = path;
    notify(TOO_MANY_TAGS, { type: 'warning' });
    // every navigation, also one back to the address still shown: a navigation is a transition,
    // and one superseded by the next (关闭全部's way home, then a visit to the same screen) never
    // commits, so the address shown does not change while a close already took its tab away
  }, [location.key, location.pathname, location.search, notify]);

  useEffect(() => {
    const onNotATab = (e: Event) => {
      const path = String((e as CustomEvent<string>).detail);
      notTabs.current.add(path);
      tagsRef.current = dropTag(tagsRef.current, path);
      setTags(tagsRef.current);
    };
    window.addEventListener(NOT_A_TAB_EVENT, onNotATab);
    return () => window.removeEventListener(NOT_A_TAB_EVENT, onNotATab);
  }, []);

  useEffect(() => saveTags(tags), [tags]);

  const apply = ({ tags: next, goTo }: CloseResult) => {
    setTags(next);
    if (goTo) void navigate(goTo.path + goTo.search);
  };
  const open = (tag: Tag) => navigate(tag.path + tag.search);
  const onContext = (e: MouseEvent, tag: Tag) => {
    e.preventDefault();
    setMenu({ x: e.clientX, y: e.clientY, tag });
  };
  /** the same menu from the keyboard: the context-menu key or Shift+F10 on a focused tag */
  const onContextKey = (e: KeyboardEvent<HTMLElement>, tag: Tag) => {
    if (e.key !== 'ContextMenu' && !(e.shiftKey && e.key === 'F10')) return;
    e.preventDefault();
    const box = e.currentTarget.getBoundingClientRect();
    setMenu({ x: box.left, y: box.bottom, tag });
  };
  const act = (fn: (tag: Tag) => void) => () => {
    const tag = menu?.tag;
    setMenu(null);
    if (tag) fn(tag);
  };

  return (
    <Box
      component="nav"
      aria-label="已打开的页面"
      data-testid="tags-view"
      sx={{
        display: 'flex',
        gap: 0.5,
        px: 1,
        py: 0.5,
        overflowX: 'auto',
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        minHeight: 34,
      }}
    >
      {tags.map((tag) => {
        const selected = tag.path === active;
        return (
          <Chip
            key={tag.path}
            label={tag.title}
            size="small"
            color={selected ? 'primary' : 'default'}
            variant={selected ? 'filled' : 'outlined'}
            aria-current={selected ? 'page' : undefined}
            onClick={() => void open(tag)}
            onContextMenu={(e) => onContext(e, tag)}
            onKeyDown={(e) => onContextKey(e, tag)}
            onDelete={tag.affix ? undefined : () => apply(closeTag(tags, tag.path, active))}
            sx={{ borderRadius: 1, flexShrink: 0 }}
          />
        );
      })}
      {menuUsed ? (
        <Menu
          open={!!menu}
          onClose={() => setMenu(null)}
          anchorReference="anchorPosition"
          anchorPosition={menu ? { top: menu.y, left: menu.x } : undefined}
        >
          <MenuItem onClick={act((tag) => void navigate(refreshPath(tag)))}>刷新</MenuItem>
          {!menu?.tag.affix && <MenuItem onClick={act((tag) => apply(closeTag(tags, tag.path, active)))}>关闭</MenuItem>}
          <MenuItem onClick={act((tag) => apply(closeOtherTags(tags, tag.path, active)))}>关闭其他</MenuItem>
          <MenuItem onClick={act(() => apply(closeAllTags(tags, active)))}>关闭全部</MenuItem>
        </Menu>
      ) : null}
    </Box>
  );
}
