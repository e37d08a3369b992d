/**
 * The accessible name of a header button with a count badge: its name and, when the badge
 * shows, the count as the badge shows it (99+), so the name holds the button's visible text
 * (WCAG 2.5.3 Label in Name; axe's label-content-name-mismatch): 系统消息：未读消息3条. The
 * separator is a colon, not brackets: checkers drop a bracketed part (full-width brackets
 * included, after Unicode normalisation) before they look for the visible text in the name.
 */
export function countedName(name: string, what: string, count: number, max = 99): string {
  if (!count || count <= 0) return name;
  return `${name}：${what}${count > max ? `${max}+` : count}条`;
}
