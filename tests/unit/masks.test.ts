import { describe, expect, it } from 'vitest';
import { isIdNumber, mask, maskEmail, maskIdNumber, maskName, maskPersonalText, maskPhone } from '../../src/shared/masks.ts';

describe('display masks', () => {
  it('phone keeps the first 3 and last 4 digits', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('0371-65123456')).toBe('037******3456');
    expect(maskPhone('1234567')).toBe('1234567');
  });
  it('name keeps the first and last character', () => {
    expect(maskName('欧阳锋')).toBe('欧*锋');
    expect(maskName('司马相如')).toBe('司**如');
    expect(maskName('张三')).toBe('张*');
    expect(maskName('王')).toBe('王');
  });
  it('ID keeps the first 4 and last 5 characters', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('1101*********1002X');
    expect(maskIdNumber('110105491231002')).toBe('1101******31002');
  });
  it('e-mail is masked after 3 characters of the local part', () => {
    expect(maskEmail('zhangsan@example.com')).toBe('zha*****@example.com');
    expect(maskEmail('abcd@qq.com')).toBe('abc*@qq.com');
    expect(maskEmail('ab@qq.com')).toBe('ab@qq.com');
  });
  it('mask() picks by kind and blanks empty values', () => {
    expect(mask('phone', '13812345678')).toBe('138****5678');
    expect(mask('name', '欧阳锋')).toBe('欧*锋');
    expect(mask('id', '11010519491231002X')).toBe('1101*********1002X');
    expect(mask('email', 'zhangsan@example.com')).toBe('zha*****@example.com');
    expect(mask('phone', 13812345678)).toBe('138****5678');
    expect(mask('phone', null)).toBe('');
    expect(mask('name', undefined)).toBe('');
    expect(mask('name', '')).toBe('');
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
