/**
 * 首页's summary as the server answers it (GET /api/home/summary), and where each to-do opens:
 * the list of its resource with the item's filter in the address (react-admin reads `filter`).
 */
import type { Summary, SummaryChart, SummaryItem } from '../../../../shared/home-summary.ts';

export type { Summary, SummaryChart, SummaryItem };
export const SUMMARY_URL = '/api/home/summary';

/** The console address of an item's filtered list. */
export function listLocation(item: Pick<SummaryItem, 'resource' | 'filter'>): { pathname: string; search: string } | null {
  if (!item.resource) return null;
  return { pathname: `/${item.resource}`, search: `?${new URLSearchParams({ filter: JSON.stringify(item.filter) })}` };
}

/** Sent to open the system messages drawer of the header (its bell listens). */
export const OPEN_NOTICES_EVENT = 'shell:open-notices';

export function openNotices(): void {
  window.dispatchEvent(new CustomEvent(OPEN_NOTICES_EVENT));
}
