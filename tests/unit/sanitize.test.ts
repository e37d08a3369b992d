/** Server-side cleaning of system messages (rich text) and chat messages (plain text). */
import { describe, expect, it } from 'vitest';
import { plainText, sanitizeRichText as richText } from '../../src/server/html.ts';

describe('richText', () => {
  it('keeps formatting, links and images', () => {
    const html =
      '<p>今晚<b>22点</b>升级，<a href="https://example.com/x" title="说明">详情</a><br><img src="/files/a.png" alt="图"></p><ul><li>一</li></ul>';
    // the same markup, void elements written self-closed
    expect(richText(html)).toBe(html.replace('<br>', '<br />').replace('alt="图">', 'alt="图" />'));
  });

  it('drops scripts, event handlers, styles, frames, forms and javascript: links', () => {
    const dirty =
      '<p onclick="x()" style="color:red">a</p><script>alert(1)</script><style>p{}</style><iframe src="https://e.com"></iframe>' +
      '<a href="javascript:alert(1)">b</a><a href="JaVaScRiPt:alert(1)">c</a><img src="x" onerror="alert(1)"><form action="/x"><input name="p"></form>' +
      '<svg><script>alert(1)</script></svg><a href="data:text/html,<script>alert(1)</script>">d</a>';
    const clean = richText(dirty);
    expect(clean).not.toMatch(/script|onclick|onerror|style|iframe|javascript|form|input|svg|data:/i);
    expect(clean).toContain('<p>a</p>');
    expect(clean).toContain('<a>b</a>');
  });
});

describe('plainText', () => {
  it('strips every tag, keeps the text (entities decoded), trims', () => {
    expect(plainText('  你好<script>alert(1)</script><b>大家</b> a < b &amp; c  ')).toBe('你好大家 a < b & c');
    expect(plainText('<img src=x onerror=alert(1)>')).toBe('');
  });
});
