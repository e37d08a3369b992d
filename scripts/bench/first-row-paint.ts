/**
 * A page's init script (playwright's `addInitScript`) that records when the list's first data
 * row enters the DOM (`window.__rowAt`) and when the browser paints it (`window.__rowPaint`): the
 * row's elements are marked for Element Timing before the frame that shows them (the mutation
 * observer runs first). Self-contained: it is sent to the browser as its source text.
 */
export function watchFirstRowPaint(): void {
  const w = window as unknown as { __rowAt?: number; __rowPaint?: number };
  const rows = new MutationObserver(() => {
    const row = document.querySelector('table tbody tr.RaDatagrid-row');
    if (!row) return;
    w.__rowAt = performance.now();
    rows.disconnect();
    for (const el of row.querySelectorAll('*')) el.setAttribute('elementtiming', 'first-row');
  });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEntry[] & Array<{ identifier: string; renderTime: number; loadTime: number }>) {
      if (e.identifier !== 'first-row') continue;
      const at = e.renderTime || e.loadTime;
      if (at) w.__rowPaint = Math.min(w.__rowPaint ?? Infinity, at);
    }
  }).observe({ type: 'element', buffered: true });
  document.addEventListener('DOMContentLoaded', () => rows.observe(document.body, { childList: true, subtree: true }));
}
