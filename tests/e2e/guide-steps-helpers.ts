/**
 * Helpers of guide-steps.test.ts: what the guide page says (its text without the Markdown marks,
 * a value read out of a sentence), the rows a step starts from (an account, a roster entry linked
 * to it), written through the API as an administrator would have made them, and the checks of an
 * outcome that is not on the screen (whether a session is still accepted).
 */
import { expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import { guideText } from './guide-reader.ts';
import { api, newPage, openFromMenu, signInAs, tokenOf, type Product } from './support.ts';
import { notice, waitForCall } from './list-helpers.ts';
import type { Created } from '../support/answers.ts';

/** How long a step is given to show its outcome (a notice, a row, a download). */
export const WAIT = 15_000;

/** A guide page's text as a reader sees it: without ** and ` marks, each paragraph on one line. */
export function plainGuide(file: string): string {
  return guideText(file)
    .replace(/\*\*|`/g, '')
    .replace(/([^\n])\n[ \t]*(?=[^\s#!|-])/g, '$1');
}

/** Fails unless the guide page still says each phrase (so a step checks what the page tells its reader). */
export function guideSays(file: string, ...phrases: string[]): void {
  const text = plainGuide(file);
  for (const phrase of phrases) expect(text, `${file} no longer says 「${phrase}」`).toContain(phrase);
}

/** The first group of a pattern in the guide page's text; fails when the page has no such sentence. */
export function guideValue(file: string, pattern: RegExp): string {
  const m = pattern.exec(plainGuide(file));
  if (!m?.[1]) throw new Error(`${file} has no sentence matching ${pattern}`);
  return m[1];
}

/** Ids the steps need from the demo data. */
export async function deptIdOf(product: Product, name: string): Promise<number> {
  const row = await product.app.database.db.selectFrom('sys_dept').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function roleIdOf(product: Product, name: string): Promise<number> {
  const row = await product.app.database.db.selectFrom('sys_role').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface NewUser {
  username: string;
  nickName: string;
  dept: string;
  role: string;
  phone?: string;
}

/** An account made through the API as the administrator (initial password); answers its id. */
export async function makeUser(product: Product, adminToken: string, user: NewUser): Promise<number> {
  const root = (await api(product, adminToken, 'GET', '/api/dept/lazy?pid=0')).json<Array<{ id: number }>>()[0].id;
  const res = await api(product, adminToken, 'POST', '/api/users', {
    username: user.username,
    nickName: user.nickName,
    phone: user.phone ?? '',
    sex: 1,
    enabled: true,
    deptId: await deptIdOf(product, user.dept),
    orgId: root,
    roles: [{ id: await roleIdOf(product, user.role) }],
  });
  expect(res.status, res.body).toBe(201);
  return res.json<Created>().id;
}

/** A password of the account's own (not the initial one), as after its first change. */
export async function ownPassword(product: Product, userId: number, password: string): Promise<void> {
  await product.app.database.db
    .updateTable('sys_user')
    .set({ password: await hashPassword(password), is_def_password: 0 })
    .where('id', '=', userId)
    .execute();
}

/** A roster entry (员工花名册) in a department, linked to an account; answers its id. */
export async function makeStaffEntry(
  product: Product,
  adminToken: string,
  entry: { name: string; mobile: string; dept: string; job: string; userId?: number },
): Promise<number> {
  const root = (await api(product, adminToken, 'GET', '/api/dept/lazy?pid=0')).json<Array<{ id: number }>>()[0].id;
  const res = await api(product, adminToken, 'POST', '/api/staff', {
    name: entry.name,
    mobile: entry.mobile,
    sex: 1,
    orgId: root,
    deptId: await deptIdOf(product, entry.dept),
    job: entry.job,
    entryDate: '2023-03-01',
    status: 1,
    ...(entry.userId ? { userId: entry.userId } : {}),
  });
  expect(res.status, res.body).toBe(201);
  return res.json<Created>().id;
}

/** Whether the server still accepts a session (GET api/info with its token). */
export async function sessionAccepted(product: Product, token: string): Promise<boolean> {
  return (await api(product, token, 'GET', '/api/info')).status === 200;
}

/** A new browser window signed in as a staff member (15 s default timeout). */
export async function signedIn(
  browser: Browser,
  product: Product,
  user: { username: string; password: string },
  options?: { keepPasswordDialog?: boolean },
): Promise<Page> {
  const page = await newPage(browser);
  page.setDefaultTimeout(WAIT);
  await signInAs(page, product, user, options);
  // the sidebar's directories arrive with the user's menus: a directory opened before would fold again
  const build = (await api(product, await tokenOf(page), 'GET', '/api/menus/build')).json<
    Array<{ meta?: unknown; children?: unknown[] }>
  >();
  if (!options?.keepPasswordDialog && build.some((m) => m.meta && m.children?.length))
    await page.locator('.RaSidebar-fixed [aria-expanded]').first().waitFor();
  return page;
}

/** The button of the confirmation dialog that opens after an action (确定). */
export async function confirm(page: Page, text?: string | RegExp): Promise<void> {
  const dialog = text ? page.getByRole('dialog').filter({ hasText: text }) : page.getByRole('dialog').last();
  await dialog.getByRole('button', { name: '确定' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The 确定 of a confirmation dialog named by its title (when the dialog behind it holds the same words). */
export async function confirmNamed(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title, exact: true });
  await dialog.getByRole('button', { name: '确定' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** A row of the user list (用户管理) by user name. */
export const userRow = (page: Page, username: string) =>
  page
    .getByRole('table', { name: '用户列表' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: username, exact: true }) });

/** Sets 系统名称 on the 系统设置 screen and saves it; answers the name it had. */
export async function saveSystemName(page: Page, name: string): Promise<string> {
  const form = page.getByRole('form', { name: '系统设置' });
  if (!(await form.isVisible())) await openFromMenu(page, '系统设置', 'api/system/sysConfig');
  const field = form.getByLabel('系统名称');
  await expect.poll(() => field.inputValue()).not.toBe('');
  const old = await field.inputValue();
  await field.fill(name);
  const saved = waitForCall(page, 'PUT', 'api/system/sysConfig');
  await form.getByRole('button', { name: '保存' }).click();
  expect((await saved).status()).toBeLessThan(300);
  await notice(page, '保存成功').waitFor();
  return old;
}

/** Picks an option of a MUI select or picker by its text (indented names included). */
export async function pick(page: Page, combobox: Locator, option: string | RegExp): Promise<void> {
  await combobox.click();
  const listbox = page.getByRole('listbox');
  const name = typeof option === 'string' ? new RegExp(`^[\\s\\u3000]*${option}$`) : option;
  await listbox.getByRole('option', { name }).first().click();
}
