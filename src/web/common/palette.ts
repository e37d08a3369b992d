/**
 * The product's colours, chosen so that text in them on white (and white text on them) reaches
 * the 4.5:1 contrast WCAG 2.1 AA asks for. The original Ant Design / Element blues did not
 * (#1890ff 3.24:1, #409EFF 2.78:1); the replacements are the darker steps of the same hues.
 */
import type { Components, Theme } from '@mui/material/styles';
import { CHINESE_COMPONENTS } from './muiChinese.ts';

/** The product blue: Ant Design's blue-7, the darker step of the former #1890ff (5.0:1 on white). */
export const BRAND_BLUE = '#096dd9';

/** A light blue for selected text on the dark sidebars (#304156, #324c6a): 4.9:1 there. */
export const BRAND_BLUE_ON_DARK = '#8cc5ff';

/** Secondary text (was Element's #909399, 3.07:1): 5.1:1 on white. */
export const MUTED_TEXT = '#6b6e72';

/** Salary and other highlighted figures (was Element's #f56c6c, 2.89:1): 5.0:1 on white. */
export const EMPHASIS_RED = '#c93c3c';

/** Text of a warning strip on its pale background #fdf6ec (was #e6a23c, 2.03:1): 5.0:1. */
export const WARNING_TEXT = '#955f00';

/**
 * The status colours of MUI buttons: the defaults take white text at 3.11:1 (warning #ed6c02)
 * and 3.85:1 (info #0288d1); these darker steps of the same hues reach 4.8:1.
 */
export const STATUS_PALETTE = {
  warning: { main: '#b35900' },
  info: { main: '#0277bd' },
} as const;

/** Colours offered in 布局设置 (all at least 4.5:1 with white), the first being the default. */
export const THEME_COLORS = [BRAND_BLUE, '#1f6fc5', '#304156', '#0b7c60', '#08797a', '#6959CD', '#cf1322'] as const;

/** Former choices of 布局设置, as a browser may still remember them, and their replacements. */
export const FORMER_THEME_COLORS: Record<string, string> = {
  '#1890ff': BRAND_BLUE,
  '#409eff': '#1f6fc5',
  '#11a983': '#0b7c60',
  '#13c2c2': '#08797a',
  '#f5222d': '#cf1322',
};

type CheckboxState = { 'aria-label'?: string; inputProps?: Record<string, unknown> };

/**
 * Component defaults every theme of the product shares. A checkbox given an `aria-label`
 * (react-admin's row checkboxes are) has it on the input, where it names the control, not
 * on the wrapping span (where ARIA does not allow it). A progress spinner is named 加载中
 * unless its place names it (react-admin's loading indicator in the app bar has no name of its
 * own, and appears whenever a request is in flight).
 */
export const ACCESSIBLE_COMPONENTS: Components<Theme> = {
  // Chinese names for what MUI names itself (pager arrows, close buttons): muiChinese.ts
  ...CHINESE_COMPONENTS,
  MuiCircularProgress: { defaultProps: { 'aria-label': '加载中' } },
  MuiCheckbox: {
    defaultProps: {
      slotProps: {
        root: (state: CheckboxState) => (state['aria-label'] ? { 'aria-label': undefined } : {}),
        input: (state: CheckboxState) => ({
          ...(state['aria-label'] ? { 'aria-label': state['aria-label'] } : {}),
          ...state.inputProps,
        }),
      },
    },
  },
};
