/**
 * Every screen works with the keys that open it. Generated from the menu tree: signs in as each
 * demo role (人事专员 hr01, 销售顾问 sales01, 客服 kf01) and as a role made from each single
 * screen's keys (the screen menu's key and the keys of its buttons, without `:sensitive`, so
 * masks apply), opens every screen its sidebar shows (from its own GET /api/menus/build) and on
 * each screen every dialog its toolbars and rows offer, each kind once: 新增, 编辑/修改, 查看,
 * 详情, 历史记录, 回收站, 导入, and a hand-written screen's own dialog buttons named in
 * SCREEN_HINTS. Never a delete, restore, reset or sync: those buttons are not clicked, and no
 * dialog is confirmed. The demo roles also open the app bar's message and chat drawers and the
 * personal centre. Every list has a row first (made as admin), so edit and view dialogs open.
 * Fails on any 401 or 403 answer of the API, on a jump to the no-permission page (#/401), on a
 * dialog button that opens no dialog, and on a screen of the menu tree where no role opened any
 * dialog unless SCREEN_HINTS says why the screen has none. A new screen, key or dialog picker is
 * covered without editing the test. The single-screen roles are walked on three pages at once. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { resourceByName, resources } from '../../src/generated/resources.ts';
import { DEMO_PASSWORD, DEMO_ROLES } from '../../src/server/modules/demo/roles.ts';
import { createStaff, loginAs } from '../server/auth-helpers.ts';
import { sampleBody } from '../server/sample-records.ts';
import { nowText } from '../../src/server/db/index.ts';
import { recordToRow } from '../../src/server/crud/values.ts';
import { ADMIN, api, launchBrowser, shot, VIEWPORT, shotOnFailure, startProduct, type Product } from './support.ts';

/**
 * What the generic walk cannot know about a screen, one line per screen that needs it:
 * - buttons: its own buttons that open a dialog (exact accessible names);
 * - keys: keys of its own buttons filed under another screen's menu;
 * - rowClick: a click on the first row opens a dialog ('dialog') or shows the row's detail beside
 *   the list, with its look-ups and buttons ('select');
 * - none: why the screen offers no dialog at all (the coverage check fails on a screen without
 *   any dialog opened and without this reason).
 */
interface ScreenHint {
  buttons?: string[];
  /** keys its own buttons check that the menu tree files under another screen (a role made from the screen gets them) */
  keys?: string[];
  rowClick?: 'dialog' | 'select';
  none?: string;
}

const SCREEN_HINTS: Record<string, ScreenHint> = {
  '/staff': { buttons: ['调岗', '离职', '调岗记录'] },
  '/dj': { buttons: ['日志'] },
  '/dbcUserInfo': { buttons: ['代客提交用车需求'], keys: ['submitDbcInfo:add'] },
  '/system/dept': { buttons: ['备注'] },
  '/system/role': { rowClick: 'select' },
  '/system/dict': { rowClick: 'select' },
  '/logs': { rowClick: 'dialog' },
  '/usage': { none: 'a page of text' },
  '/DecisionCenter/index': { none: 'a page with a link to the data centre' },
  '/system/backup': { none: 'its buttons run a backup, a download, a restore or a delete, never a dialog to fill' },
  '/outbox': { none: 'a read-only list of sent messages' },
  '/system/privacy': { none: 'a form that looks a person up, copies or erases (confirmed before it runs), and a list of requests' },
};

/** Screens every signed-in member reaches outside the menus (from the user menu). */
const OPEN_SCREENS: Screen[] = [{ title: '个人中心', route: '/user/center' }];
/** The app bar's drawers every member opens: its button and the drawer's region. */
const APP_BAR_DRAWERS = [
  { button: '系统消息', region: '系统消息' },
  { button: '在线用户', region: '在线聊天' },
];

/** Names of buttons that open a dialog on any screen, matched at the start (新增品牌, 编辑大众, 新增下级). */
const DIALOG_VERBS = ['新增', '添加', '编辑', '修改', '查看', '详情', '历史记录', '回收站', '导入'];
/** Never clicked, whatever else the name says. */
const NEVER = /删除|恢复|重置|同步|执行|暂停|清空|还原|移除/;

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

interface MenuRow {
  id: number;
  pid: number | null;
  type: number;
  title: string;
  path: string | null;
  permission: string | null;
  hidden: number;
  i_frame: number;
}

/** Every screen of the menu tree and the keys a role made from it holds (its own key and its buttons' keys). */
async function menuScreens(product: Product): Promise<Array<Screen & { keys: string[] }>> {
  const rows = (await product.app.database.db
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'type', 'title', 'path', 'permission', 'hidden', 'i_frame'])
    .orderBy('menu_sort')
    .orderBy('id')
    .execute()) as unknown as MenuRow[];
  return rows
    .filter((m) => Number(m.type) === 1 && !Number(m.hidden) && !Number(m.i_frame) && m.path && !/^https?:\/\//i.test(m.path))
    .map((m) => {
      const route = `/${m.path!.replace(/^\/+/, '')}`;
      const own = [m.permission, ...rows.filter((b) => Number(b.type) === 2 && Number(b.pid) === Number(m.id)).map((b) => b.permission)];
      const keys = own.filter((k): k is string => !!k && !k.endsWith(':sensitive'));
      return { title: m.title, route, keys: keys.length ? [...keys, ...(SCREEN_HINTS[route]?.keys ?? [])] : [] };
    });
}

let product: Product;
let browser: Browser;
/** the page of the walk running last (the one a failure's screenshot shows) */
let page: Page | undefined;
let adminToken: string;
const unseeded: string[] = [];

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: true });
  browser = await launchBrowser();
  adminToken = await loginAs(product.app, ADMIN.username, ADMIN.password);
  // a row in every list, so its edit, view and history dialogs can be opened
  for (const spec of resources) {
    const list = await api(product, adminToken, 'GET', `/${spec.path}?page=0&size=1`);
    if ((list.json<{ totalElements?: number }>().totalElements ?? 0) > 0) continue;
    const body = await sampleBody(product.app, adminToken, resources, spec, 0);
    const made = await api(product, adminToken, 'POST', `/${spec.path}`, body);
    if (made.status === 201) continue;
    // records made elsewhere (a dealer's customers and demands come from the dealer portal): straight into the table
    const now = nowText();
    await product.app.database.db
      .insertInto(spec.table)
      .values(recordToRow(spec, { ...body, createTime: now, updateTime: now }, product.app.database.dialect))
      .execute()
      .catch((e: Error) => unseeded.push(`${spec.name} (${made.status}, ${e.message})`));
  }
}, 120_000);

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  for (const lane of lanes) await lane.context.close();
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
  const settle = async (quietMs = 250, maxMs = 8000) => {
    const start = Date.now();
    do await p.waitForTimeout(80);
    while (Date.now() - start < maxMs && !(inFlight === 0 && Date.now() - last >= quietMs));
  };
  return { refused, settle };
}

/**
 * A page that walks one role after another (one browser context, so the console's files load
 * once); the single-screen roles are walked on LANES pages at once, as the walk mostly waits.
 */
interface Lane {
  context: BrowserContext;
  page: Page;
  watcher: ReturnType<typeof watch>;
}
const LANES = 3;
const lanes: Lane[] = [];

async function laneOf(i: number): Promise<Lane> {
  while (lanes.length <= i) {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN', reducedMotion: 'reduce' });
    const p = await context.newPage();
    p.setDefaultTimeout(15000);
    lanes.push({ context, page: p, watcher: watch(p) });
  }
  return lanes[i];
}

/** A button or link of the screen that opens a dialog (or, for 详情, the record's page). */
interface Opener {
  /** the value of the data-walk-opener attribute the scan gave it */
  mark: number;
  name: string;
  /** the region (table, toolbar, panel) and the verb: each is opened once per screen */
  key: string;
  link: boolean;
}

/** The dialog openers the screen shows now: each verb once per region (the first row's 编辑, the toolbar's 新增). */
function openersOf(p: Page, extra: string[]): Promise<Opener[]> {
  return p.evaluate(
    ({ verbs, extra, never }) => {
      const root = document.querySelector('#main-content') ?? document.body;
      const neverRe = new RegExp(never);
      const regions: Element[] = [];
      const seen = new Set<string>();
      const out: Opener[] = [];
      root.querySelectorAll('[data-walk-opener]').forEach((el) => el.removeAttribute('data-walk-opener'));
      root.querySelectorAll<HTMLElement>('button, a[href]').forEach((el) => {
        if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') return;
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height) return;
        const name = (el.getAttribute('aria-label') || el.textContent || '').trim();
        const link = el.tagName === 'A';
        const verb = extra.find((v) => v === name) ?? (neverRe.test(name) ? undefined : verbs.find((v) => name.startsWith(v)));
        if (!verb || (link && verb !== '详情')) return;
        const region = el.closest('table, [data-testid="list-toolbar"], .MuiPaper-root') ?? root;
        if (!regions.includes(region)) regions.push(region);
        const key = `${regions.indexOf(region)}|${verb}`;
        if (seen.has(key)) return;
        seen.add(key);
        el.setAttribute('data-walk-opener', String(out.length));
        out.push({ mark: out.length, name, key, link });
      });
      return out;
    },
    { verbs: DIALOG_VERBS, extra, never: NEVER.source },
  );
}

const counts = { roles: 0, screens: 0, dialogs: 0, drawers: 0 };
/** dialogs opened per screen route, over every role */
const dialogsOf = new Map<string, Set<string>>();
const walkedRoles: string[] = [];
const SHOTS = new Set(['one_user 编辑', 'one_staff 编辑', 'one_staff 调岗', 'one_roles 编辑']);

interface Walker {
  username: string;
  password: string;
  keys: string[];
  /**
   * also the app bar's drawers and the screens outside the menus (the demo roles: what these
   * read depends on the member, not on a screen's keys, so the single-screen roles skip them)
   */
  everything?: boolean;
}

/**
 * Signs in as `who` and opens every screen of its sidebar and the dialogs each offers;
 * answers the screens walked and the problems seen (refused API answers, jumps to #/401,
 * dialog buttons that open nothing).
 */
async function walk(who: Walker, laneIndex = 0): Promise<{ screens: Screen[]; problems: string[] }> {
  const token = await loginAs(product.app, who.username, who.password);
  const build = await api(product, token, 'GET', '/api/menus/build');
  expect(build.status).toBe(200);
  const screens = screensOf(build.json<MenuNode[]>());

  const lane = await laneOf(laneIndex);
  const p = lane.page;
  page = p;
  const { refused, settle } = lane.watcher;
  // nothing of the last role stays: its token, its open tabs and remembered filters
  if (p.url().startsWith(product.url)) await p.evaluate(() => (localStorage.clear(), sessionStorage.clear()));
  await lane.context.clearCookies();
  await lane.context.addCookies([{ name: 'Admin-Token', value: encodeURIComponent(token), url: product.url }]);
  // a new document per role: the console starts with this role's token and nothing of the last
  await p.goto(`${product.url}/?as=${encodeURIComponent(who.username)}#/dashboard`);
  await settle();
  refused.splice(0);
  const problems: string[] = [];
  const check = (where: string) => {
    if (p.url().includes('#/401')) problems.push(`${where}: jumped to #/401`);
    for (const r of refused.splice(0)) problems.push(`${where}: ${r}`);
  };
  const closeDialog = async (where: string) => {
    const dialog = p.getByRole('dialog');
    await p.keyboard.press('Escape');
    try {
      await dialog.first().waitFor({ state: 'detached', timeout: 2000 });
    } catch {
      const close = dialog.last().getByRole('button', { name: /^(取消|关闭)$/ });
      if (await close.count()) await close.first().click();
      await dialog
        .first()
        .waitFor({ state: 'detached', timeout: 3000 })
        .catch(() => problems.push(`${where}: the dialog did not close`));
    }
  };
  // the app bar's message and chat drawers, open on every screen
  for (const drawer of who.everything ? APP_BAR_DRAWERS : []) {
    // named with the count it shows, when it shows one (系统消息：未读消息3条)
    await p.getByRole('button', { name: new RegExp(`^${drawer.button}(：|$)`) }).click();
    const region = p.getByRole('region', { name: drawer.region, exact: true });
    await region.waitFor();
    await settle();
    check(`${drawer.button}`);
    await p.keyboard.press('Escape');
    await region.waitFor({ state: 'detached' });
    counts.drawers++;
  }
  const open = async (screen: Screen) => {
    await p.evaluate((route) => (window.location.hash = route), screen.route);
    await settle();
    // the screen's code and first answers have arrived once nothing in it shows progress
    await p
      .locator('#main-content [role="progressbar"]')
      .first()
      .waitFor({ state: 'detached', timeout: 8000 })
      .catch(() => undefined);
    await settle();
  };

  for (const screen of [...screens, ...(who.everything ? OPEN_SCREENS : [])]) {
    const where = `${screen.title} (${screen.route})`;
    await open(screen);
    check(where);
    counts.screens++;
    if (p.url().includes('#/401')) continue;
    const spec = resourceByName[screen.route.slice(1)];
    const hint = SCREEN_HINTS[screen.route] ?? {};
    const main = p.locator('#main-content');
    if (spec) {
      // a resource screen: its list has answered and drawn before the dialogs are looked for
      await main.getByTestId('list-toolbar').waitFor();
      await settle();
    }
    const opened = new Set<string>();
    const seen = dialogsOf.get(screen.route) ?? new Set<string>();
    dialogsOf.set(screen.route, seen);
    const record = async (label: string) => {
      check(`${where} ${label}`);
      opened.add(label);
      seen.add(label);
      counts.dialogs++;
      if (SHOTS.has(`${who.username} ${label}`)) await shot(p, `role-screens-${who.username}-${label}`, { fullPage: false });
      if (who.username === 'hr01' && screen.route === '/staff' && label === '编辑')
        await shot(p, 'role-screens-hr01-staff-edit', { fullPage: false });
    };

    if (hint.rowClick) {
      const cell = main.locator('tbody tr').first().locator('td').first();
      // a hand-written list (no list toolbar waited for above) may still be loading its rows
      await cell.waitFor({ timeout: 10_000 }).catch(() => undefined);
      if (await cell.count()) {
        await cell.click();
        if (hint.rowClick === 'dialog') {
          await p.getByRole('dialog').first().waitFor();
          await settle();
          await record('行详情');
          await closeDialog(where);
        } else {
          await settle();
          check(`${where} 选中第一行`);
        }
      }
    }

    const done = new Set<string>();
    if (!hint.none && !(await openersOf(p, hint.buttons ?? [])).length) {
      // a screen without any opener yet may still be drawing: look again for a while
      for (let i = 0; i < 20 && !(await openersOf(p, hint.buttons ?? [])).length; i++) await p.waitForTimeout(100);
      await settle();
    }
    const lost = new Set<string>();
    for (let n = 0; n < 16; n++) {
      const next = (await openersOf(p, hint.buttons ?? [])).find((o) => !done.has(o.key));
      if (!next) break;
      const before = p.url();
      let shown = await p
        .locator(`[data-walk-opener="${next.mark}"]`)
        .click({ timeout: 5000 })
        .then(() =>
          next.link
            ? p.waitForURL((u) => u.toString() !== before, { waitUntil: 'commit', timeout: 5000 })
            : p.getByRole('dialog').first().waitFor({ timeout: 5000 }),
        )
        .then(() => true)
        .catch(() => false);
      // a dialog slower than the wait still counts
      if (!shown && !next.link) shown = (await p.getByRole('dialog').count()) > 0;
      if (!shown && !lost.has(next.key)) {
        // a click that lands while the screen redraws is lost: the screen is scanned again for one more try
        lost.add(next.key);
        await settle();
        continue;
      }
      done.add(next.key);
      if (!shown) {
        problems.push(`${where}: ${next.name} opened ${next.link ? 'no page' : 'no dialog'}`);
        check(`${where} ${next.name}`);
        continue;
      }
      if (next.link) {
        // 详情: the record's own page, then back to the list
        await settle();
        await record(next.name);
        await open(screen);
        check(where);
        continue;
      }
      await settle();
      await record(next.name);
      await closeDialog(`${where} ${next.name}`);
    }

    // a resource screen offers its add and its first row's edit or view dialog to the keys that allow them
    if (spec) {
      const holds = (action: string) => who.keys.includes(`${spec.permission}:${action}`);
      if (holds('add') && !opened.has('新增')) problems.push(`${where}: 新增 was not offered to the add key`);
      const rows = holds('edit')
        ? (await api(product, token, 'GET', `/${spec.path}?page=0&size=1`)).json<{ totalElements?: number }>()
        : {};
      if ((rows.totalElements ?? 0) > 0 && !['编辑', '查看', '详情'].some((v) => opened.has(v))) {
        problems.push(`${where}: the first row offered the edit key neither 编辑, 查看 nor 详情`);
      }
    }
  }
  counts.roles++;
  console.log(`${who.username}: ${screens.length} screens (${screens.map((s) => s.title).join('、')})`);
  return { screens, problems };
}

describe.each(DEMO_ROLES.map((r) => [r.role, r] as const))('screens of the demo role %s', (_role, demo) => {
  it(`${demo.username} opens every screen of its menus and their dialogs without a 401/403`, async () => {
    const { screens, problems } = await walk({ ...demo, password: DEMO_PASSWORD, everything: true });
    expect(screens.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('a role made from each single screen of the menu tree', () => {
  it('opens its screen and every dialog it offers without a 401/403', async () => {
    const problems: string[] = [];
    const withKeys = (await menuScreens(product)).filter((s) => s.keys.length > 0);
    expect(withKeys.length).toBeGreaterThan(40);
    for (const screen of withKeys) {
      const username = `one_${screen.keys[0].split(':')[0]}`.slice(0, 30);
      await createStaff(product.app, { username, password: 'Screen@2024', permissions: screen.keys, dataScope: '全部' });
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        while (next < withKeys.length) {
          const screen = withKeys[next++];
          const username = `one_${screen.keys[0].split(':')[0]}`.slice(0, 30);
          const walked = await walk({ username, password: 'Screen@2024', keys: screen.keys }, lane);
          if (!walked.screens.some((s) => s.route === screen.route))
            problems.push(`${username}: the sidebar does not show ${screen.title}`);
          problems.push(...walked.problems.map((x) => `${username}: ${x}`));
          walkedRoles.push(username);
        }
      }),
    );
    expect(problems).toEqual([]);
  }, 600_000);
});

describe('coverage', () => {
  it('every screen of the menu tree had its dialogs opened, or says why it has none', async () => {
    const screens = await menuScreens(product);
    const lines = screens.map((s) => `${s.title} ${[...(dialogsOf.get(s.route) ?? [])].join('/') || '—'}`);
    console.log(
      `role screens: ${counts.roles} roles (${DEMO_ROLES.length} demo roles, ${walkedRoles.length} single-screen roles), ${counts.screens} screens, ${counts.dialogs} dialogs and ${counts.drawers} app-bar drawers opened; ${screens.length} screens in the menu tree: ${lines.join('; ')}` +
        (unseeded.length ? `; lists left without a row: ${unseeded.join(', ')}` : ''),
    );
    const silent = screens
      .filter((s) => !dialogsOf.get(s.route)?.size && !SCREEN_HINTS[s.route]?.none)
      .map((s) => `${s.title} (${s.route})`);
    expect(silent, 'screens where no dialog was opened and SCREEN_HINTS gives no reason').toEqual([]);
    const stale = screens.filter((s) => dialogsOf.get(s.route)?.size && SCREEN_HINTS[s.route]?.none).map((s) => s.route);
    expect(stale, 'screens SCREEN_HINTS says have no dialog, where one opened').toEqual([]);
    for (const route of Object.keys(SCREEN_HINTS))
      expect(
        screens.map((s) => s.route),
        `a hint for a screen the menus lack`,
      ).toContain(route);
    expect(walkedRoles.length).toBe(screens.filter((s) => s.keys.length > 0).length);
    // every list had a row, so its edit and view dialogs were there to open
    expect(unseeded).toEqual([]);
  });
});
