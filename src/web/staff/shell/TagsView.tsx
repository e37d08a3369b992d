/**
 * Visited screens as tabs under the app bar: the pinned 首页 tab first, at most 10 tabs
 * (最多支持10个菜单项!), a close control on each unpinned tab, and a right-click menu with
 * 刷新 / 关闭 / 关闭其他 / 关闭全部. Refresh goes through /redirect/<path> so the screen
 * remounts with its query kept. Tabs survive a reload (session storage).
 */
import { useEffect, useState, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useLocation, useNavigate } from 'react-router-dom';
import { useNotify } from 'react-admin';
import { addTag, closeAllTags, closeOtherTags, closeTag, loadTags, refreshPath, saveTags, TOO_MANY_TAGS, type CloseResult, type Tag } from './tags.ts';
import { titleOf } from './titles.ts';

export function TagsView() {
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const [tags, setTags] = useState<Tag[]>(() => loadTags());
  const [menu, setMenu] = useState<{ x: number; y: number; tag: Tag } | null>(null);
  const active = location.pathname;

  useEffect(() => {
    setTags((current) => {
      const { tags: next, refused } = addTag(current, { path: location.pathname, search: location.search, title: titleOf(location.pathname, location.search) });
      if (refused) notify(TOO_MANY_TAGS, { type: 'warning' });
      return next;
    });
  }, [location.pathname, location.search, notify]);

  useEffect(() => saveTags(tags), [tags]);

  const apply = ({ tags: next, goTo }: CloseResult) => {
    setTags(next);
    if (goTo) navigate(goTo.path + goTo.search);
  };
  const open = (tag: Tag) => navigate(tag.path + tag.search);
  const onContext = (e: MouseEvent, tag: Tag) => {
    e.preventDefault();
    setMenu({ x: e.clientX, y: e.clientY, tag });
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
      sx={{ display: 'flex', gap: 0.5, px: 1, py: 0.5, overflowX: 'auto', borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper', minHeight: 34 }}
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
            onClick={() => open(tag)}
            onContextMenu={(e) => onContext(e, tag)}
            onDelete={tag.affix ? undefined : () => apply(closeTag(tags, tag.path, active))}
            sx={{ borderRadius: 1, flexShrink: 0 }}
          />
        );
      })}
      <Menu
        open={!!menu}
        onClose={() => setMenu(null)}
        anchorReference="anchorPosition"
        anchorPosition={menu ? { top: menu.y, left: menu.x } : undefined}
      >
        <MenuItem onClick={act((tag) => navigate(refreshPath(tag)))}>刷新</MenuItem>
        {!menu?.tag.affix && <MenuItem onClick={act((tag) => apply(closeTag(tags, tag.path, active)))}>关闭</MenuItem>}
        <MenuItem onClick={act((tag) => apply(closeOtherTags(tags, tag.path, active)))}>关闭其他</MenuItem>
        <MenuItem onClick={act(() => apply(closeAllTags(tags, active)))}>关闭全部</MenuItem>
      </Menu>
    </Box>
  );
}
