/** Server-supplied HTML (help pages, job descriptions), sanitised again with DOMPurify before it is shown. */
import DOMPurify from 'dompurify';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

export function cleanHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'iframe'],
    FORBID_ATTR: ['style'],
  });
}

export function RichText({ html, sx }: { html: string; sx?: SxProps<Theme> }) {
  return (
    <Box
      className="rich-text"
      sx={{
        lineHeight: 1.8,
        '& img': { maxWidth: '100%' },
        '& table': { borderCollapse: 'collapse' },
        '& td, & th': { border: 1, borderColor: 'divider', px: 1 },
        ...sx,
      }}
      dangerouslySetInnerHTML={{ __html: cleanHtml(html) }}
    />
  );
}
