/** The page's icon is always /favicon.ico, versioned by the uploaded favicon so a new one is fetched at once. */
import { describe, expect, it } from 'vitest';
import { applyDocumentSettings, faviconHref } from '../../src/web/settings.ts';
import { DEFAULT_PRODUCT_NAME } from '../../src/shared/product.ts';

const KEY = '0123456789abcdef0123456789abcdef';

describe('favicon link', () => {
  it('points at /favicon.ico, with the upload as version', () => {
    expect(faviconHref('')).toBe('/favicon.ico');
    expect(faviconHref(undefined)).toBe('/favicon.ico');
    expect(faviconHref(`/api/files/${KEY}`)).toBe(`/favicon.ico?v=${KEY.slice(0, 12)}`);
    expect(faviconHref('https://evil.example/x.png')).toBe('/favicon.ico');
  });

  it('applyDocumentSettings sets the title and one icon link', () => {
    applyDocumentSettings('登录', { title: '顺达后台', favicon: `/api/files/${KEY}` });
    expect(document.title).toBe('登录 - 顺达后台');
    applyDocumentSettings('', { favicon: '' });
    const links = document.querySelectorAll('link[rel="icon"]');
    expect(links.length).toBe(1);
    expect(links[0].getAttribute('href')).toBe('/favicon.ico');
    expect(document.title).toBe(DEFAULT_PRODUCT_NAME);
  });
});
