/**
 * A header icon with its count badge (99+), drawn only while there is a count: a hidden badge
 * would still hold its last number as text, which a screen reader and the button's accessible
 * name (countedName) would not agree on.
 */
import type { ReactNode } from 'react';
import Badge from '@mui/material/Badge';

export function CountBadge({ count, children }: { count: number; children: ReactNode }) {
  if (!count || count <= 0) return <>{children}</>;
  return (
    <Badge badgeContent={count} color="error" max={99}>
      {children}
    </Badge>
  );
}
