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
