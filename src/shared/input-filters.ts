/**
 * Input filters: what an input keeps while the user types (the spec's input restrictions).
 * Each takes the typed text and answers the text to show; pair them with the validators for
 * the message on submit.
 */

/** Sign-in account: word characters only (letters, digits, _). */
export function keepWordCharacters(v: string): string {
  return v.replace(/\W/g, '');
}

/** Sign-in captcha: digits and minus (answers may be negative). */
export function keepDigitsAndMinus(v: string): string {
  return v.replace(/[^\d-]/g, '');
}

/** Digits only, optionally at most `max` of them (e.g. custom lock minutes: 3). */
export function keepDigits(v: string, max?: number): string {
  const d = v.replace(/\D/g, '');
  return max === undefined ? d : d.slice(0, max);
}

/** Positive integer: digits without leading zeros. */
export function keepPositiveInteger(v: string): string {
  return v.replace(/\D/g, '').replace(/^0+/, '');
}

/** Non-negative number: digits and one decimal point. */
export function keepNonNegativeNumber(v: string): string {
  const s = v.replace(/[^\d.]/g, '');
  const dot = s.indexOf('.');
  return dot < 0 ? s : s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
}

/** Number with at most two decimals: digits and one decimal point, two digits after it. */
export function keepTwoDecimals(v: string): string {
  const s = keepNonNegativeNumber(v);
  const dot = s.indexOf('.');
  return dot < 0 ? s : s.slice(0, dot + 3);
}

/** The spec's input restrictions: what each keeps while typing, and the notice when it dropped something. */
export type RestrictionKind = 'positiveInteger' | 'nonNegative' | 'greaterThanZero' | 'positiveTwoDecimals' | 'digits' | 'twoDecimals';

export interface Restriction {
  keep: (v: string) => string;
  message: string;
  /** how long the notice stays, ms */
  durationMs: number;
}

export const RESTRICTIONS: Record<RestrictionKind, Restriction> = {
  positiveInteger: { keep: keepPositiveInteger, message: '请输入正整数', durationMs: 2500 },
  nonNegative: { keep: keepNonNegativeNumber, message: '请输入非负数', durationMs: 2500 },
  greaterThanZero: { keep: keepNonNegativeNumber, message: '请输入大于0的数', durationMs: 2500 },
  positiveTwoDecimals: { keep: keepTwoDecimals, message: '请输入大于0的两位小数', durationMs: 2500 },
  digits: { keep: (v) => keepDigits(v), message: '请输入数字', durationMs: 2500 },
  twoDecimals: { keep: keepTwoDecimals, message: '请输入保留两位小数的数字', durationMs: 1500 },
};

/** Applies a restriction to typed text: the kept text, and the message when something was dropped. */
export function restrictInput(kind: RestrictionKind, typed: string): { value: string; message: string | null } {
  const r = RESTRICTIONS[kind];
  const value = r.keep(typed);
  return { value, message: value === typed ? null : r.message };
}

/**
 * The restriction a numeric schema property implies: integers >= 1 positive integers, other
 * integers >= 0 digits; numbers in hundredths (multipleOf 0.01 or x-money) two decimals (greater than 0 when the minimum
 * excludes 0); other numbers >= 0 non-negative. Null when none applies (negative numbers allowed).
 */
export function restrictionFor(prop: {
  type?: unknown;
  minimum?: unknown;
  exclusiveMinimum?: unknown;
  multipleOf?: unknown;
  'x-money'?: unknown;
}): RestrictionKind | null {
  const min =
    typeof prop.minimum === 'number' ? prop.minimum : typeof prop.exclusiveMinimum === 'number' ? prop.exclusiveMinimum + 1e-9 : undefined;
  if (min === undefined || min < 0) return null;
  if (prop.type === 'integer') return min >= 1 ? 'positiveInteger' : 'digits';
  if (prop.multipleOf === 0.01 || prop['x-money'] === true) return min > 0 ? 'positiveTwoDecimals' : 'twoDecimals';
  return min > 0 ? 'greaterThanZero' : 'nonNegative';
}
