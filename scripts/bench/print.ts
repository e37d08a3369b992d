/** Printing figures next to their targets (no server code: the web benchmark imports it before it starts a server). */

export function fmt(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return String(n);
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function mb(bytes: number): string {
  return `${fmt(bytes / 1024 / 1024, 0)} MB`;
}

export function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS';
}

export function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, i) =>
    Math.max(...rows.map((r) => [...(r[i] ?? '')].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0))),
  );
  for (const r of rows) {
    console.log(
      r
        .map((cell, i) => {
          const w = [...cell].reduce((acc, ch) => acc + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0);
          return i === 0 ? cell + ' '.repeat(widths[i] - w) : ' '.repeat(widths[i] - w) + cell;
        })
        .join('  '),
    );
  }
}

export function heading(text: string): void {
  console.log(`\n=== ${text} ===`);
}
