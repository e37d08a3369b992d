import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { SafeHtml, sanitizeHtml } from '../../src/web/components/SafeHtml.tsx';
import { contentSource, htmlOf } from '../../src/web/staff/pages/ContentPage.tsx';
import { CONTENT_AREA, pageSlices, pdfFileName } from '../../src/web/components/pdfExport.ts';

describe('sanitizeHtml', () => {
  it('keeps formatting and removes scripts, handlers, javascript: links, forms and frames', () => {
    const out = sanitizeHtml(
      '<p><b>加粗</b><img src="x.png" onerror="alert(1)"><script>alert(2)</script>' +
        '<a href="javascript:alert(3)">坏链接</a><a href="https://example.com/a">好链接</a>' +
        '<form action="/x"><input name="p"></form><iframe src="https://evil"></iframe><style>body{display:none}</style></p>',
    );
    expect(out).toContain('<b>加粗</b>');
    expect(out).toContain('<img src="x.png">');
    expect(out).not.toMatch(/onerror|<script|javascript:|<form|<input|<iframe|<style/i);
    expect(out).toContain('href="https://example.com/a"');
    expect(out).toMatch(/<a href="https:\/\/example.com\/a" target="_blank" rel="noopener noreferrer">/);
  });

  it('answers empty text for nothing', () => {
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml('')).toBe('');
  });

  it('renders only the sanitised markup', () => {
    const { getByTestId } = render(<SafeHtml testId="h" html={'<i>斜体</i><img src=x onerror="window.__hit=1">'} />);
    const el = getByTestId('h');
    expect(el.querySelector('i')?.textContent).toBe('斜体');
    expect(el.querySelector('img')?.getAttribute('onerror')).toBeNull();
  });
});

describe('content page source and answer', () => {
  it('accepts only API paths of this server', () => {
    expect(contentSource('api/menuPage?menuId=3')).toBe('/api/menuPage?menuId=3');
    expect(contentSource('/api/sysQuestion')).toBe('/api/sysQuestion');
    for (const bad of [
      null,
      '',
      'https://evil.example/api/x',
      '//evil.example/api',
      'api/../login',
      'javascript:alert(1)',
      'static/x.html',
    ]) {
      expect(contentSource(bad)).toBeNull();
    }
  });

  it('reads the HTML from text, a record, a list or a page', () => {
    expect(htmlOf('<p>正文</p>')).toBe('<p>正文</p>');
    expect(htmlOf({ pageRemark: '<p>帮助</p>' })).toBe('<p>帮助</p>');
    expect(htmlOf([{ msg: '<p>消息</p>' }])).toBe('<p>消息</p>');
    expect(htmlOf({ content: [{ content: '<p>第一条</p>' }, { content: 'x' }], totalElements: 2 })).toBe('<p>第一条</p>');
    expect(htmlOf({ content: [{ remark: 'a', title: 'b' }] }, 'title')).toBe('b');
    expect(htmlOf({ content: [] })).toBe('');
    expect(htmlOf(null)).toBe('');
  });
});

describe('A4 PDF pages', () => {
  it('cuts a tall view into 170 x 265 mm content areas', () => {
    // 1700 px wide: 10 px per mm, so a page holds 2650 rows
    const slices = pageSlices(1700, 6000);
    expect(slices.map((s) => s.sourceY)).toEqual([0, 2650, 5300]);
    expect(slices.map((s) => s.sourceHeight)).toEqual([2650, 2650, 700]);
    expect(slices[0].heightMm).toBeCloseTo(CONTENT_AREA.height);
    expect(slices[2].heightMm).toBeCloseTo(70);
  });

  it('a short view is one page; an empty one none', () => {
    expect(pageSlices(800, 300)).toHaveLength(1);
    expect(pageSlices(0, 300)).toEqual([]);
    expect(pageSlices(800, 0)).toEqual([]);
  });

  it('names the file after the title', () => {
    expect(pdfFileName('问题反馈 12')).toBe('问题反馈_12.pdf');
    expect(pdfFileName('a/b:c')).toBe('a_b_c.pdf');
    expect(pdfFileName('  ')).toBe('导出.pdf');
  });
});
