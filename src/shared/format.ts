/**
 * Display formats shared by the server and the web app: amounts in Chinese capital numerals,
 * dates, and relative times. Pure functions; "now" is a parameter where it matters.
 */

// ---------- amount in Chinese capitals ----------

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const IN_GROUP = ['', '拾', '佰', '仟'];
const GROUPS = ['', '万', '亿', '兆'];
const DECIMALS = ['角', '分', '厘', '毫'];

/** Plain decimal text of a number or numeric string (no exponent), or undefined when it is not a number. */
function decimalText(value: number | string): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const s = String(value);
    return /e/i.test(s) ? value.toFixed(8) : s;
  }
  const s = value.trim().replace(/,/g, '');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return undefined;
  return s;
}

/**
 * Amount in Chinese capital numerals, e.g. 1.01 -> 壹元零壹分, 100000000 -> 壹亿元整.
 * Blank, non-numeric or at least 1e15 in size gives ''. Up to four decimals are read
 * (角 分 厘 毫; further digits are dropped). 整 follows an amount that ends at 元;
 * a zero 角 before a non-zero 分/厘/毫 is read as 零. Negative amounts start with 负.
 */
export function amountToChinese(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = decimalText(value);
  if (text === undefined || Math.abs(Number(text)) >= 1e15) return '';
  const negative = text.startsWith('-') && Number(text) !== 0;
  const [intRaw, decRaw = ''] = text.replace(/^[+-]/, '').split('.');
  const intPart = intRaw.replace(/^0+/, '');
  const decPart = decRaw.slice(0, 4).replace(/0+$/, '');

  let out = '';
  if (intPart !== '') {
    let zeros = 0;
    for (let i = 0; i < intPart.length; i++) {
      const n = Number(intPart[i]);
      const p = intPart.length - i - 1;
      const inGroup = p % 4;
      if (n === 0) {
        zeros++;
      } else {
        if (zeros > 0) out += DIGITS[0];
        zeros = 0;
        out += DIGITS[n] + IN_GROUP[inGroup];
      }
      // the group name (万, 亿, 兆) unless its four digits were all zero (a non-zero digit resets the count)
      if (inGroup === 0 && zeros < 4) out += GROUPS[p / 4];
    }
    out += '元';
  }
  let pendingZero = false;
  for (let i = 0; i < decPart.length; i++) {
    const n = Number(decPart[i]);
    if (n === 0) {
      pendingZero = out !== '';
      continue;
    }
    if (pendingZero) out += DIGITS[0];
    pendingZero = false;
    out += DIGITS[n] + DECIMALS[i];
  }
  if (out === '') return '零元整';
  if (decPart === '') out += '整';
  return (negative ? '负' : '') + out;
}

// ---------- dates ----------

export const DATE_FORMAT_ERROR = '日期时间格式错误';

/** Turns a Date, a timestamp (10 digits = seconds, else milliseconds) or a date text into a Date. */
export function toDate(time: Date | number | string): Date {
  if (Array.isArray(time)) throw new Error(DATE_FORMAT_ERROR);
  let d: Date;
  if (time instanceof Date) d = new Date(time.getTime());
  else if (typeof time === 'number' || /^\d+$/.test(time.trim())) {
    const s = String(time).trim();
    d = new Date(s.length === 10 ? Number(s) * 1000 : Number(s));
  } else {
    const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?$/.exec(time.trim());
    d = m ? new Date(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)) : new Date(time);
  }
  if (Number.isNaN(d.getTime())) throw new Error(DATE_FORMAT_ERROR);
  return d;
}

const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];

/**
 * Formats a date with the tokens {y} {m} {d} {h} {i} {s} {a} (weekday 日一二三四五六), local time.
 * Default pattern '{y}-{m}-{d} {h}:{i}:{s}' (the API's date-time). Blank input gives ''.
 * Given an array, or text that is not a date, throws Error('日期时间格式错误').
 */
export function formatDate(time: Date | number | string | null | undefined | unknown[], pattern = '{y}-{m}-{d} {h}:{i}:{s}'): string {
  if (Array.isArray(time)) throw new Error(DATE_FORMAT_ERROR);
  if (time === null || time === undefined || time === '') return '';
  const d = toDate(time);
  const parts: Record<string, number> = {
    y: d.getFullYear(),
    m: d.getMonth() + 1,
    d: d.getDate(),
    h: d.getHours(),
    i: d.getMinutes(),
    s: d.getSeconds(),
    a: d.getDay(),
  };
  return pattern.replace(/\{([ymdhisa])\}/g, (_, key: string) => {
    if (key === 'a') return WEEKDAYS[parts.a];
    return key === 'y' ? String(parts.y) : String(parts[key]).padStart(2, '0');
  });
}

/**
 * How long ago: under 30 s 刚刚, then N分钟前, N小时前 (rounded up), under two days 1天前,
 * else the date: with a pattern as formatDate, without as M月D日H时m分.
 */
export function relativeTime(time: Date | number | string, now: number = Date.now(), pattern?: string): string {
  const d = toDate(time);
  const diff = (now - d.getTime()) / 1000;
  if (diff < 30) return '刚刚';
  if (diff < 3600) return `${Math.ceil(diff / 60)}分钟前`;
  if (diff < 3600 * 24) return `${Math.ceil(diff / 3600)}小时前`;
  if (diff < 3600 * 24 * 2) return '1天前';
  if (pattern) return formatDate(d, pattern);
  return `${d.getMonth() + 1}月${d.getDate()}日${d.getHours()}时${d.getMinutes()}分`;
}
