import { describe, expect, it } from 'vitest';
import { formatMessage, messages } from '../../src/shared/messages.ts';

describe('message catalogue', () => {
  it('holds the spec texts verbatim', () => {
    expect(messages.notice.created).toBe('新增成功');
    expect(messages.notice.statusChanged).toBe('状态修改成功');
    expect(messages.confirm.deleteOne).toBe('确定删除本条数据吗？');
    expect(messages.confirm.logout).toBe('确定注销并退出系统吗？');
    expect(messages.error.sessionExpired).toBe('登录状态已过期，您可以继续留在该页面，或者重新登录');
    expect(messages.upload.tooLarge).toBe('上传模板大小不能超过 10MB!');
    expect(messages.ui.tooManyTabs).toBe('最多支持10个菜单项!');
  });
  it('fills parameters', () => {
    expect(formatMessage(messages.confirm.deleteSelected, { count: 3 })).toBe('确认删除选中的3条数据?');
    expect(formatMessage(messages.confirm.enableDisable, { action: '禁用' })).toBe('此操作将禁用 是否继续？');
    expect(formatMessage('保留{unknown}')).toBe('保留{unknown}');
  });
  it('every text is Chinese', () => {
    const walk = (o: object): string[] =>
      Object.values(o as Record<string, string | object>).flatMap((v) => (typeof v === 'string' ? [v] : walk(v)));
    for (const t of walk(messages)) expect(t).toMatch(/[\u4e00-\u9fff]/);
  });
});
