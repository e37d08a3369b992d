/**
 * English a user can meet on a screen: the visible text and the title, aria-label, placeholder
 * and alt attributes of the page (dialogs, tooltips and menus included), outside the rows of data
 * (table body cells, input values: what users typed is theirs). A word of Latin letters counts
 * unless it is a code, a unit or a name the product keeps in Latin letters (ALLOWED).
 */
import type { Page } from 'playwright-core';

/** Codes, units, formats and names that stay in Latin letters in a Chinese interface. */
export const ALLOWED = [
  // words of the specification's own labels (bean名称, 事件KEY) and address schemes
  'bean',
  'KEY',
  'http',
  'https',
  // identifiers and formats users know by these letters
  'ID',
  'VIN',
  'OCR',
  'URL',
  'IP',
  'API',
  'Excel',
  'xlsx',
  'PDF',
  'SMS',
  'Logo',
  'logo',
  'QQ',
  'APP',
  'App',
  'cron',
  'Cron',
  'Bean',
  'HTML',
  'HTTP',
  'HTTPS',
  'JSON',
  'CSV',
  'WPS',
  'PNG',
  'JPG',
  'GB',
  'MB',
  'KB',
  'km',
  'px',
  'kg',
  'SUV',
  'MPV',
  'VIP',
  'GB/T',
  'IT',
  // vehicle classes and intent levels of the specification (A+, H/A/B/C/N)
  'A',
  'B',
  'C',
  'H',
  'N',
  'S',
  'X',
  // product and brand names
  'OpenAPI',
  'Swagger',
  'WeCom',
  'PostgreSQL',
  'SQLite',
  'Node',
  // the built-in administrator's account name (the specification's admin), shown where the account is named
  'admin',
  // the website filing number (豫ICP备…号) names its register so
  'ICP',
];

/** a date or time format as the specification writes it (yyyy-MM-dd HH:mm:ss), shown in empty date fields */
const DATE_FORMAT = /^(yyyy|MM|dd|HH|mm|ss)([-: ]?(yyyy|MM|dd|HH|mm|ss))*$/;

const allowed = new Set(ALLOWED);

/** The Latin words of a text that are not allowed (empty when the text is fine). */
export function latinWords(text: string): string[] {
  const words = text.match(/[A-Za-z][A-Za-z0-9+/._:-]*/g) ?? [];
  // a search box that takes pinyin shows an example of it (如 zw)
  const pinyinExample = text.includes('拼音');
  return words.filter((w) => {
    const bare = w.replace(/[._/:-]+$/, '');
    if (allowed.has(bare) || DATE_FORMAT.test(bare)) return false;
    if (pinyinExample && /^[a-z]{1,6}$/.test(bare)) return false;
    // a code: letters with digits (VIN parts, 1280px, 4000-), or capitals of a code (ABC123)
    if (/\d/.test(bare)) return false;
    // an identifier shown as an example of what to type: a path (system/user), a permission
    // (user:add), a file name (backup-encryption.key), an environment variable (BACKUP_KEY),
    // a name in code (purgeExpiredSessions, UserID)
    if (/[/:_]/.test(bare) || /^[\w-]+\.[a-z]{2,4}$/.test(bare) || /[a-z][A-Z]/.test(bare)) return false;
    return true;
  });
}

/** Each place on the page with English UI text: `where: text`. */
export async function latinOnPage(page: Page): Promise<string[]> {
  const found = await page.evaluate(() => {
    const out: Array<[string, string]> = [];
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return false;
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none';
    };
    const isData = (el: Element) => !!el.closest('tbody td, .MuiDataGrid-cell, [data-user-content], pre, code, svg');
    const where = (el: Element) => {
      const tag = el.tagName.toLowerCase();
      const name = el.getAttribute('aria-label') ?? el.getAttribute('title') ?? '';
      // the nearest named ancestor says where on the screen it is
      const named = el.parentElement?.closest('[data-testid], [id], [aria-label], [role="dialog"], header, nav');
      const at = named
        ? ` in <${named.tagName.toLowerCase()}${named.id ? `#${named.id}` : ''}${named.getAttribute('data-testid') ? ` ${named.getAttribute('data-testid')}` : ''}${named.getAttribute('aria-label') ? ` "${named.getAttribute('aria-label')!.slice(0, 20)}"` : ''}>`
        : '';
      return `<${tag}${name ? ` "${name.slice(0, 20)}"` : ''}>${at}`;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      const el = n.parentElement;
      if (!text || !el || !/[A-Za-z]/.test(text)) continue;
      if (['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName) || isData(el) || !visible(el)) continue;
      out.push([where(el), text.slice(0, 120)]);
    }
    for (const el of Array.from(document.body.querySelectorAll('[title], [aria-label], [placeholder], [alt], [aria-description]'))) {
      if (isData(el)) continue;
      for (const attr of ['title', 'aria-label', 'placeholder', 'alt', 'aria-description']) {
        const v = el.getAttribute(attr);
        if (v && /[A-Za-z]/.test(v)) out.push([`${where(el)}[${attr}]`, v.slice(0, 120)]);
      }
    }
    return out;
  });
  const lines: string[] = [];
  for (const [place, text] of found) {
    const words = latinWords(text);
    if (words.length) lines.push(`${place} 「${text}」: ${words.join(', ')}`);
  }
  return [...new Set(lines)];
}
