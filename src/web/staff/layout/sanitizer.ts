/**
 * DOMPurify for the notices, loaded after the console has started rather than with it: server
 * messages may carry HTML, and until the sanitiser is there a notice shows its plain text.
 */
import { useEffect, useState } from 'react';

type Purify = (typeof import('dompurify'))['default'];

let purify: Purify | null = null;
let loading: Promise<Purify> | null = null;

export function loadSanitizer(): Promise<Purify> {
  loading ??= import('dompurify').then((m) => (purify = m.default));
  return loading;
}

/** The text of an HTML fragment (tags dropped, nothing run or fetched). */
export function htmlText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** DOMPurify once loaded, null until then; it starts loading when `needed` first holds. */
export function useSanitizer(needed: boolean): Purify | null {
  const [loaded, setLoaded] = useState<Purify | null>(() => purify);
  useEffect(() => {
    if (loaded || !needed) return;
    let live = true;
    loadSanitizer().then(
      (p) => live && setLoaded(() => p),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loaded, needed]);
  return loaded;
}
