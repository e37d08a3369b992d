/**
 * Server-side cleaning of message text with DOMPurify on a jsdom window (created once, on first use).
 * - richText: a system message body; formatting tags, links and images stay, everything that
 *   runs (scripts, event handlers, javascript: links, styles, frames, forms) goes.
 * - plainText: a chat message; every tag goes, the text stays as text (entities decoded).
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { JSDOM } from 'jsdom';

let purifier: { purify: DOMPurify; window: JSDOM['window'] } | undefined;

function get(): { purify: DOMPurify; window: JSDOM['window'] } {
  if (!purifier) {
    const { window } = new JSDOM('');
    purifier = { purify: createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]), window };
  }
  return purifier;
}

const RICH_TAGS = [
  'p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'sub', 'sup', 'blockquote', 'pre', 'code',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a', 'img', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
];
const RICH_ATTRS = ['href', 'target', 'rel', 'src', 'alt', 'title', 'colspan', 'rowspan'];

export function richText(html: string): string {
  const { purify } = get();
  const clean = purify.sanitize(html, {
    ALLOWED_TAGS: RICH_TAGS,
    ALLOWED_ATTR: RICH_ATTRS,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/|#)/i,
  });
  return String(clean).trim();
}

export function plainText(text: string): string {
  const { purify, window } = get();
  const clean = String(purify.sanitize(text, { ALLOWED_TAGS: [], KEEP_CONTENT: true }));
  const holder = window.document.createElement('div');
  holder.innerHTML = clean;
  return (holder.textContent ?? '').trim();
}
