/**
 * Takes the screenshots of the README and the user guide (docs/用户手册/) from the running
 * product, so they can be refreshed after a screen changes:
 *
 *   npx vite build --logLevel warn        # the web app the product serves (once per change)
 *   npx tsx scripts/docs-screenshots.ts   # writes docs/images/ and docs/用户手册/images/
 *   npx tsx scripts/docs-screenshots.ts 问题反馈   # only the shots whose name or title contains this
 *   npx tsx scripts/docs-screenshots.ts --check   # compares the screens with the PNG files, writes none
 *
 * `--check` (and tests/e2e/guide-screenshots.test.ts, through takeShots) takes the same pictures
 * into a temporary folder and compares each with its file (screenshot-diff.ts): a picture that
 * differs beyond the tolerance is a guide picture that no longer shows its screen.
 *
 * It starts the product as `npm start` does with the demo data (a fresh SQLite data directory,
 * the captcha on: the answer is read from the product's own captcha table, as a person reads
 * the image), drives headless Chromium (playwright-core; CHROMIUM_PATH, default
 * /usr/bin/chromium) through each role's screens at 1280x800 (the applicant's on a 390 px
 * phone), and overwrites the PNG files. The pages of the guide name each file.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { animationsDone, launchBrowser, pending, startProduct, VIEWPORT, type Product } from '../tests/e2e/support.ts';
import { latestOutbox } from '../src/server/providers/outbox.ts';
import { comparePictures, type Box, type PictureDiff } from './screenshot-diff.ts';

const GUIDE_IMAGES = resolve('docs/用户手册/images');
const README_IMAGES = resolve('docs/images');

interface Shot {
  /** file name under the guide's images (or the README's, with `readme`) */
  file: string;
  title: string;
  readme?: boolean;
  /** brings the screen to the state pictured */
  take: (page: Page) => Promise<void>;
  /** the window only (a dialog, the top of a long form), not the whole page */
  windowOnly?: boolean;
  /** after the picture (closing a dialog) */
  after?: (page: Page) => Promise<void>;
}

interface Role {
  name: string;
  /** the sign-in this role's shots start from; none for the public applicant pages */
  signIn?: (page: Page) => Promise<void>;
  phone?: boolean;
  shots: Shot[];
}

let product: Product;

/** The answer of the captcha the page shows, from the product's own table. */
async function captchaAnswer(uuid: string): Promise<string> {
  const row = await product.app.database.db.selectFrom('sys_captcha').select('answer').where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return String(row.answer);
}

/** Opens the staff sign-in page and waits for its captcha; answers the captcha's uuid. */
async function openStaffLogin(page: Page): Promise<string> {
  await page.goto('about:blank'); // a fresh load, also when the sign-in page is already open
  const code = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/code'));
  await page.goto(`${product.url}/#/login`);
  const { uuid } = (await (await code).json()) as { uuid: string };
  await page
    .getByRole('img', { name: /验证码/ })
    .or(page.locator('img[src^="data:image/svg"]'))
    .first()
    .waitFor();
  return uuid;
}

async function staffSignIn(page: Page, username: string, password: string): Promise<void> {
  const uuid = await openStaffLogin(page);
  await page.getByRole('textbox', { name: '账号' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('textbox', { name: '验证码' }).fill(await captchaAnswer(uuid));
  const login = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/login'));
  await page.getByRole('button', { name: '登 录', exact: true }).click();
  const answer = await login;
  if (answer.status() !== 200) throw new Error(`sign-in of ${username}: ${answer.status()} ${await answer.text()}`);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  const body = (await answer.json()) as { user?: { defPassword?: boolean } };
  if (body.user?.defPassword) {
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  await page.locator('.RaSidebar-fixed').getByRole('menuitem', { name: '首页' }).waitFor();
}

/** Opens a screen from the sidebar (unfolding its directory) and waits for its answers. */
async function openScreen(page: Page, menuTitle: string): Promise<void> {
  const first = pending(page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/') && r.request().method() === 'GET'));
  const item = page.locator('.RaSidebar-fixed').getByRole('menuitem', { name: menuTitle, exact: true });
  const tried = new Set<string>();
  for (let tries = 0; tries < 10 && !(await item.isVisible()); tries++) {
    const folded = page.locator('.RaSidebar-fixed [aria-expanded="false"]');
    let next = -1;
    for (let i = 0; i < (await folded.count()); i++) {
      const text = (await folded.nth(i).innerText()).trim();
      if (!tried.has(text)) {
        tried.add(text);
        next = i;
        break;
      }
    }
    if (next < 0) break;
    await folded.nth(next).click();
  }
  await item.click();
  const answer = await first;
  if (answer.status() !== 200) throw new Error(`${menuTitle}: GET ${new URL(answer.url()).pathname} answered ${answer.status()}`);
  // the sidebar scrolled to the item as far as it got: put it in one place, the same every run
  await item.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await settle(page);
}

/** Lets the screen finish drawing (fonts, progress bars, transitions) before the picture. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // a list or a tree still loading shows a progress bar, and a list's rows come after its answer:
  // on a loaded machine a picture taken at a fixed pause showed 员工花名册 without its rows
  await page
    .locator('[role="progressbar"]')
    .first()
    .waitFor({ state: 'hidden', timeout: SETTLE_WAIT })
    .catch(() => undefined);
  const table = page.locator('main table').first();
  if (await table.isVisible()) {
    await table
      .locator('tbody tr')
      .first()
      .waitFor({ timeout: SETTLE_WAIT })
      .catch(() => undefined);
  }
  await page.evaluate(() => document.fonts.ready);
  await animationsDone(page);
  // the frame after the last change is painted
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** How long a screen is given to finish loading before its picture is taken anyway (and then differs). */
const SETTLE_WAIT = 30_000;

async function openDialog(page: Page, button: string, title: RegExp | string): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).first().click();
  await page.getByRole('dialog', { name: title }).waitFor();
  await settle(page);
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

const screen = (file: string, menu: string, extra?: (page: Page) => Promise<void>): Shot => ({
  file,
  title: menu,
  take: async (page) => {
    await openScreen(page, menu);
    if (extra) await extra(page);
  },
});

const addDialog = (file: string, title: string): Shot => ({
  file,
  title,
  windowOnly: true,
  take: (page) => openDialog(page, '新增', /新增/),
  after: closeDialog,
});

const ROLES: Role[] = [
  {
    name: '管理员',
    shots: [
      {
        file: 'staff-login.png',
        title: '管理后台登录页',
        take: async (page) => {
          await openStaffLogin(page);
          await page.getByRole('textbox', { name: '账号' }).fill('admin');
          await settle(page);
        },
      },
      {
        file: 'console.png',
        title: 'README: 问题反馈 in the console',
        readme: true,
        windowOnly: true,
        take: async (page) => {
          await staffSignIn(page, 'admin', 'Admin@123456');
          await openScreen(page, '问题反馈');
        },
      },
      {
        file: 'admin-home.png',
        title: '首页',
        take: async (page) => {
          await page.locator('.RaSidebar-fixed').getByRole('menuitem', { name: '首页' }).click();
          // the charts are a part of their own, loaded after the page: all three drawn
          await page.locator('[data-testid^="chart-"] svg').nth(2).waitFor();
          await settle(page);
        },
      },
      screen('admin-users.png', '用户管理'),
      screen('admin-roles.png', '角色管理', async (page) => {
        await page.getByRole('cell', { name: '客服', exact: true }).first().click();
        await page.getByText('菜单分配：客服').waitFor();
        await settle(page);
      }),
      screen('admin-menus.png', '菜单管理'),
      screen('admin-depts.png', '部门管理'),
      screen('admin-outbox.png', '发件箱'),
    ],
  },
  {
    name: '人事',
    signIn: (page) => staffSignIn(page, 'hr01', 'Demo@123456'),
    shots: [
      screen('hr-roster.png', '员工花名册'),
      screen('hr-applicants.png', '应聘人员信息'),
      screen('hr-postings.png', '人事招聘信息'),
      addDialog('hr-posting-add.png', '人事招聘信息：新增'),
    ],
  },
  {
    name: '销售',
    signIn: (page) => staffSignIn(page, 'sales01', 'Demo@123456'),
    shots: [
      screen('sales-leads.png', '潜客档案'),
      addDialog('sales-lead-add.png', '潜客档案：新增'),
      screen('sales-profit.png', '利润数据明细'),
    ],
  },
  {
    name: '客服',
    signIn: (page) => staffSignIn(page, 'kf01', 'Demo@123456'),
    shots: [
      screen('service-feedback.png', '问题反馈'),
      addDialog('service-feedback-add.png', '问题反馈：新增'),
      screen('service-messages.png', '系统消息推送'),
    ],
  },
  {
    name: '经销商',
    shots: [
      {
        file: 'dealer-login.png',
        title: '经销商登录页',
        take: async (page) => {
          await page.goto(`${product.url}/#/jxsLogin`);
          await page.getByText('经销商登录').first().waitFor();
          await page.getByRole('textbox', { name: '账号' }).fill('jxs001');
          await settle(page);
        },
      },
      {
        file: 'dealer-customers.png',
        title: '用车客户',
        take: async (page) => {
          await page.locator('input[type="password"]').fill('Jxs@123456');
          const login = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/auth/login'));
          await page.getByRole('button', { name: '登 录' }).click();
          if ((await login).status() !== 200) throw new Error('the dealer sign-in was refused');
          await page.getByTestId('customer-list').waitFor();
          await settle(page);
        },
      },
      {
        file: 'dealer-customer-add.png',
        title: '用车客户：新增',
        take: async (page) => {
          await page.getByRole('button', { name: '新增', exact: true }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel('手机号').fill('13800000001');
          // the customer reads the 客户授权 code to the dealer: here from the development outbox
          await dialog.getByRole('button', { name: '发送验证码' }).click();
          await dialog.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
          const sms = await latestOutbox(product.app.database.db, '13800000001');
          await dialog.getByLabel('验证码').fill(/(\d{6})/.exec(sms?.content ?? '')?.[1] ?? '');
          await dialog.getByRole('button', { name: '确定' }).click();
          await page.waitForFunction(() => {
            const input = [...document.querySelectorAll('[role="dialog"] input')].find((i) =>
              i.closest('div')?.textContent?.includes('姓名'),
            );
            return Boolean((input as HTMLInputElement | undefined)?.value);
          });
          await settle(page);
        },
        windowOnly: true,
        after: async (page) => {
          await page.getByRole('dialog').getByRole('button', { name: '关闭' }).click();
          await page.getByRole('dialog').waitFor({ state: 'detached' });
          await page.getByRole('cell', { name: '张伟' }).waitFor();
        },
      },
      {
        file: 'dealer-demand-form.png',
        title: '提交用车需求',
        windowOnly: true,
        take: async (page) => {
          await page.getByRole('row', { name: /张伟/ }).getByRole('button', { name: '提交用车需求' }).click();
          await page.getByRole('dialog').waitFor();
          await settle(page);
        },
        after: closeDialog,
      },
      {
        file: 'dealer-requests.png',
        title: '用车需求',
        take: async (page) => {
          await page
            .getByRole('button', { name: '用车需求' })
            .or(page.getByText('用车需求', { exact: true }))
            .first()
            .click();
          await settle(page);
        },
      },
    ],
  },
  {
    name: '应聘者',
    phone: true,
    shots: [
      {
        file: 'applicant-postings.png',
        title: '招聘信息列表',
        take: async (page) => {
          await page.goto(`${product.url}/#/staffun/list`);
          await page.getByRole('link', { name: /./ }).first().waitFor();
          await settle(page);
        },
      },
      {
        file: 'applicant-posting.png',
        title: '招聘详情',
        take: async (page) => {
          await page.getByRole('link', { name: /./ }).first().click();
          await page.getByRole('link', { name: '我要应聘' }).waitFor();
          await settle(page);
        },
      },
      {
        file: 'applicant-register.png',
        title: '应聘人员信息登记表',
        windowOnly: true,
        take: async (page) => {
          await page.getByRole('link', { name: '我要应聘' }).click();
          await page.getByRole('heading', { name: '应聘人员信息登记表' }).waitFor();
          await settle(page);
        },
      },
      {
        file: 'applicant-register-errors.png',
        title: '登记表：未填写时的提示',
        take: async (page) => {
          await page.getByRole('button', { name: '下一步' }).click();
          await page.getByText('姓名不能为空').waitFor();
          await settle(page);
        },
      },
    ],
  },
];

/** Where the pictures go: the docs' folders, or one folder when they are only compared. */
interface Target {
  guide: string;
  readme: string;
  /** when compared: per file, the parts of the picture that change with every run */
  changing?: Map<string, Box[]>;
}

/**
 * The parts of the screen that differ from run to run whatever the product does: the captcha
 * image and the texts holding a date (the demo rows are made at start, the home page's charts
 * end today: their ranges and day labels, 11-28), in the
 * picture's coordinates (the page's for a full-page picture, else the window's).
 */
async function changingParts(page: Page, fullPage: boolean): Promise<Box[]> {
  // plain source: the function is sent to the browser as it is written (no helpers of the build)
  return page.evaluate(`(() => {
    const dx = ${fullPage ? 'window.scrollX' : '0'};
    const dy = ${fullPage ? 'window.scrollY' : '0'};
    const elements = [...document.querySelectorAll('img[src^="data:image/svg"]')];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      if (/\\d{4}-\\d{2}-\\d{2}|^\\s*\\d{2}-\\d{2}\\s*$/.test(n.textContent || '') && n.parentElement) elements.push(n.parentElement);
    return elements
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width && r.height)
      .map((r) => ({ x: r.left + dx, y: r.top + dy, width: r.width, height: r.height }));
  })()`);
}

async function run(browser: Browser, role: Role, only: string | undefined, target: Target): Promise<string[]> {
  const context = await browser.newContext({
    viewport: role.phone ? { width: 390, height: 844 } : VIEWPORT,
    locale: 'zh-CN',
    reducedMotion: 'reduce',
    ...(role.phone ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const written: string[] = [];
  try {
    if (role.signIn) await role.signIn(page);
    for (const s of role.shots) {
      // a shot may depend on the one before (a dialog on a list): a filter keeps the steps, skips the pictures
      await s.take(page);
      const wanted = !only || s.file.includes(only) || s.title.includes(only) || role.name.includes(only);
      if (wanted) {
        const path = join(s.readme ? target.readme : target.guide, s.file);
        if (target.changing) target.changing.set(s.file, await changingParts(page, !s.windowOnly));
        await page.screenshot({ path, fullPage: !s.windowOnly });
        written.push(path);
      }
      if (s.after) await s.after(page);
    }
  } finally {
    await context.close();
  }
  return written;
}

/**
 * Starts the product with the demo data and takes every role's pictures into `target`
 * (the docs' folders by default); answers the files written.
 */
export async function takeShots(target: Target = { guide: GUIDE_IMAGES, readme: README_IMAGES }, only?: string): Promise<string[]> {
  if (!existsSync('dist/index.html')) throw new Error('no web build in dist/: run `npx vite build --logLevel warn` first');
  mkdirSync(target.guide, { recursive: true });
  mkdirSync(target.readme, { recursive: true });
  product = await startProduct({ captchaEnabled: true, seedDemo: true });
  const browser = await launchBrowser();
  const written: string[] = [];
  try {
    for (const role of ROLES) written.push(...(await run(browser, role, only, target)));
  } finally {
    await browser.close();
    await product.close();
  }
  return written;
}

/** Takes the pictures into a temporary folder and compares each with the docs' file of its name. */
export async function checkShots(only?: string): Promise<PictureDiff[]> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-shots-'));
  try {
    const target = { guide: join(dir, 'guide'), readme: join(dir, 'readme'), changing: new Map<string, Box[]>() };
    const taken = await takeShots(target, only);
    return taken.map((path) => {
      const docs = join(path.startsWith(target.readme) ? README_IMAGES : GUIDE_IMAGES, basename(path));
      return comparePictures(docs, path, target.changing.get(basename(path)) ?? []);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.find((a) => !a.startsWith('--'));
  if (args.includes('--check')) {
    const diffs = await checkShots(only);
    for (const d of diffs) console.log(`${d.ok ? 'same' : 'DIFFERS'}  ${d.name}: ${d.text}`);
    const bad = diffs.filter((d) => !d.ok).length;
    console.log(`${diffs.length} pictures compared, ${bad} differ from their screens`);
    if (bad) process.exitCode = 1;
    return;
  }
  for (const w of await takeShots(undefined, only)) console.log(w.replace(resolve('.') + '/', ''));
}

// run as a script (not when a test imports takeShots)
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
