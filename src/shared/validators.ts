/**
 * Format validators shared by the server and the web app, with the spec's Chinese messages.
 * Pure functions: `isX(value)` answers true/false for a trimmed string; `rules.x` pairs the test
 * with its message; `check(rule, value)` answers the message or undefined, treating an empty
 * value as valid (whether a field is required is a separate rule with its own message).
 */
import { plainText } from './text.ts';

export interface Rule {
  test: (value: string) => boolean;
  message: string;
}

// ---------- phones, e-mail, network ----------

/** 11 digits starting 1, second digit 3-9. */
export function isMobile(v: string): boolean {
  return /^1[3-9]\d{9}$/.test(v);
}

/** Landline with area code: 010-12345678, 0371-6512345, 037165123456, optional extension -123. */
export function isLandline(v: string): boolean {
  return /^0\d{2,3}-?[1-9]\d{6,7}(-\d{1,6})?$/.test(v);
}

export function isEmail(v: string): boolean {
  return /^[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/.test(v);
}

/** Dotted IPv4, each part 0-255 without leading zeros. */
export function isIPv4(v: string): boolean {
  const octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
  return new RegExp(`^${octet}(\\.${octet}){3}$`).test(v);
}

/** http, https or ftp address with a host. */
export function isUrl(v: string): boolean {
  if (/\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return ['http:', 'https:', 'ftp:'].includes(u.protocol) && u.hostname !== '';
  } catch {
    return false;
  }
}

// ---------- identity documents ----------

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';
/** First two digits of a resident ID: provinces (GB/T 2260), 71 Taiwan, 81 Hong Kong, 82 Macao, 83 Taiwan residence permit, 91 abroad. */
const ID_PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82,
  83, 91,
]);

function isCalendarDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** GB 11643 check character of the first 17 digits of an 18-digit resident ID. */
export function idCardCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

export interface IdCardInfo {
  /** YYYY-MM-DD */
  birthday: string;
  /** 1 male (odd sequence digit), 0 female (even) */
  sex: 0 | 1;
  /** the six-digit administrative region code */
  region: string;
}

/**
 * Reads a 15- or 18-digit resident ID (18: last may be X, check digit per GB 11643).
 * Answers null when the number is not valid.
 */
export function parseIdCard(value: string): IdCardInfo | null {
  const v = value.toUpperCase();
  let birth: string;
  let sexDigit: number;
  if (/^\d{17}[\dX]$/.test(v)) {
    if (idCardCheckDigit(v) !== v[17]) return null;
    birth = v.slice(6, 14);
    sexDigit = Number(v[16]);
  } else if (/^\d{15}$/.test(v)) {
    birth = `19${v.slice(6, 12)}`;
    sexDigit = Number(v[14]);
  } else {
    return null;
  }
  if (!ID_PROVINCES.has(Number(v.slice(0, 2)))) return null;
  const y = Number(birth.slice(0, 4));
  const m = Number(birth.slice(4, 6));
  const d = Number(birth.slice(6, 8));
  if (y < 1800 || !isCalendarDay(y, m, d)) return null;
  return {
    birthday: `${birth.slice(0, 4)}-${birth.slice(4, 6)}-${birth.slice(6, 8)}`,
    sex: sexDigit % 2 === 1 ? 1 : 0,
    region: v.slice(0, 6),
  };
}

export function isIdCard(v: string): boolean {
  return parseIdCard(v) !== null;
}

/** Chinese passport: E/G/D/S/P/H/K + 8 digits, or the newer two-letter prefix + 7 digits. */
export function isPassport(v: string): boolean {
  return /^([EKGDSPH]\d{8}|(E[A-F]|[DSP]E|KJ|MA|1[45])\d{7})$/i.test(v);
}

/** Officer ID (军官证): one Chinese character + 字第 + 4-8 letters or digits + optional 号, e.g. 军字第2001988号. */
export function isOfficerId(v: string): boolean {
  return /^[\u4e00-\u9fa5]字第[0-9a-zA-Z]{4,8}号?$/.test(v);
}

/**
 * Hong Kong / Macao permits: the residents' permit to the mainland (H or M + 8 or 10 digits) and the
 * mainland residents' permit to Hong Kong and Macao (C + 8 digits, or C + letter + 7 digits).
 */
export function isHkMacaoPermit(v: string): boolean {
  return /^([HM]\d{8}(\d{2})?|C(\d{8}|[A-Z]\d{7}))$/i.test(v);
}

/** Taiwan residents' permit to the mainland: 8 digits (current) or 10 characters (older). */
export function isTaiwanPermit(v: string): boolean {
  return /^(\d{8}|[0-9A-Z]{10})$/i.test(v);
}

export function isHkMacaoTaiwanPermit(v: string): boolean {
  return isHkMacaoPermit(v) || isTaiwanPermit(v);
}

// ---------- organisations ----------

const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** GB 32100 check character of the first 17 characters of a unified social credit code. */
export function usccCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += USCC_CHARS.indexOf(first17[i]) * USCC_WEIGHTS[i];
  return USCC_CHARS[(31 - (sum % 31)) % 31];
}

/** Unified social credit code (统一社会信用代码): 18 characters, region digits 3-8, GB 32100 check character. */
export function isCreditCode(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(v)) return false;
  return usccCheckChar(v) === v[17];
}

/** Taxpayer identification number: 15, 17, 18 or 20 letters and digits. */
export function isTaxNumber(value: string): boolean {
  return /^([0-9A-Z]{15}|[0-9A-Z]{17}|[0-9A-Z]{18}|[0-9A-Z]{20})$/.test(value.toUpperCase());
}

/** Bank card: 16 to 19 digits, not starting with 0. */
export function isBankCard(v: string): boolean {
  return /^[1-9]\d{15,18}$/.test(v);
}

// ---------- vehicles ----------

const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};

/** ISO 3779 check character (position 9) of a 17-character VIN. */
export function vinCheckChar(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = vin[i].toUpperCase();
    sum += (/\d/.test(c) ? Number(c) : VIN_VALUES[c]) * VIN_WEIGHTS[i];
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

/** VIN (底盘号): 17 letters and digits without I, O, Q, and a valid check character at position 9. */
export function isVin(value: string): boolean {
  const v = value.toUpperCase();
  return /^[A-HJ-NPR-Z0-9]{17}$/.test(v) && vinCheckChar(v) === v[8];
}

const PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼';
const L = 'A-HJ-NP-Z'; // letters on plates: no I, no O

/**
 * Mainland licence plate: province + issuing letter + 5 characters (last may be 挂 学 警 港 澳),
 * or the 8-character new-energy plate (small: D/A/B/C/E or F/G/H/J/K + letter/digit + 4 digits;
 * large: 5 digits + D/A/B/C/E or F/G/H/J/K).
 */
export function isPlate(v: string): boolean {
  const standard = new RegExp(`^[${PROVINCES}][${L}][${L}0-9]{4}[${L}0-9挂学警港澳]$`);
  const newEnergy = new RegExp(`^[${PROVINCES}][${L}]([DABCEFGHJK][${L}0-9]\\d{4}|\\d{5}[DABCEFGHJK])$`);
  return standard.test(v) || newEnergy.test(v);
}

// ---------- numbers ----------

/** Discount: an integer from 1 to 100. */
export function isDiscount(v: string): boolean {
  return /^([1-9]\d?|100)$/.test(v);
}

/** Integer from 0 to 100. */
export function isPercentInteger(v: string): boolean {
  return /^(\d|[1-9]\d|100)$/.test(v);
}

/** Amount with at most two decimals (non-negative). */
export function isAmount(v: string): boolean {
  return /^(0|[1-9]\d*)(\.\d{1,2})?$/.test(v);
}

export function isPositiveInteger(v: string): boolean {
  return /^[1-9]\d*$/.test(v);
}

export function isNonNegativeNumber(v: string): boolean {
  return /^\d+(\.\d+)?$/.test(v);
}

export function isPositiveNumber(v: string): boolean {
  return isNonNegativeNumber(v) && Number(v) > 0;
}

export function isPositiveTwoDecimals(v: string): boolean {
  return /^\d+(\.\d{1,2})?$/.test(v) && Number(v) > 0;
}

export function isDigits(v: string): boolean {
  return /^\d+$/.test(v);
}

export function isTwoDecimals(v: string): boolean {
  return /^\d+(\.\d{1,2})?$/.test(v);
}

// ---------- text ----------

/** At least n characters (counted as characters, not UTF-16 units). */
export function hasMinChars(v: string, n = 20): boolean {
  return [...v].length >= n;
}

export function isChineseOnly(v: string): boolean {
  return /^[\u4e00-\u9fa5]+$/.test(v);
}

/**
 * Characters the applicant forms refuse: ` ~ ! @ # $ ^ & * = | { } ' : ; , [ ] < > / ?, their
 * Chinese (full-width) equivalents, quotes and spaces.
 */
export const SPECIAL_CHARACTERS = /[`~!@#$^&*=|{}':;,[\]<>/?～！＠＃￥…＆＊＝｜｛｝【】‘’“”"：；，、《》〈〉／？\s\u3000]/;

export function hasNoSpecialCharacters(v: string): boolean {
  return !SPECIAL_CHARACTERS.test(v);
}

/** New password: starts with a letter, 6-20 of letters, digits and . _ ! @ # $ % ^ & * */
export function isNewPassword(v: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9._!@#$%^&*]{5,19}$/.test(v);
}

// ---------- rules with the spec's messages ----------

export const rules = {
  mobile: { test: isMobile, message: '请输入正确的11位手机号码' },
  landline: { test: isLandline, message: '请输入正确的固定电话号码' },
  email: { test: isEmail, message: '邮箱格式错误' },
  ipv4: { test: isIPv4, message: '请输入正确的IP地址' },
  url: { test: isUrl, message: '请输入正确的URL地址' },
  idCard: { test: isIdCard, message: '身份证号码不正确' },
  passport: { test: isPassport, message: '请输入正确的护照号码' },
  officerId: { test: isOfficerId, message: '请输入正确的军官证号码' },
  hkMacaoPermit: { test: isHkMacaoPermit, message: '请输入正确的港澳通行证号码' },
  taiwanPermit: { test: isTaiwanPermit, message: '请输入正确的台湾通行证号码' },
  hkMacaoTaiwanPermit: { test: isHkMacaoTaiwanPermit, message: '请输入正确的港澳台通行证号码' },
  creditCode: { test: isCreditCode, message: '请输入正确的统一社会信用代码' },
  taxNumber: { test: isTaxNumber, message: '请输入正确的纳税人识别号' },
  bankCard: { test: isBankCard, message: '请输入正确的银行卡号' },
  vin: { test: isVin, message: '请输入正确的底盘号' },
  plate: { test: isPlate, message: '请输入正确的车牌号' },
  discount: { test: isDiscount, message: '折扣必填！' },
  percentInteger: { test: isPercentInteger, message: '请输入0-100的整数' },
  amount: { test: isAmount, message: '最多只能输入两位小数' },
  minChars20: { test: (v: string) => hasMinChars(v, 20), message: '至少输入20个字符' },
  chineseOnly: { test: isChineseOnly, message: '只能输入中文' },
  noSpecialCharacters: { test: hasNoSpecialCharacters, message: '请认真填写,不支持特殊字符' },
  newPassword: { test: isNewPassword, message: '只能输入6-20个以字母开头、可带数字的字串' },
  positiveInteger: { test: isPositiveInteger, message: '请输入正整数' },
  nonNegativeNumber: { test: isNonNegativeNumber, message: '请输入非负数' },
  positiveNumber: { test: isPositiveNumber, message: '请输入大于0的数' },
  positiveTwoDecimals: { test: isPositiveTwoDecimals, message: '请输入大于0的两位小数' },
  digits: { test: isDigits, message: '请输入数字' },
  twoDecimals: { test: isTwoDecimals, message: '请输入保留两位小数的数字' },
} as const satisfies Record<string, Rule>;

export type RuleName = keyof typeof rules;

/** The rule's message when a non-empty value fails it, else undefined. Numbers are checked as text. */
export function check(rule: Rule | RuleName, value: unknown): string | undefined {
  const r = typeof rule === 'string' ? rules[rule] : rule;
  if (value === undefined || value === null) return undefined;
  const text = plainText(value).trim();
  if (text === '') return undefined;
  return r.test(text) ? undefined : r.message;
}

/** Required-field check: the message when the value is empty (undefined, null, blank text, empty array). */
export function checkRequired(value: unknown, message: string): string | undefined {
  if (value === undefined || value === null) return message;
  if (typeof value === 'string' && value.trim() === '') return message;
  if (Array.isArray(value) && value.length === 0) return message;
  return undefined;
}
