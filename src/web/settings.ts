import { useEffect, useState } from 'react';
import { fetchPublicSettings, type SysSettings } from './staff/providers/session.ts';

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
  const appTitle = sys.title || '后台管理系统';
  document.title = pageTitle ? `${pageTitle} - ${appTitle}` : appTitle;
  if (sys.favicon) {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.href = sys.favicon;
  }
}
