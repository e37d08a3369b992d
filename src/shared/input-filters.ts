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
