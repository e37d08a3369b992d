import { describe, expect, it } from 'vitest';
import * as v from '../../src/shared/validators.ts';

/** Independent GB 11643 check digit, to build valid IDs from any body. */
function idCheck(body17: string): string {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const s = [...body17].reduce((acc, c, i) => acc + Number(c) * w[i], 0);
  return '10X98765432'[s % 11];
}
/** Independent GB 32100 check character. */
function usccCheck(body17: string): string {
  const chars = '0123456789ABCDEFGHJKLMNPQRTUWXY';
  const w = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
  const s = [...body17].reduce((acc, c, i) => acc + chars.indexOf(c) * w[i], 0);
  return chars[(31 - (s % 31)) % 31];
}

function table(fn: (s: string) => boolean, good: string[], bad: string[]): void {
  for (const g of good) expect(fn(g), `${fn.name}(${g}) should pass`).toBe(true);
  for (const b of bad) expect(fn(b), `${fn.name}(${b}) should fail`).toBe(false);
}

describe('phones, e-mail, network', () => {
  it('mobile: 11 digits, 1 then 3-9', () => {
    table(
      v.isMobile,
      ['13800138000', '19912345678', '15012345678'],
      ['12800138000', '1380013800', '138001380001', '23800138000', '1380013800a', ''],
    );
    expect(v.check('mobile', '12345678901')).toBe('请输入正确的11位手机号码');
    expect(v.check('mobile', '13800138000')).toBeUndefined();
  });
  it('landline with area code', () => {
    table(
      v.isLandline,
      ['010-12345678', '0371-6512345', '037165123456', '021-87654321-123'],
      ['12345678', '010-0123456', '10-12345678', '0371-123456', '0371-123456789'],
    );
  });
  it('e-mail', () => {
    table(
      v.isEmail,
      ['abc@example.com', 'first.last+tag@mail.example.cn', 'a_b-c@x-y.org'],
      ['abc', 'abc@', '@x.com', 'a@b', 'a b@x.com', 'a..b@x.com', 'a@-x.com'],
    );
    expect(v.check('email', 'nope')).toBe('邮箱格式错误');
  });
  it('IPv4', () => {
    table(v.isIPv4, ['192.168.1.1', '0.0.0.0', '255.255.255.255', '10.0.0.10'], ['256.1.1.1', '1.1.1', '01.1.1.1', '1.1.1.1.1', 'a.b.c.d']);
  });
  it('URL', () => {
    table(
      v.isUrl,
      ['http://example.com', 'https://www.example.com/a?b=1#c', 'ftp://files.example.com/x', 'http://192.168.1.1:8000'],
      ['example.com', 'javascript:alert(1)', 'http://', 'http://exa mple.com', 'mailto:a@b.com'],
    );
  });
});

describe('resident ID (GB 11643)', () => {
  it('accepts real-format 18-digit numbers with the right check digit', () => {
    table(
      v.isIdCard,
      ['11010519491231002X', '11010519491231002x', '440524188001010014', `41010219900307${'123'}${idCheck('41010219900307123')}`],
      [],
    );
    expect(idCheck('11010519491231002')).toBe('X');
    expect(v.idCardCheckDigit('44052418800101001')).toBe('4');
  });
  it('refuses a wrong check digit, a bad date, an unknown province, wrong lengths', () => {
    const feb30 = '41010219900230123';
    table(
      v.isIdCard,
      [],
      [
        '110105194912310021',
        '440524188001010015',
        feb30 + idCheck(feb30),
        '99010519491231' + '002' + idCheck('99010519491231002'),
        '1101051949123100',
        '11010519491231002Y',
        '',
      ],
    );
    expect(v.check('idCard', '110105194912310021')).toBe('身份证号码不正确');
  });
  it('accepts 15-digit numbers with a valid date', () => {
    table(v.isIdCard, ['110105491231002', '130503670401001'], ['110105491331002', '11010549123100']);
  });
  it('extracts birthday, sex and region', () => {
    expect(v.parseIdCard('11010519491231002X')).toEqual({ birthday: '1949-12-31', sex: 0, region: '110105' });
    expect(v.parseIdCard('440524188001010014')).toEqual({ birthday: '1880-01-01', sex: 1, region: '440524' });
    expect(v.parseIdCard('130503670401001')).toEqual({ birthday: '1967-04-01', sex: 1, region: '130503' });
    expect(v.parseIdCard('110105491231002')).toEqual({ birthday: '1949-12-31', sex: 0, region: '110105' });
    expect(v.parseIdCard('110105194912310021')).toBeNull();
  });
});

describe('other documents', () => {
  it('passport', () => {
    table(
      v.isPassport,
      ['E12345678', 'G12345678', 'EA1234567', 'DE1234567', 'e12345678'],
      ['E1234567', 'A12345678', 'EZ1234567', '123456789', 'E123456789'],
    );
  });
  it('officer ID', () => {
    table(
      v.isOfficerId,
      ['军字第2001988号', '南字第12345678', '政字第AB1234号'],
      ['军字2001988号', '字第2001988号', '军字第123号', 'AB字第1234号'],
    );
  });
  it('Hong Kong, Macao and Taiwan permits', () => {
    table(v.isHkMacaoPermit, ['H12345678', 'M1234567890', 'C12345678', 'CA1234567'], ['H1234567', 'X12345678', 'C123456789']);
    table(v.isTaiwanPermit, ['12345678', '1234567890', 'A123456789'], ['1234567', '123456789', '12345678901']);
    table(v.isHkMacaoTaiwanPermit, ['H12345678', '12345678'], ['H123', '']);
  });
});

describe('organisations and cards', () => {
  it('unified social credit code (GB 32100)', () => {
    const built = '91410100MA44XY712';
    const body = (built + '0').slice(0, 17);
    table(
      v.isCreditCode,
      ['91350100M000100Y43', body + usccCheck(body), (body + usccCheck(body)).toLowerCase()],
      ['91350100M000100Y44', '91350100M000100Y4', '91350100I000100Y43', '9135010AM000100Y43', ''],
    );
    expect(usccCheck('91350100M000100Y4')).toBe('3');
    expect(v.usccCheckChar('91350100M000100Y4')).toBe('3');
  });
  it('tax number', () => {
    table(
      v.isTaxNumber,
      ['410102123456789', '91350100M000100Y43', '41010212345678901234', '41010212345678901'],
      ['4101021234567', '4101021234567890123', '41010212345678901-'],
    );
  });
  it('bank card: 16 to 19 digits', () => {
    table(
      v.isBankCard,
      ['6222021234567890', '6222021234567890123'],
      ['622202123456789', '62220212345678901234', '0222021234567890', '622202123456789a'],
    );
  });
});

describe('vehicles', () => {
  it('VIN with ISO 3779 check digit at position 9', () => {
    table(
      v.isVin,
      ['1M8GDM9AXKP042788', '1HGCM82633A004352', 'LSVAU218XN2183294', '1m8gdm9axkp042788'],
      ['1M8GDM9A1KP042788', '1HGCM82643A004352', 'LSVAU2180N2183294', '1M8GDM9AXKP04278', '1M8GDM9AXKP042788A', 'IM8GDM9AXKP042788'],
    );
    expect(v.vinCheckChar('1M8GDM9A0KP042788')).toBe('X');
    expect(v.check('vin', 'LSVAU2180N2183294')).toBe('请输入正确的底盘号');
  });
  it('mainland plates, new-energy included', () => {
    table(
      v.isPlate,
      ['豫A12345', '京AF0236', '粤B1234学', '沪A1234挂', '豫AD12345', '豫A12345D', '京AF12345', '粤BFA1234'],
      ['豫A1234', '豫I12345', 'AA12345', '豫A123456', '豫ADA12345', '豫AZ12345', '豫A12345X', '豫A1234O'],
    );
    expect(v.check('plate', '豫A1234')).toBe('请输入正确的车牌号');
  });
});

describe('numbers', () => {
  it('discount 1-100 with 折扣必填！', () => {
    table(v.isDiscount, ['1', '9', '10', '99', '100'], ['0', '101', '05', '1.5', '-1', 'a']);
    expect(v.check('discount', '0')).toBe('折扣必填！');
  });
  it('integers 0-100', () => {
    table(v.isPercentInteger, ['0', '5', '50', '100'], ['101', '-1', '05', '1.0']);
  });
  it('amounts with at most two decimals', () => {
    table(v.isAmount, ['0', '0.5', '12.34', '100'], ['12.345', '01', '-1', '1.', '.5', 'abc']);
    expect(v.check('amount', '1.234')).toBe('最多只能输入两位小数');
  });
  it('input restrictions with their messages', () => {
    table(v.isPositiveInteger, ['1', '42'], ['0', '01', '1.5', '-3']);
    table(v.isNonNegativeNumber, ['0', '0.5', '12'], ['-1', 'a', '1.']);
    table(v.isPositiveNumber, ['0.001', '3'], ['0', '0.0', '-2']);
    table(v.isPositiveTwoDecimals, ['0.01', '12.5'], ['0', '0.00', '1.234']);
    table(v.isDigits, ['0', '007'], ['1.0', '-1', '']);
    table(v.isTwoDecimals, ['0', '1.5', '1.25'], ['1.255', '-1']);
    expect(v.check('positiveInteger', '0')).toBe('请输入正整数');
    expect(v.check('nonNegativeNumber', '-1')).toBe('请输入非负数');
    expect(v.check('positiveNumber', '0')).toBe('请输入大于0的数');
    expect(v.check('positiveTwoDecimals', '0.001')).toBe('请输入大于0的两位小数');
    expect(v.check('digits', '1a')).toBe('请输入数字');
    expect(v.check('twoDecimals', '1.234')).toBe('请输入保留两位小数的数字');
  });
});

describe('text', () => {
  it('at least 20 characters (counted as characters)', () => {
    expect(v.hasMinChars('一'.repeat(20))).toBe(true);
    expect(v.hasMinChars('一'.repeat(19))).toBe(false);
    expect(v.hasMinChars('😀'.repeat(10))).toBe(false);
    expect(v.check('minChars20', 'short')).toBe('至少输入20个字符');
  });
  it('Chinese only', () => {
    table(v.isChineseOnly, ['中文', '河南省郑州市'], ['中文a', '中 文', '123', '']);
  });
  it('special characters of the applicant forms', () => {
    table(
      v.hasNoSpecialCharacters,
      ['郑州某公司', 'ABC销售部2', '（有限公司）', '张三.李四'],
      [
        '公司`',
        '公司~',
        '公司!',
        '公司@',
        '公司#',
        '公司$',
        '公司^',
        '公司&',
        '公司*',
        '公司=',
        '公司|',
        '公司{',
        '公司}',
        "公司'",
        '公司:',
        '公司;',
        '公司,',
        '公司[',
        '公司]',
        '公司<',
        '公司>',
        '公司/',
        '公司?',
        '公司！',
        '公司￥',
        '公司…',
        '公司【',
        '公司】',
        '公司：',
        '公司；',
        '公司，',
        '公司、',
        '公司《',
        '公司》',
        '公司？',
        '公司“',
        '公司”',
        '公司‘',
        '公司’',
        '公司"',
        '公 司',
        '公\u3000司',
        '公司\t',
      ],
    );
    expect(v.check('noSpecialCharacters', '公司,')).toBe('请认真填写,不支持特殊字符');
  });
  it('new password rule', () => {
    table(
      v.isNewPassword,
      ['abc123', 'A.b_c!@#$%^&*', 'a'.repeat(20)],
      ['1abc23', 'abc12', 'a'.repeat(21), 'abc 123', 'abc-123', '中文abc123'],
    );
    expect(v.check('newPassword', '123456')).toBe('只能输入6-20个以字母开头、可带数字的字串');
  });
});

describe('check helpers', () => {
  it('treats empty values as valid and numbers as text', () => {
    expect(v.check('mobile', '')).toBeUndefined();
    expect(v.check('mobile', null)).toBeUndefined();
    expect(v.check('mobile', '  ')).toBeUndefined();
    expect(v.check('discount', 100)).toBeUndefined();
    expect(v.check('discount', 101)).toBe('折扣必填！');
    expect(v.check(v.rules.mobile, ' 13800138000 ')).toBeUndefined();
  });
  it('checkRequired', () => {
    expect(v.checkRequired('', '模块不能为空')).toBe('模块不能为空');
    expect(v.checkRequired([], '模块不能为空')).toBe('模块不能为空');
    expect(v.checkRequired(undefined, '模块不能为空')).toBe('模块不能为空');
    expect(v.checkRequired(0, '模块不能为空')).toBeUndefined();
    expect(v.checkRequired(false, '模块不能为空')).toBeUndefined();
    expect(v.checkRequired('系统', '模块不能为空')).toBeUndefined();
  });
  it('every rule has a Chinese message', () => {
    for (const [name, rule] of Object.entries(v.rules)) expect(rule.message, name).toMatch(/[\u4e00-\u9fff]/);
  });
});
