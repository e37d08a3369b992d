/**
 * Server-supplied HTML shown in the console (help pages, content pages, notices), always
 * sanitised with DOMPurify first: scripts, event handlers, javascript: links, forms and frames
 * are removed; links open in a new tab without access to this window.
 */
import DOMPurify from 'dompurify';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

const FORBID_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed'];

let hooked = false;
function purifier() {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  return DOMPurify;
}

/** The HTML with everything unsafe removed. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  return purifier().sanitize(html, { FORBID_TAGS, ALLOW_DATA_ATTR: false, USE_PROFILES: { html: true } });
}

export function SafeHtml({ html, sx, testId }: { html: string | null | undefined; sx?: SxProps<Theme>; testId?: string }) {
  return (
    <Box
      data-testid={testId}
      className="safe-html"
      sx={{ lineHeight: 1.7, wordBreak: 'break-word', '& img': { maxWidth: '100%' }, ...sx }}
      dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }}
    />
  );
}
