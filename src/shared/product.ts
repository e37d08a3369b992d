/**
 * The product's name: 系统设置's 系统名称 (the `title` setting) wherever the product names itself
 * (sign-in pages, sidebar, page titles, 首页, the API document), this default until one is saved.
 */
export const DEFAULT_PRODUCT_NAME = '车商集团后台管理系统';

/** The saved 系统名称, or the default when none is saved (or it is blank). */
export function productName(title: unknown): string {
  return typeof title === 'string' && title.trim() ? title.trim() : DEFAULT_PRODUCT_NAME;
}
