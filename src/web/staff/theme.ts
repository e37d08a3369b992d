import { defaultTheme, type RaThemeOptions } from 'react-admin';
import type { Preferences } from './shell/preferences.ts';
import { motionOptions, rippleOptions } from '../motion.ts';
import { phoneLayoutOptions } from '../phoneLayout.ts';
import { ACCESSIBLE_COMPONENTS, BRAND_BLUE, STATUS_PALETTE } from '../common/palette.ts';

/** Console theme: the product blue (see common/palette.ts), small controls by default (the spec's size preference). */
export const staffTheme: RaThemeOptions = {
  ...defaultTheme,
  /** sidebar 205 px open, 50 px collapsed */
  sidebar: { width: 205, closedWidth: 50 },
  palette: { primary: { main: BRAND_BLUE }, secondary: { main: '#304156' }, ...STATUS_PALETTE },
  ...motionOptions(),
  components: {
    ...defaultTheme.components,
    ...rippleOptions(),
    ...phoneLayoutOptions(),
    ...ACCESSIBLE_COMPONENTS,
    MuiTextField: { defaultProps: { size: 'small', variant: 'outlined' } },
    MuiFormControl: { defaultProps: { size: 'small', variant: 'outlined' } },
  },
};

/** The console theme for the layout preferences: the chosen colour and component size. */
export function themeFor(prefs: Pick<Preferences, 'theme' | 'size'>): RaThemeOptions {
  return {
    ...staffTheme,
    palette: { ...staffTheme.palette, primary: { main: prefs.theme } },
    components: {
      ...staffTheme.components,
      MuiTextField: { defaultProps: { size: prefs.size, variant: 'outlined' } },
      MuiFormControl: { defaultProps: { size: prefs.size, variant: 'outlined' } },
      MuiButton: { defaultProps: { size: prefs.size } },
      MuiIconButton: { defaultProps: { size: prefs.size } },
    },
  };
}
