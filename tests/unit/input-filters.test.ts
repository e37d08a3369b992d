import { describe, expect, it } from 'vitest';
import * as f from '../../src/shared/input-filters.ts';

describe('input filters', () => {
  it('sign-in account keeps word characters, captcha keeps digits and minus', () => {
    expect(f.keepWordCharacters('ad min!@#_1')).toBe('admin_1');
    expect(f.keepDigitsAndMinus('-1a2 3')).toBe('-123');
  });
  it('digits, with an optional maximum length', () => {
    expect(f.keepDigits('1a2b3c4')).toBe('1234');
    expect(f.keepDigits('12345', 3)).toBe('123');
  });
  it('positive integer drops leading zeros', () => {
    expect(f.keepPositiveInteger('007x')).toBe('7');
    expect(f.keepPositiveInteger('0')).toBe('');
  });
  it('numbers keep one decimal point; two decimals at most', () => {
    expect(f.keepNonNegativeNumber('-1.2.3a')).toBe('1.23');
    expect(f.keepTwoDecimals('12.3456')).toBe('12.34');
    expect(f.keepTwoDecimals('1..5')).toBe('1.5');
    expect(f.keepTwoDecimals('15')).toBe('15');
  });
});

describe('input restrictions with their messages', () => {
  it('keeps what each restriction allows and names the problem when something was dropped', () => {
    expect(f.restrictInput('positiveInteger', '012a')).toEqual({ value: '12', message: '请输入正整数' });
    expect(f.restrictInput('positiveInteger', '12')).toEqual({ value: '12', message: null });
    expect(f.restrictInput('nonNegative', '-3.5')).toEqual({ value: '3.5', message: '请输入非负数' });
    expect(f.restrictInput('greaterThanZero', '1.2.3')).toEqual({ value: '1.23', message: '请输入大于0的数' });
    expect(f.restrictInput('positiveTwoDecimals', '9.999')).toEqual({ value: '9.99', message: '请输入大于0的两位小数' });
    expect(f.restrictInput('digits', '13x8')).toEqual({ value: '138', message: '请输入数字' });
    expect(f.restrictInput('twoDecimals', '1.234')).toEqual({ value: '1.23', message: '请输入保留两位小数的数字' });
    expect(f.RESTRICTIONS.twoDecimals.durationMs).toBe(1500);
  });

  it('derives the restriction from a numeric schema property', () => {
    expect(f.restrictionFor({ type: 'integer', minimum: 1 })).toBe('positiveInteger');
    expect(f.restrictionFor({ type: 'integer', minimum: 0 })).toBe('digits');
    expect(f.restrictionFor({ type: 'number', minimum: 0, multipleOf: 0.01 })).toBe('twoDecimals');
    expect(f.restrictionFor({ type: 'number', exclusiveMinimum: 0, multipleOf: 0.01 })).toBe('positiveTwoDecimals');
    expect(f.restrictionFor({ type: 'number', exclusiveMinimum: 0 })).toBe('greaterThanZero');
    expect(f.restrictionFor({ type: 'number', minimum: 0 })).toBe('nonNegative');
    expect(f.restrictionFor({ type: 'number' })).toBeNull();
    expect(f.restrictionFor({ type: 'integer', minimum: -5 })).toBeNull();
  });
});
