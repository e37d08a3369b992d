import { describe, expect, it } from 'vitest';
import { amountToChinese, formatDate, relativeTime, toDate } from '../../src/shared/format.ts';

describe('amount in Chinese capitals', () => {
  it.each([
    [0, '零元整'],
    [0.5, '伍角'],
    [1.01, '壹元零壹分'],
    [100000000, '壹亿元整'],
    [123456789.1234, '壹亿贰仟叁佰肆拾伍万陆仟柒佰捌拾玖元壹角贰分叁厘肆毫'],
    [1e15, ''],
    [1e16, ''],
    [10, '壹拾元整'],
    [101, '壹佰零壹元整'],
    [1680.32, '壹仟陆佰捌拾元叁角贰分'],
    [100010000, '壹亿零壹万元整'],
    [1000000000001, '壹兆零壹元整'],
    [0.01, '壹分'],
    [0.105, '壹角零伍厘'],
    [0.0001, '壹毫'],
    [999999999999999, '玖佰玖拾玖兆玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元整'],
    [-5, '负伍元整'],
  ])('%s -> %s', (value, text) => {
    expect(amountToChinese(value)).toBe(text);
  });
  it('reads text, drops digits after the fourth decimal, blanks what is not an amount', () => {
    expect(amountToChinese('1.00')).toBe('壹元整');
    expect(amountToChinese('2.123456')).toBe('贰元壹角贰分叁厘肆毫');
    expect(amountToChinese('1,000')).toBe('壹仟元整');
    expect(amountToChinese('')).toBe('');
    expect(amountToChinese('   ')).toBe('');
    expect(amountToChinese('abc')).toBe('');
    expect(amountToChinese(null)).toBe('');
    expect(amountToChinese(undefined)).toBe('');
    expect(amountToChinese(Number.NaN)).toBe('');
    expect(amountToChinese('1000000000000000')).toBe('');
  });
});

describe('dates', () => {
  it('formats with the {y}-{m}-{d} {h}:{i}:{s} tokens', () => {
    expect(formatDate('2024-03-05 08:09:10')).toBe('2024-03-05 08:09:10');
    expect(formatDate('2024-03-05', '{y}年{m}月{d}日 星期{a}')).toBe('2024年03月05日 星期二');
    expect(formatDate(new Date(2024, 0, 2, 3, 4, 5), '{y}/{m}/{d} {h}:{i}')).toBe('2024/01/02 03:04');
  });
  it('treats 10-digit timestamps as seconds, longer ones as milliseconds', () => {
    const ms = new Date(2024, 2, 5, 8, 9, 10).getTime();
    expect(formatDate(Math.floor(ms / 1000))).toBe('2024-03-05 08:09:10');
    expect(formatDate(String(Math.floor(ms / 1000)))).toBe('2024-03-05 08:09:10');
    expect(formatDate(ms)).toBe('2024-03-05 08:09:10');
  });
  it('blank gives empty; an array or a non-date throws 日期时间格式错误', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(() => formatDate(['2024-01-01', '2024-01-02'])).toThrow(new Error('日期时间格式错误'));
    expect(() => formatDate('not a date')).toThrow('日期时间格式错误');
    expect(() => toDate([] as never)).toThrow('日期时间格式错误');
  });
});

describe('relative time', () => {
  const now = new Date(2024, 5, 15, 12, 0, 0).getTime();
  it('under 30 s is 刚刚', () => {
    expect(relativeTime(now, now)).toBe('刚刚');
    expect(relativeTime(now - 29_000, now)).toBe('刚刚');
  });
  it('then minutes and hours, rounded up', () => {
    expect(relativeTime(now - 30_000, now)).toBe('1分钟前');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5分钟前');
    expect(relativeTime(now - 59 * 60_000 - 1000, now)).toBe('60分钟前');
    expect(relativeTime(now - 3600_000, now)).toBe('1小时前');
    expect(relativeTime(now - 3 * 3600_000 - 1000, now)).toBe('4小时前');
  });
  it('under two days is 1天前, then the date', () => {
    expect(relativeTime(now - 24 * 3600_000, now)).toBe('1天前');
    expect(relativeTime(now - 47 * 3600_000, now)).toBe('1天前');
    expect(relativeTime(now - 3 * 24 * 3600_000, now)).toBe('6月12日12时0分');
    expect(relativeTime(now - 3 * 24 * 3600_000, now, '{y}-{m}-{d}')).toBe('2024-06-12');
  });
  it('reads 10-digit timestamps as seconds and date texts', () => {
    expect(relativeTime(Math.floor((now - 5 * 60_000) / 1000), now)).toBe('5分钟前');
    expect(relativeTime(String(Math.floor((now - 2 * 3600_000) / 1000)), now)).toBe('2小时前');
    expect(relativeTime('2024-06-15 11:00:00', now)).toBe('1小时前');
  });
});
