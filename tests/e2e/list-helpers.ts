/** Locators and waits for the generated list screens (react-admin Datagrid, MUI selects and notices). */
import type { Locator, Page, Response } from 'playwright-core';
import { pending } from './support.ts';

/** The data rows of the list (header excluded). */
export function dataRows(page: Page): Locator {
  return page.getByRole('table').locator('tbody').getByRole('row');
}

/** The pagination's "第 a-b 条，共 n 条". */
export function totalText(page: Page, total: number): Locator {
  return page.getByText(new RegExp(`^第 \\d+-\\d+ 条，共 ${total} 条$`));
}

/** A notice (snackbar) with this text; it must stay in the accessibility tree while a dialog is open. */
export function notice(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ hasText: text });
}

/** Opens a MUI select and picks an option by its exact visible text (the empty option reads 全部). */
export async function chooseOption(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  const listbox = page.getByRole('listbox');
  await listbox
    .getByRole('option')
    .filter({ hasText: new RegExp(`^${option}$`) })
    .click();
  await listbox.waitFor({ state: 'detached' });
}

/** The next answer to `method` on a path like 'api/sysQuestion' whose query passes `match`. */
export function waitForCall(
  page: Page,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  match: (query: URLSearchParams) => boolean = () => true,
): Promise<Response> {
  return pending(
    page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === `/${path}` && r.request().method() === method && match(url.searchParams);
    }),
  );
}

/** The next GET of a list whose query passes `match`. */
export function waitForList(page: Page, path: string, match: (query: URLSearchParams) => boolean = () => true): Promise<Response> {
  return waitForCall(page, 'GET', path, match);
}
