/** /redirect/<path>?<query>: goes straight back to <path>?<query>, remounting that screen (the tags view's 刷新). */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

export function RedirectPage() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const back = location.pathname.replace(/^\/redirect/, '') || '/dashboard';
    void navigate(back + location.search, { replace: true });
  }, [location.pathname, location.search, navigate]);
  return null;
}
