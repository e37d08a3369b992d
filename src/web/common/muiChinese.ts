/**
 * The words MUI components say on their own (tooltips and aria-labels of pager arrows, the
 * clear and open buttons of an autocomplete, an alert's close button), in Chinese for every
 * theme of the product (the console, the dealer portal, the sign-in pages and the applicant
 * form), so a table that forgets to pass them still speaks Chinese. The pager reads as every
 * other pager of the product (pagerLabels.ts).
 */
import type { Components, Theme } from '@mui/material/styles';
import { rangeLabel, ROWS_PER_PAGE_LABEL } from '../components/pagerLabels.ts';

/** The name of a pager button: 第一页, 上一页, 下一页, 最后一页, 第 3 页. */
export function pagerItemLabel(type: string, page?: number | null, selected?: boolean): string {
  if (type === 'first') return '第一页';
  if (type === 'last') return '最后一页';
  if (type === 'next') return '下一页';
  if (type === 'previous') return '上一页';
  if (type === 'page') return selected ? `第 ${page ?? ''} 页（当前页）` : `第 ${page ?? ''} 页`;
  return '更多页';
}

export const CHINESE_COMPONENTS: Components<Theme> = {
  MuiTablePagination: {
    defaultProps: {
      getItemAriaLabel: (type) => pagerItemLabel(type),
      labelRowsPerPage: ROWS_PER_PAGE_LABEL,
      labelDisplayedRows: rangeLabel,
    },
  },
  MuiPagination: { defaultProps: { getItemAriaLabel: pagerItemLabel, 'aria-label': '分页导航' } },
  MuiBreadcrumbs: { defaultProps: { expandText: '展开' } },
  MuiAutocomplete: {
    defaultProps: { clearText: '清空', closeText: '关闭', loadingText: '加载中……', noOptionsText: '没有可用选项', openText: '打开' },
  },
  MuiAlert: { defaultProps: { closeText: '关闭' } },
};
