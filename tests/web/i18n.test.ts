import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import { raZhCN, zhCN } from '../../src/web/i18n/zh-CN.ts';
import { i18nProvider } from '../../src/web/i18n/index.ts';

function keys(messages: unknown, prefix = ''): string[] {
  if (typeof messages !== 'object' || messages === null) return [prefix];
  return Object.entries(messages).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('zh-CN catalogue', () => {
  it('has every react-admin key and no stray ones', () => {
    const english = keys(englishMessages).sort();
    const chinese = keys(raZhCN).sort();
    expect(english.filter((k) => !chinese.includes(k))).toEqual([]);
    expect(chinese.filter((k) => !english.includes(k))).toEqual([]);
  });

  it('translates every key (no English text left) and keeps the placeholders', () => {
    const flat = (m: unknown, p = ''): Array<[string, string]> =>
      typeof m === 'object' && m !== null ? Object.entries(m).flatMap(([k, v]) => flat(v, p ? `${p}.${k}` : k)) : [[p, String(m)]];
    const english = new Map(flat(englishMessages));
    for (const [key, text] of flat(raZhCN)) {
      const source = english.get(key)!;
      const words = text.replace(/%\{\w+\}/g, '').trim();
      if (words) expect(text, key).toMatch(/[\u4e00-\u9fff]/);
      // every placeholder used must exist in the English source
      for (const placeholder of text.match(/%\{\w+\}/g) ?? []) expect(source, key).toContain(placeholder);
      // Chinese has one plural form; polyglot's zh rule would always pick the first of several
      expect(text, key).not.toContain('||||');
    }
  });

  it('is served by the polyglot provider in Chinese', () => {
    expect(i18nProvider.getLocale()).toBe('zh-CN');
    expect(i18nProvider.translate('ra.action.delete')).toBe('删除');
    expect(i18nProvider.translate('ra.navigation.page_rows_per_page')).toBe('每页条数');
    expect(i18nProvider.translate('app.confirm.logout')).toBe('确定注销并退出系统吗？');
    expect(i18nProvider.translate('服务器的消息')).toBe('服务器的消息');
    expect(i18nProvider.translate('ra.message.bulk_delete_content', { smart_count: 3, name: '问题反馈' })).toBe('确认删除选中的3条数据?');
    expect(zhCN.app).toBeDefined();
  });
});
