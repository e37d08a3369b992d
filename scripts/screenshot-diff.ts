/**
 * Compares a guide picture with the screen it shows (docs-screenshots.ts --check): the share of
 * pixels that differ (pixelmatch, per-pixel colour threshold 0.1, anti-aliasing ignored), where
 * the rows one picture has beyond the other's height all count as differing. Up to TOLERANCE the
 * picture still shows its screen (text drawn a pixel apart); the parts that change with every
 * run (the captcha, the demo rows' times: `changing`) are left out of the comparison. A renamed
 * label, a new column or a moved button changes more.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** The largest share of differing pixels a picture may have and still show its screen. */
export const TOLERANCE = 0.005;

/** A rectangle of a picture, in pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PictureDiff {
  name: string;
  /** the share of pixels that differ, 0-1 */
  share: number;
  ok: boolean;
  text: string;
}

/** Paints the boxes black in both pictures, so what they hold is not compared. */
function blank(pngs: PNG[], boxes: Box[]): void {
  for (const png of pngs) {
    for (const b of boxes) {
      const x0 = Math.max(0, Math.floor(b.x) - 2);
      const x1 = Math.min(png.width, Math.ceil(b.x + b.width) + 2);
      const y0 = Math.max(0, Math.floor(b.y) - 2);
      const y1 = Math.min(png.height, Math.ceil(b.y + b.height) + 2);
      for (let y = y0; y < y1; y++) png.data.fill(0, (y * png.width + x0) * 4, (y * png.width + x1) * 4);
    }
  }
}

export function comparePictures(docsFile: string, takenFile: string, changing: Box[] = []): PictureDiff {
  const name = basename(docsFile);
  if (!existsSync(docsFile)) return { name, share: 1, ok: false, text: 'no picture in the docs for this screen' };
  const a = PNG.sync.read(readFileSync(docsFile));
  const b = PNG.sync.read(readFileSync(takenFile));
  const size = `${a.width}×${a.height} in the docs, ${b.width}×${b.height} now`;
  if (a.width !== b.width) return { name, share: 1, ok: false, text: `another width: ${size}` };
  blank([a, b], changing);
  const height = Math.min(a.height, b.height);
  const rows = (png: PNG) => png.data.subarray(0, png.width * height * 4);
  const differing = pixelmatch(rows(a), rows(b), undefined, a.width, height, { threshold: 0.1 });
  const share = (differing + a.width * Math.abs(a.height - b.height)) / (a.width * Math.max(a.height, b.height));
  const ok = share <= TOLERANCE;
  return { name, share, ok, text: `${(share * 100).toFixed(2)} % of pixels differ (${size}; at most ${TOLERANCE * 100} %)` };
}
