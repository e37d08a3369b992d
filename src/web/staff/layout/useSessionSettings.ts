import { useEffect, useState } from 'react';
import { applyDocumentSettings } from '../../settings.ts';
import { loadSession, type SysSettings } from '../providers/session.ts';

/** System settings of the signed-in session (title, logo, home image...); also sets the page title. */
export function useSessionSettings(): SysSettings {
  const [sys, setSys] = useState<SysSettings>({});
  useEffect(() => {
    let live = true;
    loadSession()
      .then((info) => {
        if (!live) return;
        setSys(info.sys);
        applyDocumentSettings('', info.sys);
      })
      .catch(() => {
        /* the auth provider handles a dead session */
      });
    return () => {
      live = false;
    };
  }, []);
  return sys;
}
