/**
 * A watermark over its children: the text repeated diagonally in rgba(180,180,180,0.3),
 * above the content but never catching clicks (used on read-only views, e.g. the dealer's
 * request view marked with the user label).
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

export const WATERMARK_COLOR = 'rgba(180,180,180,0.3)';

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** An SVG tile with the text, rotated -20°, as a CSS url(). */
export function watermarkTile(text: string, { width = 240, height = 140, fontSize = 16 } = {}): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-size="${fontSize}" ` +
    `font-family="sans-serif" fill="${WATERMARK_COLOR}" transform="rotate(-20 ${width / 2} ${height / 2})">${escapeXml(text)}</text></svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

export function Watermark({ text, children }: { text: string; children: ReactNode }) {
  return (
    <Box sx={{ position: 'relative' }}>
      {children}
      {text ? (
        <Box
          aria-hidden
          data-testid="watermark"
          sx={{
            position: 'absolute',
            inset: 0,
            pointerEvents: 'none',
            zIndex: 1,
            backgroundImage: watermarkTile(text),
            backgroundRepeat: 'repeat',
          }}
        />
      ) : null}
    </Box>
  );
}
