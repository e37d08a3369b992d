/**
 * The user guide (docs/用户手册) read as its readers would. For each staff role's page the test
 * signs in with the demo account the page names, and for each part of the page that names a screen
 * (「目录 → 页面」, a sibling 「页面」 on the same line, or a bullet `- **页面**：`) it opens that screen
 * from the sidebar and looks for every 「label」 the part names: on the screen (text, button and
 * icon names, titles, placeholders), in the dialog of a 「新增」 or 「编辑」 the part names, or as
 * another screen of the role's sidebar. The page's first line is checked against the account: its
 * role, department and data scope. A label the guide names that the product does not have fails
 * the test, a renamed one too; the few labels that are values of a row rather than labels of the
 * screen are listed in VALUES with where they show. Nothing is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, api, launchBrowser, newPage, shotOnFailure, signInAs, startProduct, tokenOf, type Product } from './support.ts';
import { demoAccounts, guideText, QUOTE, sidebarTitles, textsOf } from './guide-reader.ts';

/** The staff pages: each names a demo account and the screens of its role. */
const PAGES = ['管理员.md', '人事.md', '客服.md', '销售.md'];

/** Labels the guide quotes that are values a row holds, not labels of a screen: where each shows. */
const VALUES: Record<string, string> = {
  已处理: 'a 状态 of 问题反馈, offered when the cell is clicked',
  否: 'the 主线索 column of a secondary lead',
  主线索: 'a column of 潜客档案 (checked on the screen when it has one)',
  全部: 'a data scope (checked against the account)',
  本级: 'a data scope (checked against the account)',
  自定义: 'a data scope, offered in the role dialog',
  基础数据: 'a directory of the menu tree, offered in 上级类目',
  模块: 'a dictionary of 问题反馈, listed in 字典管理',
  我要应聘: 'the applicant page (应聘者.md, not a staff screen)',
  查看完整个人信息: 'a button key in 菜单分配 (the role screen lists it when a role is picked)',
};

/** Screens whose rows are picked to show more beside the list (the role's menus and its 保存). */
const PICK_A_ROW = new Set(['角色管理', '字典管理']);
/** Buttons whose dialogs hold labels the guide names (the fields to fill, the recycle bin's 恢复). */
const DIALOG_BUTTONS = ['新增', '回收站'];

/**
 * How long a screen or dialog is given to show the labels still looked for. Some of them are in a
 * dialog, not on the list, so a screen is left after this even when one is missing: the dialogs
 * are tried next, and a label found nowhere fails the test.
 */
const SCREEN_WAIT = { timeout: 5000, interval: 250 };

interface Section {
  /** the screens it names: [directory, screen] or [undefined, screen] for a bullet */
  screens: Array<[string | undefined, string]>;
  labels: string[];
  line: number;
  /** a bullet `- **名称**：`: a screen when the sidebar has one of that name, else a label of the part before it (or of the page's first screen) */
  bullet?: boolean;
  /** the heading it is under */
  heading: string;
}

interface GuidePage {
  file: string;
  username: string;
  password: string;
  /** 角色「X」，所属部门「Y」，数据范围「Z」 of the first lines, when the page names them */
  role?: string;
  dept?: string;
  scope?: string;
  sections: Section[];
}

const PATH = /「([^」→]+?)\s*→\s*([^」]+?)」/g;

/** A guide page read into the screens it names and the labels each part quotes. */
function readPage(file: string): GuidePage {
  const text = guideText(file);
  const account = demoAccounts(text);
  if (!account) throw new Error(`${file} names no demo account`);
  const facts = /角色「([^」]+)」，所属部门「([^」]+)」，数据范围「([^」]+)」/.exec(text);
  const sections: Section[] = [];
  let current: Section | undefined;
  let heading = '';
  text.split('\n').forEach((line, i) => {
    if (line.startsWith('#')) {
      current = undefined;
      heading = line;
      return;
    }
    const paths = [...line.matchAll(PATH)];
    const bullet = /^- \*\*([^*]+)\*\*：/.exec(line);
    if (paths.length) {
      const dir = paths[0][1];
      const screens: Array<[string | undefined, string]> = paths.map((p) => [p[1], p[2]]);
      // 「目录 → 页面」和「页面」: a sibling screen of the same directory
      for (const sibling of line.matchAll(/」和「([^」→]+)」/g)) screens.push([dir, sibling[1]]);
      current = { screens, labels: [], line: i + 1, heading };
      sections.push(current);
    } else if (bullet) {
      const screens = bullet[1].split(' / ').map((s) => [undefined, s.trim()] as [undefined, string]);
      current = { screens, labels: [], line: i + 1, bullet: true, heading };
      sections.push(current);
    }
    if (!current) return;
    const named = new Set(current.screens.map((s) => s[1]));
    for (const q of line.matchAll(QUOTE)) {
      const label = q[1];
      if (label.includes('→') || named.has(label)) continue;
      if (!current.labels.includes(label)) current.labels.push(label);
    }
  });
  return {
    file,
    username: account.usernames[0],
    password: account.password,
    role: facts?.[1],
    dept: facts?.[2],
    scope: facts?.[3],
    sections,
  };
}

/**
 * The parts as the role reads them: a bullet that names no screen of its sidebar (编辑, 数据范围,
 * 历史记录 ...) describes the screen of the part before it under the same heading, or, under a
 * heading of its own, the page's first screen; its name becomes one of that part's labels.
 */
function partsFor(sections: Section[], titles: Set<string>): Section[] {
  const parts: Section[] = [];
  for (const s of sections) {
    if (!s.bullet || s.screens.some(([, t]) => titles.has(t))) {
      parts.push({ ...s, labels: [...s.labels] });
      continue;
    }
    const before = parts.length && parts[parts.length - 1].heading === s.heading ? parts[parts.length - 1] : undefined;
    const into = before ?? { ...(parts.find((p) => !p.bullet) ?? s), labels: [], line: s.line, heading: s.heading };
    if (!before) parts.push(into);
    for (const l of [...s.screens.map(([, t]) => t), ...s.labels]) if (!into.labels.includes(l)) into.labels.push(l);
  }
  return parts;
}

/** Opens a screen from the sidebar, unfolding its directory first when it is folded. */
async function openScreen(page: Page, dir: string | undefined, title: string): Promise<void> {
  const sidebar = page.locator('.RaSidebar-fixed');
  const item = sidebar.getByRole('menuitem', { name: title, exact: true });
  if (!(await item.isVisible()) && dir) {
    const folder = sidebar.getByRole('menuitem', { name: dir, exact: true });
    if ((await folder.getAttribute('aria-expanded')) === 'false') await folder.click();
  }
  if (!(await item.isVisible())) {
    // a bullet names no directory: unfold each folded one until the screen shows
    const folded = sidebar.locator('[aria-expanded="false"]');
    for (let i = 0; i < 12 && !(await item.isVisible()) && (await folded.count()) > 0; i++) await folded.first().click();
  }
  await item.click();
  await page.locator('main').first().waitFor();
}

let product: Product;
let browser: Browser;
let adminToken: string;
const pages = PAGES.map(readPage);

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: true });
  browser = await launchBrowser();
  const page = await newPage(browser);
  await signInAs(page, product, ADMIN);
  adminToken = await tokenOf(page);
  await page.context().close();
  // what the admin page shows on rows that exist only after some use: a backup (下载, 恢复) and a paused job (恢复)
  expect((await api(product, adminToken, 'POST', '/api/backups')).status).toBeLessThan(300);
  // the backup runs as a task: wait until the list shows it (ten seconds at most)
  for (const deadline = Date.now() + 10_000; !/"name":"[^"]+"/.test((await api(product, adminToken, 'GET', '/api/backups')).body);) {
    if (Date.now() > deadline) throw new Error('the backup did not show in the list within ten seconds');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const jobs = (await api(product, adminToken, 'GET', '/api/dj?page=0&size=1')).json<{ content: Array<{ id: number }> }>();
  expect((await api(product, adminToken, 'PUT', `/api/jobs/${jobs.content[0].id}`)).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('the user guide', () => {
  it('names screens and labels on every staff page (the reading below is not empty)', () => {
    for (const p of pages) expect(p.sections.length, p.file).toBeGreaterThan(0);
    const labels = pages.reduce((n, p) => n + p.sections.reduce((m, s) => m + s.labels.length, 0), 0);
    expect(labels).toBeGreaterThan(30);
  });

  describe.each(pages.map((p) => [p.file, p] as const))('%s, followed as its demo account', (file, guide) => {
    it('its account exists, with the role, department and data scope the page says (where it says them)', async () => {
      const res = await api(product, adminToken, 'GET', `/api/users?blurry=${guide.username}&page=0&size=5`);
      const user = res
        .json<{
          content: Array<{ username: string; dept?: { name?: string }; roles?: Array<{ name: string; dataScope?: string }> }>;
        }>()
        .content.find((u) => u.username === guide.username);
      expect(user, `${file}: no user ${guide.username}`).toBeDefined();
      if (!guide.role) return;
      expect(user?.dept?.name, `${file}: 所属部门`).toBe(guide.dept);
      expect(
        user?.roles?.map((r) => r.name),
        `${file}: 角色`,
      ).toContain(guide.role);
      expect(user?.roles?.find((r) => r.name === guide.role)?.dataScope, `${file}: 数据范围`).toBe(guide.scope);
    });

    it('every screen it names opens from the sidebar and shows every label it names', { timeout: 300_000 }, async (ctx) => {
      const page = await newPage(browser);
      try {
        await signInAs(page, product, { username: guide.username, password: guide.password });
        const titles = await sidebarTitles(product, await tokenOf(page));
        const missing: string[] = [];
        for (const section of partsFor(guide.sections, titles)) {
          const where = `${file}:${section.line}`;
          const open = section.screens.filter(([, s]) => titles.has(s));
          for (const [dir, s] of section.screens)
            if (!titles.has(s)) missing.push(`${where} 「${dir ? `${dir} → ` : ''}${s}」 is not in the sidebar of ${guide.username}`);
          if (!open.length) continue;
          let seen = '';
          for (const [dir, s] of open) {
            await openScreen(page, dir, s);
            // the screen's list and look-ups arrive after it opens: wait until the labels show or ten seconds pass
            const wanted = section.labels.filter((l) => !(l in VALUES) && !titles.has(l));
            await expect
              .poll(async () => {
                seen += `\n${await textsOf(page)}`;
                return wanted.every((l) => seen.includes(l));
              }, SCREEN_WAIT)
              .toBe(true)
              .catch(() => undefined);
          }
          // labels not on the list itself: a picked row's detail beside the list, then the dialogs the part's screen offers
          const unseen = () => section.labels.some((l) => !(seen.includes(l) || l in VALUES || titles.has(l)));
          if (unseen() && open.some(([, t]) => PICK_A_ROW.has(t))) {
            await page.locator('main tbody tr').first().click();
            await expect
              .poll(async () => ((seen += `\n${await textsOf(page)}`), unseen()), SCREEN_WAIT)
              .toBe(false)
              .catch(() => undefined);
          }
          for (const opener of DIALOG_BUTTONS) {
            if (!unseen()) break;
            const button = page.getByRole('button', { name: opener, exact: true }).first();
            if (!(await button.isVisible())) continue;
            await button.click();
            const dialog = page.getByRole('dialog').last();
            await dialog.waitFor();
            await expect
              .poll(async () => ((seen += `\n${await textsOf(page)}`), unseen()), SCREEN_WAIT)
              .toBe(false)
              .catch(() => undefined);
            await page.keyboard.press('Escape');
            await dialog.waitFor({ state: 'detached' });
          }
          for (const l of section.labels) {
            if (l in VALUES || titles.has(l) || seen.includes(l)) continue;
            missing.push(`${where} 「${l}」 is not on ${open.map(([, s]) => s).join('、')} for ${guide.username}`);
          }
        }
        expect(missing, missing.join('\n')).toEqual([]);
      } catch (err) {
        await shotOnFailure(page, `guide-${guide.username}-${ctx.task.name}`);
        throw err;
      } finally {
        await page.context().close();
      }
    });
  });
});
