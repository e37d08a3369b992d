/**
 * A wide table's own horizontal scroll: on a narrow window the table scrolls inside this box
 * instead of widening the page, and its columns keep their text on one line.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

export function ScrollX({ children }: { children: ReactNode }) {
  // a size container: an empty-state message inside is as wide as the visible part (100cqw);
  // cells keep their text on one line (a narrow window scrolls instead of squeezing columns)
  return (
    <Box sx={{ overflowX: 'auto', maxWidth: '100%', containerType: 'inline-size', '& th, & td': { whiteSpace: 'nowrap' } }}>{children}</Box>
  );
}
