/**
 * The English-text audit of the design walk (tests/e2e/latin-text.ts) tells English UI words
 * from the codes, units and names a Chinese interface keeps in Latin letters.
 */
import { describe, expect, it } from 'vitest';
import { latinWords } from '../e2e/latin-text.ts';

describe('latinWords', () => {
  it('finds the English words of MUI defaults and forgotten labels', () => {
    expect(latinWords('Go to next page')).toEqual(['Go', 'to', 'next', 'page']);
    expect(latinWords('pagination navigation')).toEqual(['pagination', 'navigation']);
    expect(latinWords('Rows per page:')).toEqual(['Rows', 'per', 'page:']);
    expect(latinWords('保存 Save')).toEqual(['Save']);
    expect(latinWords('Loading')).toEqual(['Loading']);
  });

  it('lets codes, units, formats and examples of what to type pass', () => {
    for (const text of [
      '例如 system/user',
      '格式 模块:操作，例如 user:add',
      '已注册的方法名，如 purgeExpiredSessions',
      '企业微信里的账号（UserID）',
      '保存在数据目录的 backup-encryption.key 中',
      '正式使用请设置 BACKUP_ENCRYPTION_KEY',
      '以http://、https://或/开头',
      '按 bean名称 升序',
      '事件KEY',
      '车架号（VIN）',
      '上传 Excel 文件（xlsx）',
      'yyyy-MM-dd HH:mm:ss',
      '1280px',
      '输入拼音，如 zw',
    ])
      expect(latinWords(text), text).toEqual([]);
  });
});
