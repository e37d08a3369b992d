import { describe, expect, it } from 'vitest';
import type { MaskKind } from '../../src/shared/resource-spec.ts';
import { isIdNumber, mask, MASKS, maskEmail, maskIdNumber, maskName, maskPersonalText, maskPhone } from '../../src/shared/masks.ts';

describe('display masks', () => {
  it('a mobile keeps the first 3 and last 4 digits; other numbers at most a third', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('0371-65123456')).toBe('*********3456');
    expect(maskPhone('1234567')).toBe('*****67');
  });
  it('name keeps its first character', () => {
    expect(maskName('欧阳锋')).toBe('欧**');
    expect(maskName('司马相如')).toBe('司***');
    expect(maskName('张三')).toBe('张*');
    expect(maskName('王')).toBe('*');
  });
  it('ID keeps the first 4 and last 5 characters', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('1101*********1002X');
    expect(maskIdNumber('110105491231002')).toBe('1101******31002');
  });
  it('e-mail keeps at most 3 characters and a third of the local part', () => {
    expect(maskEmail('zhangsan@example.com')).toBe('zh******@example.com');
    expect(maskEmail('zhangsanfeng@example.com')).toBe('zha*********@example.com');
    expect(maskEmail('abcd@qq.com')).toBe('a***@qq.com');
    expect(maskEmail('li@qq.com')).toBe('**@qq.com');
  });
  it('mask() picks by kind and blanks empty values', () => {
    expect(mask('phone', '13812345678')).toBe('138****5678');
    expect(mask('name', '欧阳锋')).toBe('欧**');
    expect(mask('id', '11010519491231002X')).toBe('1101*********1002X');
    expect(mask('email', 'zhangsan@example.com')).toBe('zh******@example.com');
    expect(mask('phone', 13812345678)).toBe('138****5678');
    expect(mask('phone', null)).toBe('');
    expect(mask('name', undefined)).toBe('');
    expect(mask('name', '')).toBe('');
  });
});

/**
 * Every mask kind (MASKS, so a new kind is covered, and the Record below makes the type check
 * ask for its rule), every length 1..20: at most floor(n/3) characters of the secret part stay
 * visible. The secret part is the whole value but for an e-mail's domain and a date's year.
 * Two conventional forms keep more, as every Chinese product shows them (GB/T 35273): a mobile
 * of 11 digits (138****5678) and an ID number of 15 or 18 characters (4 + 5). A name keeps its
 * first character (张*), never the whole of a one-character name.
 */
describe('every mask keeps at most a third of a short value', () => {
  const HAN = '欧阳锋司马相如诸葛亮刘梅张伟李娜王芳赵强钱多孙悟空';
  const digits = (n: number, first = '1') => (first + '3812345678901234567890').slice(0, n);
  const letters = (n: number) => 'lizhangsanfengwuyouyou'.slice(0, n);
  const han = (n: number) => HAN.slice(0, n);
  /** values of length n for each kind, and the secret part of a value with its allowance */
  const rules: Record<MaskKind, { values: (n: number) => string[]; secret: (v: string) => string; allowed: (v: string) => number }> = {
    phone: {
      values: (n) => [digits(n), `0${digits(n - 1)}`.slice(0, n), letters(n)],
      secret: (v) => v,
      allowed: (v) => (/^1[3-9]\d{9}$/.test(v) ? 7 : Math.floor(v.length / 3)),
    },
    id: {
      values: (n) => [digits(n, '4'), `${digits(n - 1, '4')}X`.slice(-n)],
      secret: (v) => v,
      allowed: (v) => (/^(\d{17}[\dXx]|\d{15})$/.test(v) ? 9 : Math.floor(v.length / 3)),
    },
    email: {
      values: (n) => [`${letters(n)}@qq.com`, `${letters(n)}@example.com.cn`],
      secret: (v) => v.slice(0, v.lastIndexOf('@')),
      allowed: (v) => Math.floor(v.lastIndexOf('@') / 3),
    },
    name: { values: (n) => [han(n), letters(n)], secret: (v) => v, allowed: (v) => Math.min(1, [...v].length - 1) },
    bankCard: { values: (n) => [digits(n, '6')], secret: (v) => v, allowed: (v) => Math.floor(v.length / 3) },
    address: {
      values: (n) => [han(n), `河南省郑州市金水区花园路${'八'.repeat(20)}`.slice(0, n)],
      secret: (v) => v,
      allowed: (v) => Math.floor([...v].length / 3),
    },
    date: {
      values: (n) => [digits(n), '1990-01-01 08:30:00'.slice(0, n)],
      // the year stays (1990-**-**): the rest of a date is its secret part
      secret: (v) => (/^\d{4}-[\d*]{1,2}-[\d*]{1,2}/.test(v) ? v.slice(5) : v),
      allowed: (v) => Math.floor((/^\d{4}-\d{1,2}-\d{1,2}/.test(v) ? v.slice(5) : v).length / 3),
    },
  };
  const visible = (text: string) => [...text].filter((c) => c !== '*').length;

  it.each(Object.keys(MASKS) as MaskKind[])('%s', (kind) => {
    let checked = 0;
    for (let n = 1; n <= 20; n++) {
      for (const value of rules[kind].values(n)) {
        const masked = mask(kind, value);
        const rule = rules[kind];
        // what is not secret (an e-mail's domain, a date's year) stays as it was; the secret part is starred in place
        const secret = rule.secret(value);
        const shownSecret = rule.secret(masked);
        // (a date of birth has one form, 1990-**-**, whatever its time part)
        if (kind !== 'date' || secret === value) expect([...masked].length, `${kind} ${value} -> ${masked}`).toBe([...value].length);
        expect(masked.replace(shownSecret, ''), `${kind} ${value} -> ${masked}`).toBe(value.replace(secret, ''));
        expect(visible(shownSecret), `${kind} ${value} -> ${masked}`).toBeLessThanOrEqual(rule.allowed(value));
        // the secret part is never shown whole
        expect(shownSecret, `${kind} ${value}`).not.toBe(secret);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});

describe('personal data in free text', () => {
  it('masks mobiles and ID numbers with a right check digit, nothing else', () => {
    expect(isIdNumber('11010519491231002X')).toBe(true);
    expect(isIdNumber('110105194912310021')).toBe(false);
    expect(maskPersonalText('{"phone":"13855556666","idno":"11010519491231002X"}')).toBe(
      '{"phone":"138****6666","idno":"1101*********1002X"}',
    );
    // not a mobile (12 digits, a timestamp, 12x) nor an ID number (wrong check digit)
    for (const text of ['138555566661', '1764041234567', '12855556666', '110105194912310021', '2026-11-25 10:00:00'])
      expect(maskPersonalText(text)).toBe(text);
  });
});
