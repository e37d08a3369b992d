/**
 * A text with the characters a search matched in bold and the theme's primary colour, in one
 * inline element: inside a flex row (an option) the pieces stay one text and one accessible name.
 */
import Box from '@mui/material/Box';
import type { MatchRange } from './usePinyin.ts';

export function Highlight({ text, range }: { text: string; range: MatchRange | null | undefined }) {
  if (!range || range[1] <= range[0]) return <span>{text}</span>;
  const [from, to] = range;
  return (
    <span>
      {text.slice(0, from)}
      <Box component="mark" data-testid="match" sx={{ bgcolor: 'transparent', color: 'primary.main', fontWeight: 600 }}>
        {text.slice(from, to)}
      </Box>
      {text.slice(to)}
    </span>
  );
}
