/** Header menu search: a search icon that opens the 查找菜单 box; choosing an entry opens the screen. */
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import SearchIcon from '@mui/icons-material/Search';
import { lazyPart } from '../lazyPart.tsx';

// the box and its fuzzy search come with the first click, not with the console
const loadBox = () => import('./MenuSearchBox.tsx');
const MenuSearchBox = lazyPart(loadBox, 'MenuSearchBox', <SearchIcon aria-label="正在加载" sx={{ mx: 1.5 }} />);

export function MenuSearch() {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <LazyTooltip title="查找菜单">
        <IconButton
          color="inherit"
          aria-label="查找菜单"
          onClick={() => setOpen(true)}
          onMouseEnter={() => void loadBox().catch(() => undefined)}
        >
          <SearchIcon />
        </IconButton>
      </LazyTooltip>
    );
  }
  return <MenuSearchBox onClose={() => setOpen(false)} />;
}
