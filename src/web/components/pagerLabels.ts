/**
 * The words of every pager in the product, so each list reads alike: the generated lists
 * (react-admin's pagination, through the zh-CN messages), the hand-written tables (TablePager)
 * and the dealer's lists. "第 1-15 条，共 120 条" and 每页条数.
 */
export const ROWS_PER_PAGE_LABEL = '每页条数';

export function rangeLabel({ from, to, count }: { from: number; to: number; count: number }): string {
  return `第 ${from}-${to} 条，共 ${count} 条`;
}

/** The same sentence as a polyglot message (react-admin's ra.navigation.page_range_info). */
export const RANGE_MESSAGE = '第 %{offsetBegin}-%{offsetEnd} 条，共 %{total} 条';
