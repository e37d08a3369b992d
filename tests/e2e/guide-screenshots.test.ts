/**
 * The pictures of the user guide and the README show the screens as they are: the screenshot
 * script (npm run docs:screenshots) takes every picture again on the running product with the demo
 * data, into a temporary folder, and each is compared with its file in the docs
 * (scripts/screenshot-diff.ts: at most TOLERANCE of the pixels may differ, the captcha and the
 * times of the demo rows left out). A screen that changed fails here until the pictures are taken
 * again; a picture in the docs that the script does not take fails too.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkShots } from '../../scripts/docs-screenshots.ts';

const pictures = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.png'));

describe('the pictures of the guide and the README', () => {
  it('every picture still shows its screen, and every picture is one the script takes', { timeout: 900_000 }, async () => {
    const diffs = await checkShots();
    for (const d of diffs) console.log(`${d.ok ? 'same' : 'DIFFERS'}  ${d.name}: ${d.text}`);
    const inDocs = [...pictures('docs/用户手册/images'), ...pictures('docs/images')].sort();
    expect(inDocs.length).toBeGreaterThan(20);
    expect(diffs.map((d) => d.name).sort()).toEqual(inDocs);
    expect(diffs.filter((d) => !d.ok).map((d) => `${d.name}: ${d.text}`)).toEqual([]);
  });
});
