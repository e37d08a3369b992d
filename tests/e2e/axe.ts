/**
 * axe-core in the browser tests: WCAG 2.1 A and AA rules (colour contrast included) over the page
 * or a part of it, answering the critical and serious violations as readable lines, so a failing
 * expectation names the rule, the element (selector and the start of its HTML) and axe's summary
 * of what to fix.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The rule sets checked: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The impacts that fail a screen (moderate and minor ones are left to review). */
const FAILING = new Set(['critical', 'serious']);

interface Found {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: Array<{ target: string[]; html: string; summary: string }>;
}

/** Puts axe into the current document once (a new document, after a full load, gets it again). */
async function inject(page: Page): Promise<void> {
  const present = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  // evaluated through the debugging protocol, so the page's Content-Security-Policy does not apply
  if (!present) await page.evaluate(axe.source);
}

/**
 * The critical and serious WCAG 2.1 AA violations on the page, or inside `include` (a CSS
 * selector) when given, one line per element: `rule (impact) selector html: summary`.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  await inject(page);
  const found = await page.evaluate(
    async ({ include, tags }) => {
      const engine = (window as unknown as { axe: typeof axe }).axe;
      const result = await engine.run(include ? { include: [include] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return result.violations.map((v): Found => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target.map(String),
          html: n.html.slice(0, 160),
          summary: (n.failureSummary ?? '').replace(/\s+/g, ' '),
        })),
      }));
    },
    { include, tags: WCAG_TAGS },
  );
  const lines: string[] = [];
  for (const v of found) {
    if (!FAILING.has(v.impact ?? '')) continue;
    for (const n of v.nodes) lines.push(`${v.id} (${v.impact}) ${n.target.join(' ')} ${n.html}: ${n.summary.slice(0, 300)}`);
  }
  return lines;
}
