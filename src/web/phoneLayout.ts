/**
 * Theme parts shared by the three apps for phone-sized windows (below 600 px): a dialog keeps
 * 8 px to the window's edges instead of 32 px, so its fields get the width, and its content
 * loses some side padding. Its height stays within the window and its content scrolls.
 */
import type { ThemeOptions } from '@mui/material/styles';

const PHONE = '@media (max-width:599.95px)';

export function phoneLayoutOptions(): NonNullable<ThemeOptions['components']> {
  return {
    MuiDialog: {
      styleOverrides: {
        paper: {
          [PHONE]: {
            '&:not(.MuiDialog-paperFullScreen)': { margin: 8, width: 'calc(100% - 16px)', maxWidth: 'calc(100% - 16px)', maxHeight: 'calc(100% - 16px)' },
          },
        },
      },
    },
    MuiDialogTitle: { styleOverrides: { root: { [PHONE]: { paddingLeft: 16, paddingRight: 16 } } } },
    MuiDialogContent: { styleOverrides: { root: { [PHONE]: { paddingLeft: 16, paddingRight: 16 } } } },
  };
}
