/**
 * The product's colours reach WCAG 2.1 AA contrast (4.5:1 for normal text): the theme blue and
 * every colour 布局设置 offers, with white text on them and as text on white; the muted, emphasis
 * and warning texts on their backgrounds; and a browser remembering a former choice gets its
 * replacement, which passes too.
 */
import { describe, expect, it } from 'vitest';
import {
  BRAND_BLUE,
  BRAND_BLUE_ON_DARK,
  EMPHASIS_RED,
  FORMER_THEME_COLORS,
  MUTED_TEXT,
  STATUS_PALETTE,
  THEME_COLORS,
  WARNING_TEXT,
} from '../../src/web/common/palette.ts';

/** WCAG 2.1 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('colour contrast of the palette', () => {
  it('measures as WCAG does (the former blue #1890ff is 3.24:1 on white)', () => {
    expect(contrast('#1890ff', '#ffffff')).toBeCloseTo(3.24, 2);
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });

  it('the theme blue and every offered theme colour: 4.5:1 with white', () => {
    expect(THEME_COLORS[0]).toBe(BRAND_BLUE);
    for (const colour of THEME_COLORS) expect(contrast(colour, '#ffffff'), colour).toBeGreaterThanOrEqual(4.5);
  });

  it('former choices map to passing colours that 布局设置 offers', () => {
    for (const [former, now] of Object.entries(FORMER_THEME_COLORS)) {
      expect(contrast(former, '#ffffff'), former).toBeLessThan(4.5);
      expect(THEME_COLORS as readonly string[]).toContain(now);
    }
  });

  it('status buttons, muted and emphasised text, the warning strip and the dark sidebars', () => {
    expect(contrast(STATUS_PALETTE.warning.main, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(STATUS_PALETTE.info.main, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(MUTED_TEXT, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(EMPHASIS_RED, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(WARNING_TEXT, '#fdf6ec')).toBeGreaterThanOrEqual(4.5);
    for (const sidebar of ['#304156', '#324c6a', '#263445'])
      expect(contrast(BRAND_BLUE_ON_DARK, sidebar), sidebar).toBeGreaterThanOrEqual(4.5);
  });
});
