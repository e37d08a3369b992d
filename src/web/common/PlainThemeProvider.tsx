/**
 * MUI's ThemeProvider for a theme made without CSS variables (createTheme without
 * `cssVariables`, as every theme here is), without the CSS-variables provider, its colour-scheme
 * storage and its init script, which `@mui/material/styles`' ThemeProvider imports to choose
 * between the two at run time: a few KB the public pages load before their first paint.
 * Same context as the material ThemeProvider gives such a theme (`vars: null`, the material
 * theme at the default theme id), so every component reads the same theme.
 */
import { useMemo, type ReactNode } from 'react';
import { ThemeProvider as SystemThemeProvider } from '@mui/system';
import type { Theme } from '@mui/material/styles';

export function PlainThemeProvider({ theme, children }: { theme: Theme; children?: ReactNode }) {
  const noVars = useMemo(() => ({ ...theme, vars: null }), [theme]);
  return <SystemThemeProvider theme={noVars}>{children}</SystemThemeProvider>;
}
