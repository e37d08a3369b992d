/**
 * Reading the user guide (docs/用户手册) as the browser tests of the guide do (guide.test.ts for
 * the staff pages, guide-portals.test.ts for the dealer portal and the applicant pages): the
 * page's text, its demo accounts, its `##` sections with the 「labels」 each quotes, and what a
 * reader meets on a screen (every text, button and icon name, title and placeholder).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { api, type Product } from './support.ts';

export const GUIDE = join(import.meta.dirname, '../../docs/用户手册');
/** a quoted label: 「新增」 */
export const QUOTE = /「([^」]+)」/g;

/** The text of a guide page (a file name under docs/用户手册). */
export function guideText(file: string): string {
  return readFileSync(join(GUIDE, file), 'utf8');
}

/** The demo accounts a page names (演示账号：**a** 或 **b**，密码 **p**), or undefined. */
export function demoAccounts(text: string): { usernames: string[]; password: string } | undefined {
  const m = /演示账号：((?:\*\*\w+\*\*(?: 或 )?)+)，(?:初始)?密码 \*\*([^*]+)\*\*/.exec(text);
  if (!m) return undefined;
  return { usernames: [...m[1].matchAll(/\*\*(\w+)\*\*/g)].map((u) => u[1]), password: m[2] };
}

/** One `##` section of a guide page. */
export interface GuideSection {
  heading: string;
  /** the line of the heading (1-based) */
  line: number;
  /** the section's lines joined (a sentence may run over a line break) */
  text: string;
  /** the quoted 「labels」 in the order they come, each once */
  labels: string[];
  /** the labels the page says the product does not have: 没有「X」 */
  absent: string[];
  /** the screen the section opens from the sidebar: 左侧「X」 */
  screen?: string;
  /** a path the section opens: 打开 `/#/...` */
  path?: string;
}

/** The `##` sections of a guide page, with their labels (the text before the first is left out). */
export function guideSections(file: string): GuideSection[] {
  const sections: Array<GuideSection & { lines: string[] }> = [];
  let current: (typeof sections)[number] | undefined;
  guideText(file)
    .split('\n')
    .forEach((line, i) => {
      const heading = /^##\s+(.+)$/.exec(line);
      if (heading) {
        current = { heading: heading[1].trim(), line: i + 1, text: '', labels: [], absent: [], lines: [] };
        sections.push(current);
        return;
      }
      if (!current || line.startsWith('#') || line.startsWith('![')) return;
      current.lines.push(line);
    });
  return sections.map(({ lines, ...s }) => {
    const text = lines.join('');
    for (const q of text.matchAll(QUOTE)) {
      const label = q[1];
      if (text.slice(0, q.index).endsWith('没有')) {
        if (!s.absent.includes(label)) s.absent.push(label);
      } else if (!s.labels.includes(label)) s.labels.push(label);
    }
    return { ...s, text, screen: /左侧「([^」]+)」/.exec(text)?.[1], path: /打开 `([^`]+)`/.exec(text)?.[1] };
  });
}

/** Every text a reader can meet on the page as it is: visible text, names of buttons and icons, titles, placeholders. */
export async function textsOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.body.innerText];
    for (const el of Array.from(document.querySelectorAll('[aria-label],[title],[placeholder]'))) {
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
    }
    return parts.join('\n');
  });
}

/** The menu items of a staff member's sidebar (from their own GET /api/menus/build). */
export async function sidebarTitles(product: Product, token: string): Promise<Set<string>> {
  const res = await api(product, token, 'GET', '/api/menus/build');
  const titles = new Set<string>();
  const walk = (items: Array<{ meta?: { title?: string }; children?: unknown[] }>) => {
    for (const m of items) {
      if (m.meta?.title) titles.add(m.meta.title);
      if (Array.isArray(m.children)) walk(m.children as typeof items);
    }
  };
  walk(res.json<Parameters<typeof walk>[0]>());
  return titles;
}
