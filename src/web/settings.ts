import { useEffect, useState } from 'react';
import { fetchPublicSettings, type SysSettings } from './common/session.ts';
import { productName } from '../shared/product.ts';

/** Public system settings (title, logo, filing number...) for pages shown before sign-in. */
export function usePublicSettings(): SysSettings {
  const [sys, setSys] = useState<SysSettings>({});
  useEffect(() => {
    let live = true;
    fetchPublicSettings()
      .then((value) => live && setSys(value))
      .catch(() => {
        /* the page works without them */
      });
    return () => {
      live = false;
    };
  }, []);
  return sys;
}

/** Sets the page title and favicon from system settings. */
export function applyDocumentSettings(pageTitle: string, sys: SysSettings): void {
  const appTitle = productName(sys.title);
  document.title = pageTitle ? `${pageTitle} - ${appTitle}` : appTitle;
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  const href = faviconHref(sys.favicon);
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

/**
 * The favicon's address: always /favicon.ico (the server answers the uploaded icon, else the
 * default one), with the upload's key as a version so a new icon replaces a cached one at once.
 */
export function faviconHref(favicon: unknown): string {
  const key = typeof favicon === 'string' ? /([0-9a-f]{32})$/.exec(favicon)?.[1] : undefined;
  return key ? `/favicon.ico?v=${key.slice(0, 12)}` : '/favicon.ico';
}
