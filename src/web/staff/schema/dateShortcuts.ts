/**
 * Shortcuts of the date-range picker: 今天, 明天, 3天后, 1周后, 半个月后, 1个月后. Each picks
 * the range from today to that day (今天: today alone). Dates are local 'YYYY-MM-DD'.
 */

export const DATE_SHORTCUTS = ['今天', '明天', '3天后', '1周后', '半个月后', '1个月后'] as const;
export type DateShortcut = (typeof DATE_SHORTCUTS)[number];

const pad = (n: number) => String(n).padStart(2, '0');
export const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

export function shortcutDay(label: DateShortcut, now: Date = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  switch (label) {
    case '明天':
      d.setDate(d.getDate() + 1);
      break;
    case '3天后':
      d.setDate(d.getDate() + 3);
      break;
    case '1周后':
      d.setDate(d.getDate() + 7);
      break;
    case '半个月后':
      d.setDate(d.getDate() + 15);
      break;
    case '1个月后': {
      // the same day next month, or its last day when it has none (Jan 31 -> Feb 28/29)
      const day = d.getDate();
      d.setDate(1);
      d.setMonth(d.getMonth() + 1);
      const last = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
      d.setDate(Math.min(day, last));
      break;
    }
    default:
      break;
  }
  return localDate(d);
}

export function shortcutRange(label: DateShortcut, now: Date = new Date()): [string, string] {
  return [localDate(now), shortcutDay(label, now)];
}
