import polyglotI18nProvider from 'ra-i18n-polyglot';
import zhCN from './zh-CN.ts';

/** Chinese only; unknown keys (e.g. server messages passed to notify) are shown as they are. */
export const i18nProvider = polyglotI18nProvider(() => zhCN, 'zh-CN', [{ locale: 'zh-CN', name: '简体中文' }], {
  allowMissing: true,
});
