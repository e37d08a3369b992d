/**
 * Every screen works with the keys that open it. Generated from the menus: signs in as each
 * demo role (人事专员 hr01, 销售顾问 sales01, 客服 kf01), opens every screen its sidebar shows
 * (from its own GET /api/menus/build), and on each screen its add dialog (新增) and the first
 * row's edit or view dialog (编辑 / 查看) where the role holds those keys. Fails on any 401 or 403
 * answer of the API and on a jump to the no-permission page (#/401): a dialog's pickers and
 * look-ups must be opened by the screen's own key (hr01's roster editor once asked /api/users).
 * Then the same for a role made from each single screen's keys (its list key and every button
 * key it offers). A new screen, role key or dialog picker is covered without editing the test.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { resourceByName, resources } from '../../src/generated/resources.ts';
import { permissionKey } from '../../src/shared/resource-spec.ts';
import { DEMO_PASSWORD, DEMO_ROLES } from '../../src/server/modules/demo/roles.ts';
import { createStaff, loginAs } from '../server/auth-helpers.ts';
import { api, launchBrowser, shot, newPage, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';

interface MenuNode {
  path: string;
  hidden: boolean;
  component: string;
  meta?: { title: string } | null;
  children?: MenuNode[];
}

interface Screen {
  title: string;
  route: string;
}

/** The screens a build tree shows in the sidebar (as the console derives them: hidden ones and outside links left out). */
function screensOf(tree: MenuNode[]): Screen[] {
  const out: Screen[] = [];
  for (const node of tree) {
    if (node.hidden) continue;
    if (!node.meta || node.component === 'Layout' || node.component === 'ParentView') {
      out.push(...screensOf(node.children ?? []));
      continue;
    }
    if (/^https?:\/\//i.test(node.path)) continue;
    out.push({ title: node.meta.title, route: `/${node.path.replace(/^\/+/, '')}` });
  }
  return out;
}

let product: Product;
let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: true });
  browser = await launchBrowser();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

/** Watches a page: API answers refused (401/403) and requests still in flight. */
function watch(p: Page) {
  const refused: string[] = [];
  let inFlight = 0;
  let last = Date.now();
  p.on('request', () => {
    inFlight++;
    last = Date.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    last = Date.now();
  };
  p.on('requestfinished', done);
  p.on('requestfailed', done);
  p.on('response', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/') && (r.status() === 401 || r.status() === 403)) {
      refused.push(`${r.request().method()} ${url.pathname}${url.search} → ${r.status()}`);
    }
  });
  /** Resolves once no request has been in flight for `quietMs` (at most `maxMs`). */
  const settle = async (quietMs = 400, maxMs = 8000) => {
    const start = Date.now();
    await p.waitForTimeout(100);
    while (Date.now() - start < maxMs) {
      if (inFlight === 0 && Date.now() - last >= quietMs) return;
      await p.waitForTimeout(100);
    }
  };
  return { refused, settle };
}

const counts = { screens: 0 };
const opened: string[] = [];
const singleScreenRoles: string[] = [];

interface Walker {
  username: string;
  password: string;
  keys: string[];
}

/**
 * Signs in as `demo` and opens every screen of its sidebar and the dialogs its keys allow;
 * answers the screens walked and the problems seen (refused API answers, jumps to #/401).
 */
async function walk(demo: Walker): Promise<{ screens: Screen[]; problems: string[] }> {
  const token = await loginAs(product.app, demo.username, demo.password);
  const build = await api(product, token, 'GET', '/api/menus/build');
  expect(build.status).toBe(200);
  const screens = screensOf(build.json<MenuNode[]>());

  page = await newPage(browser);
  page.setDefaultTimeout(10000);
  const { refused, settle } = watch(page);
  await signInAs(page, product, { username: demo.username, password: demo.password });
  await settle();
  const problems: string[] = [];
  const check = (where: string) => {
    if (page!.url().includes('#/401')) problems.push(`${where}: jumped to #/401`);
    for (const r of refused.splice(0)) problems.push(`${where}: ${r}`);
  };
  check('sign-in');

  for (const screen of screens) {
    const where = `${screen.title} (${screen.route})`;
    await page.evaluate((route) => (window.location.hash = route), screen.route);
    await settle();
    check(where);
    counts.screens++;
    if (page.url().includes('#/401')) continue;

    const spec = resourceByName[screen.route.slice(1)];
    const holds = (action: string) => !!spec && demo.keys.includes(`${spec.permission}:${action}`);
    if (spec) {
      // a resource screen: its list has answered and drawn before the dialogs are looked for
      await page.getByTestId('list-toolbar').waitFor();
      await settle();
    }
    // the add dialog, where the role holds the key (the button must be there then)
    if (holds('add')) {
      const add = page.getByTestId('list-toolbar').getByRole('button', { name: '新增', exact: true });
      await add.click();
      await page.getByRole('dialog').first().waitFor();
      await settle();
      check(`${where} 新增`);
      opened.push(`${demo.username} ${screen.title} 新增`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').first().waitFor({ state: 'detached' });
    }
    // the first row's edit dialog (查看 where the screen only shows records), where the role holds the
    // edit key and the list shows it a row
    const rows =
      spec && holds('edit') ? (await api(product, token, 'GET', `/${spec.path}?page=0&size=1`)).json<{ totalElements?: number }>() : {};
    if ((rows.totalElements ?? 0) > 0) {
      const edit = page.locator('button[aria-label="编辑"], button[aria-label="查看"]').first();
      await edit.waitFor();
      const label = (await edit.getAttribute('aria-label')) ?? '编辑';
      await edit.click();
      await page.getByRole('dialog').first().waitFor();
      await settle();
      check(`${where} ${label}`);
      opened.push(`${demo.username} ${screen.title} ${label}`);
      if (demo.username === 'hr01' && screen.route === '/staff') await shot(page, 'role-screens-hr01-staff-edit', { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').first().waitFor({ state: 'detached' });
    }
  }
  await page.context().close();
  console.log(`${demo.username}: ${screens.length} screens (${screens.map((s) => s.title).join('、')})`);
  return { screens, problems };
}

describe.each(DEMO_ROLES.map((r) => [r.role, r] as const))('screens of the demo role %s', (_role, demo) => {
  it(`${demo.username} opens every screen of its menus and their add and edit dialogs without a 401/403`, async () => {
    const { screens, problems } = await walk({ ...demo, password: DEMO_PASSWORD });
    expect(screens.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 120_000);
});

// a role made from one screen's keys (its list key and every button key it offers)
describe.each(resources.map((r) => [r.name, r] as const))('a role holding only the keys of %s', (name, spec) => {
  it('opens its screen and dialogs without a 401/403', async () => {
    const keys = [permissionKey(spec, 'list'), ...spec.actions.map((a) => permissionKey(spec, a))];
    const username = `one_${name}`.slice(0, 30);
    await createStaff(product.app, { username, password: 'Screen@2024', permissions: keys, dataScope: '全部' });
    const { screens, problems } = await walk({ username, password: 'Screen@2024', keys });
    singleScreenRoles.push(`${name}: ${screens.length}`);
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('coverage', () => {
  it('opened screens and dialogs of every demo role', () => {
    console.log(
      `role screens: ${counts.screens} screens and ${opened.length} dialogs opened over ${DEMO_ROLES.length} demo roles and ${singleScreenRoles.length} single-screen roles (${singleScreenRoles.join(', ')}): ${opened.join('; ')}`,
    );
    expect(counts.screens).toBeGreaterThanOrEqual(DEMO_ROLES.length);
    // every single-screen role was walked (a resource without a menu of its own shows no screen)
    expect(singleScreenRoles).toHaveLength(resources.length);
  });
});
