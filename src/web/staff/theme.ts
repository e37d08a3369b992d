import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** Console theme: primary #1890ff, small controls by default (the spec's size preference). */
export const staffTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: { primary: { main: '#1890ff' }, secondary: { main: '#304156' } },
  components: {
    ...defaultTheme.components,
    MuiTextField: { defaultProps: { size: 'small', variant: 'outlined' } },
    MuiFormControl: { defaultProps: { size: 'small', variant: 'outlined' } },
  },
};
