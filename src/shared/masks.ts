/**
 * Display masks (x-mask on a property): the list and read-only views show these; the stored
 * value is untouched. Characters are counted as characters, not UTF-16 units.
 */
import type { MaskKind } from './resource-spec.ts';
import { plainText } from './text.ts';

/**
 * Shows `head` characters at the start and `tail` at the end, the rest starred; never more
 * than a third of the characters (floor(n/3)): a short value loses its tail first, then its head.
 */
function keep(value: string, head: number, tail: number): string {
  // a value masked already (a list answer shown again in a form) stays as it is: masked twice, it would lose its shown part
  if (value.includes('*')) return value;
  const chars = [...value];
  const most = Math.floor(chars.length / 3);
  const t = Math.min(tail, most);
  const h = Math.min(head, most - t);
  return chars.slice(0, h).join('') + '*'.repeat(chars.length - h - t) + chars.slice(chars.length - t).join('');
}

/** A mobile number as the national convention masks it: 1[3-9] and 9 digits. */
const MOBILE = /^1[3-9]\d{9}$/;
/** An ID number of 18 (or the older 15) characters. */
const ID_NUMBER = /^(\d{17}[\dXx]|\d{15})$/;

/**
 * Phone: a mobile keeps its first 3 and last 4 digits, e.g. 138****5678 (the national
 * convention, GB/T 35273); any other number keeps at most a third, from its end.
 */
export function maskPhone(value: string): string {
  if (MOBILE.test(value)) return `${value.slice(0, 3)}****${value.slice(7)}`;
  return keep(value, 3, 4);
}

/** Name: the first character only, e.g. 欧**, 张*; a one-character name is starred whole. */
export function maskName(value: string): string {
  const chars = [...value];
  return chars.length <= 1 ? '*'.repeat(chars.length) : chars[0] + '*'.repeat(chars.length - 1);
}

/**
 * ID number: an 18- or 15-character number keeps its first 4 and last 5 characters, e.g.
 * 1101*********1002X (the convention); anything else keeps at most a third.
 */
export function maskIdNumber(value: string): string {
  if (ID_NUMBER.test(value)) return `${value.slice(0, 4)}${'*'.repeat(value.length - 9)}${value.slice(-5)}`;
  return keep(value, 4, 5);
}

/**
 * E-mail: the domain stays; of the local part at most its first 3 characters and never more
 * than a third of it, e.g. zh******@example.com, **@qq.com.
 */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 0) return keep(value, 3, 0);
  return keep(value.slice(0, at), 3, 0) + value.slice(at);
}

/** Bank card: the last 4 digits, e.g. ************1234 (a short number: at most a third). */
export function maskBankCard(value: string): string {
  return keep(value, 0, 4);
}

/** Address: the first 6 characters (province and city), at most a third, the rest starred. */
export function maskAddress(value: string): string {
  return keep(value, 6, 0);
}

/** A date of birth: the year only, e.g. 1990-**-**; a value that is not a date keeps at most a third. */
export function maskDate(value: string): string {
  return /^\d{4}-\d{1,2}-\d{1,2}/.test(value) ? `${value.slice(0, 4)}-**-**` : keep(value, 0, 0);
}

export const MASKS: Record<MaskKind, (value: string) => string> = {
  phone: maskPhone,
  name: maskName,
  id: maskIdNumber,
  email: maskEmail,
  bankCard: maskBankCard,
  address: maskAddress,
  date: maskDate,
};

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];

/** Whether an 18-character text is a mainland ID number with a right check digit (GB 11643). */
export function isIdNumber(text: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(text)) return false;
  const sum = ID_WEIGHTS.reduce((n, w, i) => n + w * Number(text[i]), 0);
  return '10X98765432'[sum % 11] === text[17].toUpperCase();
}

/** Whether a digit string passes the Luhn check bank cards carry. */
export function isLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Free text with the personal data in it masked (for text that is not a marked property, such
 * as the parameters the operation log records): an ID number is 18 characters with a right
 * check digit, a bank card 16 to 19 digits passing the Luhn check, a mobile 1[3-9] and 9
 * digits, an e-mail anything@domain, each standing alone.
 */
export function maskPersonalText(text: string): string {
  return text
    .replace(/(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])/g, (m) => (isIdNumber(m) ? maskIdNumber(m) : m))
    .replace(/(?<![\dA-Za-z])\d{16,19}(?![\dA-Za-z])/g, (m) => (isLuhn(m) ? maskBankCard(m) : m))
    .replace(/(?<!\d)1[3-9]\d{9}(?!\d)/g, (m) => maskPhone(m))
    .replace(/[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g, (m) => maskEmail(m));
}

/** Masks a value for display; empty values (undefined, null, '') come back as ''. */
export function mask(kind: MaskKind, value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = plainText(value);
  return text === '' ? '' : MASKS[kind](text);
}
