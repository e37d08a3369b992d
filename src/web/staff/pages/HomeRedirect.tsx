import { Navigate } from 'react-router-dom';

/** `/` goes to /dashboard. */
export function HomeRedirect() {
  return <Navigate to="/dashboard" replace />;
}
