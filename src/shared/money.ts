/**
 * Money (`"x-money": true` on a number property): amounts in yuan with at most two decimals,
 * stored exactly as integer cents (fen) on both databases, summed as integers, shown and
 * exchanged (JSON, spreadsheets) as yuan numbers such as 12.34.
 */

/** The spec's message for an amount with more than two decimals. */
export const MONEY_MESSAGE = '最多只能输入两位小数';

/** Largest amount in yuan whose cents a double still holds exactly (well below 2^53 / 100). */
export const MONEY_LIMIT = 9e13;

/**
 * A finite number with at most two decimals. A double written with two decimals (12.34) is the
 * double nearest that decimal, and so is cents / 100 for its cents: the round trip is exact.
 */
export function isMoneyAmount(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > MONEY_LIMIT) return false;
  return Math.round(value * 100) / 100 === value;
}

/** Yuan -> integer cents (the stored value). */
export function toCents(yuan: number): number {
  return Math.round(yuan * 100);
}

/** Integer cents (a number, or a bigint / numeric text from PostgreSQL) -> yuan. */
export function fromCents(cents: unknown): number {
  const n = typeof cents === 'number' ? cents : Number(cents);
  return Math.round(n) / 100;
}
