/**
 * Server-side cleaning of message text with DOMPurify on a jsdom window. jsdom is loaded and the
 * window created on the first use, so a server that never cleans a message does not carry it.
 * - richText: a system message body; formatting tags, links and images stay, everything that
 *   runs (scripts, event handlers, javascript: links, styles, frames, forms) goes.
 * - plainText: a chat message; every tag goes, the text stays as text (entities decoded).
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import type { JSDOM } from 'jsdom';

type Purifier = { purify: DOMPurify; window: JSDOM['window'] };
let purifier: Promise<Purifier> | undefined;

function get(): Promise<Purifier> {
  purifier ??= import('jsdom').then(({ JSDOM }) => {
    const { window } = new JSDOM('');
    return { purify: createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]), window };
  });
  return purifier;
}

const RICH_TAGS = [
  'p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'sub', 'sup', 'blockquote', 'pre', 'code',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a', 'img', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
];
const RICH_ATTRS = ['href', 'src', 'alt', 'title', 'colspan', 'rowspan'];

export async function richText(html: string): Promise<string> {
  const { purify } = await get();
  const clean = purify.sanitize(html, {
    ALLOWED_TAGS: RICH_TAGS,
    ALLOWED_ATTR: RICH_ATTRS,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/|#)/i,
  });
  return String(clean).trim();
}

export async function plainText(text: string): Promise<string> {
  const { purify, window } = await get();
  const clean = String(purify.sanitize(text, { ALLOWED_TAGS: [], KEEP_CONTENT: true }));
  const holder = window.document.createElement('div');
  holder.innerHTML = clean;
  return (holder.textContent ?? '').trim();
}
