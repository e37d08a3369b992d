/** The list's column picker rules: any column can be hidden, but at least one stays (请至少选择一列). */

export const AT_LEAST_ONE_COLUMN = '请至少选择一列';

export function toggleColumn(hidden: readonly string[], name: string, all: readonly string[]): { hidden: string[]; refused: boolean } {
  const known = hidden.filter((h) => all.includes(h));
  if (known.includes(name)) return { hidden: known.filter((h) => h !== name), refused: false };
  const visible = all.filter((c) => !known.includes(c));
  if (visible.length <= 1) return { hidden: known, refused: true };
  return { hidden: [...known, name], refused: false };
}

export const hiddenColumnsKey = (resource: string) => `${resource}.hiddenColumns`;
