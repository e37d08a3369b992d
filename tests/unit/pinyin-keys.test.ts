import { describe, expect, it } from 'vitest';
import { pinyinKeys, pinyinQuery, type PinyinKind } from '../../src/shared/pinyin.ts';
import { keyInRanges, pinyinKeyRanges, pinyinStoredKeys } from '../../src/server/crud/pinyin/pinyin-keys.ts';

/** The rule in memory: the query is a prefix of one of the text's keys. */
const ruleKeys = new Map<string, string[]>();
const byRule = (text: string, query: string, kind: PinyinKind) => {
  const q = pinyinQuery(query);
  if (q === null) return false;
  const id = `${kind}:${text}`;
  if (!ruleKeys.has(id)) ruleKeys.set(id, pinyinKeys(text, kind));
  return ruleKeys.get(id)!.some((k) => k.startsWith(q));
};
/** What the side table answers: a stored key in one of the query's ranges. */
const byStore = (text: string, query: string, kind: PinyinKind) => {
  const ranges = pinyinKeyRanges(query);
  return ranges !== null && pinyinStoredKeys(text, kind).some((k) => keyInRanges(k, ranges));
};

const NAMES = [
  '张三',
  '张伟',
  '赵航',
  '张小明',
  '曾小贤',
  '单雄信',
  '解缙',
  '仇英',
  '区家明',
  '朴志勇',
  '欧阳娜娜',
  '司马相如',
  '诸葛亮',
  '重庆',
  '长沟',
];
const TITLES = [
  '用户管理',
  '用户管理系统',
  '市场推广经理',
  '售后服务主管',
  '银行按揭专员',
  '重庆区域经理',
  '二手车评估师',
  '奥迪A6L',
  '关于APP登录问题',
  'Tom 李',
  '秦PLUS',
  '长安CS75',
  '中华人民共和国国务院',
];

/** Queries a person might type for a text: every prefix of every key, and near misses. */
function queriesFor(text: string, kind: PinyinKind): string[] {
  const out = new Set<string>();
  for (const k of pinyinKeys(text, kind)) {
    for (let i = 1; i <= Math.min(k.length, 20); i++) {
      const p = k.slice(0, i);
      out.add(p);
      // a wrong letter at the end, and an extra one
      out.add(p.slice(0, -1) + (p.endsWith('a') ? 'b' : 'a'));
      out.add(`${p}q`);
    }
  }
  return [...out];
}

describe('stored pinyin keys', () => {
  it('store two keys per reading: the full pinyin and the initials with the padded syllables', () => {
    expect(pinyinStoredKeys('张三', 'name')).toEqual(['zhangsan', '~zs|zhang-san---']);
    expect(pinyinStoredKeys('用户管理系统')).toEqual(['yonghuguanlixitong', '~yhglxt|yong--hu----guan--li----xitong']);
    expect(pinyinStoredKeys('')).toEqual([]);
    expect(pinyinStoredKeys('，。！')).toEqual([]);
    // one syllable: nothing to mix
    expect(pinyinStoredKeys('王')).toEqual(['wang']);
  });

  it('keep a six-character title to a few keys (it had 32-64)', () => {
    // two per combination of readings (银行按揭专员: 行 and 揭 have two each), plus Latin suffixes
    for (const t of TITLES) expect(pinyinStoredKeys(t).length, t).toBeLessThanOrEqual(12);
    expect(pinyinKeys('市场推广经理')).toHaveLength(64);
    expect(pinyinStoredKeys('市场推广经理')).toHaveLength(4);
    expect(pinyinKeys('售后服务主管')).toHaveLength(32);
    expect(pinyinStoredKeys('售后服务主管')).toEqual(['shouhoufuwuzhuguan', '~shfwzg|shou--hou---fu----wu----zhuguan']);
  });

  it('split a mixed query into syllables: the initials range and a pattern on the syllables', () => {
    const ranges = pinyinKeyRanges('zsan')!;
    expect(ranges[0]).toEqual({ from: 'zsan', to: 'zsao', like: [] });
    expect(ranges[1]).toEqual({ from: '~zsan', to: '~zsao', like: [] });
    expect(ranges).toContainEqual({ from: '~zs', to: '~zt', like: ['~zs%|z_____san%'] });
    expect(pinyinKeyRanges('张s')).toBeNull();
    expect(pinyinKeyRanges('123')).toBeNull();
    // case, tones and spaces are folded before
    expect(pinyinKeyRanges('Zhāng S')![0].from).toBe('zhangs');
  });

  it('find exactly what the rule finds, for names and titles', () => {
    let positives = 0;
    for (const [texts, kind] of [
      [NAMES, 'name'],
      [TITLES, 'text'],
    ] as const) {
      for (const text of texts) {
        for (const q of queriesFor(text, kind)) {
          const want = byRule(text, q, kind);
          if (want) positives++;
          expect(byStore(text, q, kind), `${text} ${q}`).toBe(want);
        }
      }
    }
    expect(positives).toBeGreaterThan(1000);
  });

  it('keep the cases of the rule: mixed, polyphonic, surnames, Latin and digits', () => {
    for (const q of ['zsan', 'zhangs', 'zsa', 'zs', 'zhangsan']) expect(byStore('张三', q, 'name'), q).toBe(true);
    for (const q of ['yhguanli', 'yonghgl', 'yhuguanl', 'yhglxt', 'yhglxitong', 'yonghuguanlixt'])
      expect(byStore('用户管理系统', q, 'text'), q).toBe(true);
    expect(byStore('用户管理系统', 'yhglxtong', 'text')).toBe(false);
    for (const q of ['cq', 'zq', 'chongq', 'zhongqing', 'cqing', 'zhongq']) expect(byStore('重庆', q, 'text'), q).toBe(true);
    for (const q of ['zengxx', 'zxiaoxian', 'sxiongxin', 'shanxx', 'ojm', 'qjm', 'oujm', 'pzhiyong']) {
      const text = { z: '曾小贤', s: '单雄信', o: '区家明', q: '区家明', p: '朴志勇' }[q[0]]!;
      expect(byStore(text, q, 'name'), q).toBe(true);
    }
    expect(byStore('奥迪A6L', 'adia6', 'text')).toBe(true);
    expect(byStore('奥迪A6L', 'ada6l', 'text')).toBe(true);
    expect(byStore('关于APP登录问题', 'app', 'text')).toBe(true);
    expect(byStore('关于APP登录问题', 'appdl', 'text')).toBe(false);
    expect(byStore('张三', 'zx', 'name')).toBe(false);
    expect(byStore('赵航', 'zhang', 'name')).toBe(true);
  });
});
