/**
 * Every pager in the product reads alike ("第 1-15 条，共 N 条", 每页条数): a hand-written table's
 * pager is TablePager, which takes its words from pagerLabels.ts. A screen that uses MUI's
 * TablePagination directly, or words its own range, fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = join(import.meta.dirname, '../../src/web');
const PAGER = 'components/TablePager.tsx';
/** the theme's defaults for every MUI pager (react-admin's lists included) take the same words */
const THEME_DEFAULTS = 'common/muiChinese.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('pager words', () => {
  const files = filesUnder(WEB).map((path) => ({ name: relative(WEB, path), text: readFileSync(path, 'utf8') }));

  it('finds the shared pager', () => {
    expect(files.some((f) => f.name === PAGER && f.text.includes('rangeLabel'))).toBe(true);
  });

  it('no screen builds a pager of its own', () => {
    const own = files
      .filter((f) => f.name !== PAGER && f.name !== THEME_DEFAULTS)
      .filter((f) => /@mui\/material\/TablePagination|\bTablePagination\b|labelDisplayedRows/.test(f.text))
      .map((f) => f.name);
    expect(own).toEqual([]);
  });
});
