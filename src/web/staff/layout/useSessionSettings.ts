import { useEffect, useState } from 'react';
import { applyDocumentSettings } from '../../settings.ts';
import { loadSession, onSysChange, peekSession, type SysSettings } from '../../common/session.ts';

/**
 * System settings of the signed-in session (title, logo, home image...); also sets the page title.
 * When the session has already arrived (it is asked for as the page opens) the first render has
 * them, so the header and footer do not render twice.
 */
export function useSessionSettings(): SysSettings {
  const [sys, setSys] = useState<SysSettings>(() => peekSession()?.sys ?? {});
  useEffect(() => {
    let live = true;
    loadSession()
      .then((info) => {
        if (!live) return;
        setSys((old) => (old === info.sys ? old : info.sys));
        applyDocumentSettings('', info.sys);
      })
      .catch(() => {
        /* the auth provider handles a dead session */
      });
    // saved in 系统设置: shown at once, without signing in again
    const stop = onSysChange((next) => {
      setSys(next);
      applyDocumentSettings('', next);
    });
    return () => {
      live = false;
      stop();
    };
  }, []);
  return sys;
}
