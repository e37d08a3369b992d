/**
 * Dialog layout shared by the three apps. A dialog whose title, content and actions sit in a
 * form keeps its title and buttons in view: the form fills the dialog and only the content
 * scrolls (as in a dialog without a form). On phone-sized windows (below 600 px) a dialog keeps
 * 8 px to the window's edges instead of 32 px, so its fields get the width, and its content
 * loses some side padding.
 */
import type { ThemeOptions } from '@mui/material/styles';

const PHONE = '@media (max-width:599.95px)';

export function phoneLayoutOptions(): NonNullable<ThemeOptions['components']> {
  return {
    MuiDialog: {
      styleOverrides: {
        paper: {
          '& > form': { display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 },
          [PHONE]: {
            '&:not(.MuiDialog-paperFullScreen)': {
              margin: 8,
              width: 'calc(100% - 16px)',
              maxWidth: 'calc(100% - 16px)',
              maxHeight: 'calc(100% - 16px)',
            },
          },
        },
      },
    },
    MuiDialogTitle: { styleOverrides: { root: { [PHONE]: { paddingLeft: 16, paddingRight: 16 } } } },
    MuiDialogContent: { styleOverrides: { root: { [PHONE]: { paddingLeft: 16, paddingRight: 16 } } } },
  };
}
