/**
 * The text of an HTML fragment for one line: tags dropped, script and style contents with them,
 * white space folded. Parsing does not run scripts or load images.
 */
export function plainText(html: string | null | undefined): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const el of Array.from(doc.body.querySelectorAll('script, style, template, noscript'))) el.remove();
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
