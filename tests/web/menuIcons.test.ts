import { describe, expect, it } from 'vitest';
import FolderIcon from '@mui/icons-material/Folder';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { menuIcon } from '../../src/web/staff/shell/menuIcons.tsx';
import { MENU_DIRECTORIES } from '../../src/server/auth/seed.ts';

describe('menu icons', () => {
  it('every seeded directory has its own icon, not the plain folder nor the help mark', () => {
    const icons = MENU_DIRECTORIES.map((d) => menuIcon(d.icon, d.path, true));
    for (const [i, icon] of icons.entries()) {
      expect(icon, MENU_DIRECTORIES[i].title).not.toBe(FolderIcon);
      expect(icon, MENU_DIRECTORIES[i].title).not.toBe(HelpOutlineIcon);
    }
    expect(new Set(icons).size).toBe(icons.length);
  });

  it('an unknown name falls back to a folder for a directory', () => {
    expect(menuIcon('nope', undefined, true)).toBe(FolderIcon);
  });
});
