import { describe, expect, it } from 'vitest';
import { pinyinKeys, pinyinMatch, pinyinMatcher, pinyinQuery, prefixEnd } from '../../src/shared/pinyin.ts';

const matches = (text: string, query: string, kind: 'name' | 'text' = 'text') => pinyinMatch(text, query, kind) !== null;

describe('pinyin rule', () => {
  it('initials, full pinyin and prefixes of them', () => {
    for (const q of ['zs', 'z', 'zhangsan', 'zhangs', 'zhang', 'zh']) expect(matches('张三', q, 'name'), q).toBe(true);
    for (const q of ['yhgl', 'yonghuguanli', 'yonghug', 'yh']) expect(matches('用户管理', q), q).toBe(true);
    for (const q of ['s', 'san', 'zx', 'zhangsi', 'zsi', 'gl']) expect(matches('张三', q, 'name'), q).toBe(false);
  });

  it('mixes full syllables and initials by syllable', () => {
    for (const q of ['zsan', 'zhangs', 'zhangsa', 'zsa']) expect(matches('张三', q, 'name'), q).toBe(true);
    for (const q of ['yhguanli', 'yonghgl', 'yhuguanl', 'yongh']) expect(matches('用户管理', q), q).toBe(true);
    // past the first four syllables the rest is all full or all initials
    for (const q of ['yhglxt', 'yhglxitong', 'yonghuguanlixt', 'yonghuguanlixitong']) expect(matches('用户管理系统', q), q).toBe(true);
  });

  it('ignores case, tones and spaces', () => {
    for (const q of ['ZS', 'Zhang San', 'zhāng sān', ' z s ', 'ＺＳ']) expect(matches('张三', q, 'name'), q).toBe(true);
    expect(matches('绿化', 'lvh')).toBe(true);
    expect(matches('绿化', 'lǜhuà')).toBe(true);
  });

  it('matches every reading of a polyphonic character', () => {
    for (const q of ['cq', 'zq', 'chongqing', 'zhongqing']) expect(matches('重庆', q), q).toBe(true);
    for (const q of ['yinhang', 'yinxing', 'yh', 'yx']) expect(matches('银行', q), q).toBe(true);
    for (const q of ['zhangg', 'changg', 'zg', 'cg']) expect(matches('长沟', q), q).toBe(true);
  });

  it('gives a name its surname reading', () => {
    const surnames: Array<[string, string]> = [
      ['曾小贤', 'zengxiaoxian'],
      ['单雄信', 'shanxiongxin'],
      ['解缙', 'xiejin'],
      ['仇英', 'qiuying'],
      ['区家明', 'oujiaming'],
      ['朴志勇', 'piaozhiyong'],
    ];
    for (const [name, full] of surnames) {
      expect(matches(name, full, 'name'), `${name} ${full}`).toBe(true);
      const initials = full.slice(0, 1);
      expect(matches(name, initials, 'name'), `${name} ${initials}`).toBe(true);
    }
    expect(matches('区家明', 'ojm', 'name')).toBe(true);
    expect(matches('区家明', 'qjm', 'name')).toBe(true);
  });

  it('Latin letters and digits of the text stand for themselves, also inside it', () => {
    expect(matches('奥迪A6L', 'adia6')).toBe(true);
    expect(matches('奥迪A6L', 'ada6l')).toBe(true);
    expect(matches('奥迪A6L', 'a6l')).toBe(true);
    expect(matches('关于APP登录问题', 'app')).toBe(true);
    expect(matches('关于APP登录问题', 'appdl')).toBe(false);
    expect(matches('关于APP登录问题', 'appdenglu')).toBe(true);
    expect(matches('关于APP登录问题', 'gyapp')).toBe(true);
    expect(matches('Tom 李', 'toml')).toBe(true);
  });

  it('characters and digits still match as a substring', () => {
    expect(pinyinMatch('用户管理', '管理')).toEqual([2, 4]);
    expect(pinyinMatch('奥迪A6L', 'a6')).toEqual([2, 4]);
    expect(pinyinMatch('粤B12345', '234')).toEqual([3, 6]);
    expect(matches('张三', '张s')).toBe(false);
    expect(pinyinQuery('张s')).toBeNull();
    expect(pinyinQuery('123')).toBeNull();
    expect(pinyinQuery('Zhang San 1')).toBe('zhangsan1');
  });

  it('tells which characters matched', () => {
    expect(pinyinMatch('张三丰', 'zs', 'name')).toEqual([0, 2]);
    expect(pinyinMatch('张三丰', 'zhang', 'name')).toEqual([0, 1]);
    expect(pinyinMatch('张三丰', 'zhangsanf', 'name')).toEqual([0, 3]);
    expect(pinyinMatch('用户管理', 'yhg')).toEqual([0, 3]);
    expect(pinyinMatch('关于APP登录', 'pp')).toEqual([3, 5]);
    expect(pinyinMatch('张三', '')).toEqual([0, 0]);
  });

  it('stores no key that is the prefix of another, and bounds a prefix range', () => {
    expect(pinyinKeys('张三', 'name')).toEqual(['zhangsan', 'zsan']);
    const keys = pinyinKeys('曾小单', 'name');
    expect(keys).toContain('zengxiaoshan');
    expect(keys).toContain('zxshan');
    for (const k of keys) expect(keys.filter((o) => o !== k && o.startsWith(k))).toEqual([]);
    expect(prefixEnd('zs')).toBe('zt');
    expect(prefixEnd('az')).toBe('a{');
    expect(pinyinKeys('')).toEqual([]);
    expect(pinyinKeys('，。！')).toEqual([]);
  });

  it('a matcher reuses the keys of the texts it has seen', () => {
    const match = pinyinMatcher('name');
    expect(match('王五', 'ww')).toEqual([0, 2]);
    expect(match('王五', 'wangw')).toEqual([0, 2]);
    expect(match('王五', 'lw')).toBeNull();
    expect(match(null, 'x')).toBeNull();
  });
});
