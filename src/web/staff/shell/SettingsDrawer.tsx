/** 布局设置: the layout preferences drawer (theme colour, tags, fixed header, logo, unique-opened, size). */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Check from '@mui/icons-material/Check';
import { useState, useSyncExternalStore } from 'react';
import { resetPreferences, setPreferences, THEME_COLORS, usePreferences, type Preferences } from './preferences.ts';

let drawerOpen = false;
const drawerListeners = new Set<() => void>();
function setDrawer(open: boolean): void {
  drawerOpen = open;
  for (const l of drawerListeners) l();
}
/** Opens the drawer (the user dropdown's 布局设置). */
export const openSettings = (): void => setDrawer(true);

/** The drawer, mounted once in the layout; opened by openSettings(). Rendered from its first opening on. */
export function SettingsDrawerHost() {
  const open = useSyncExternalStore(
    (l) => {
      drawerListeners.add(l);
      return () => drawerListeners.delete(l);
    },
    () => drawerOpen,
    () => false,
  );
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  return open || used ? <SettingsDrawer open={open} onClose={() => setDrawer(false)} /> : null;
}

const SWITCHES: Array<[keyof Preferences, string]> = [
  ['tagsView', '开启 Tags-Views'],
  ['fixedHeader', '固定 Header'],
  ['sidebarLogo', '显示 Logo'],
  ['uniqueOpened', '菜单 唯一展开'],
];

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const prefs = usePreferences();
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 280, p: 2 } } }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        系统布局设置
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        主题颜色
      </Typography>
      <Box role="radiogroup" aria-label="主题颜色" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        {THEME_COLORS.map((color) => {
          const chosen = prefs.theme.toLowerCase() === color.toLowerCase();
          return (
            <Tooltip key={color} title={color}>
              <Box
                component="button"
                type="button"
                role="radio"
                aria-checked={chosen}
                aria-label={color}
                onClick={() => setPreferences({ theme: color })}
                sx={{
                  width: 24,
                  height: 24,
                  borderRadius: 0.5,
                  border: 0,
                  bgcolor: color,
                  color: '#fff',
                  cursor: 'pointer',
                  display: 'grid',
                  placeItems: 'center',
                  p: 0,
                }}
              >
                {chosen && <Check sx={{ fontSize: 16 }} />}
              </Box>
            </Tooltip>
          );
        })}
      </Box>
      <Divider sx={{ mb: 1 }} />
      {SWITCHES.map(([key, label]) => (
        <FormControlLabel
          key={key}
          labelPlacement="start"
          sx={{ justifyContent: 'space-between', ml: 0 }}
          control={<Switch checked={Boolean(prefs[key])} onChange={(e) => setPreferences({ [key]: e.target.checked })} />}
          label={label}
        />
      ))}
      <Divider sx={{ my: 1 }} />
      <Typography variant="body2">布局大小</Typography>
      <RadioGroup row value={prefs.size} onChange={(e) => setPreferences({ size: e.target.value as Preferences['size'] })}>
        <FormControlLabel value="small" control={<Radio size="small" />} label="紧凑" />
        <FormControlLabel value="medium" control={<Radio size="small" />} label="默认" />
      </RadioGroup>
      <Button variant="outlined" size="small" sx={{ mt: 2 }} onClick={resetPreferences}>
        恢复默认
      </Button>
    </Drawer>
  );
}
