/**
 * The API's date texts, checked against the calendar: 'YYYY-MM-DD' and 'YYYY-MM-DD HH:mm:ss'.
 * Used by the schema validator on the server and by the date fields of the web app.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1];
}

/** 'YYYY-MM-DD' with a real calendar day. */
export function isApiDate(value: string): boolean {
  const m = DATE.exec(value);
  return !!m && validDay(+m[1], +m[2], +m[3]);
}

/** 'YYYY-MM-DD HH:mm:ss' with a real calendar day. */
export function isApiDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  return !!m && validDay(+m[1], +m[2], +m[3]);
}
