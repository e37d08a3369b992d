/**
 * 首页's summary as the server answers it (GET /api/home/summary), and where each to-do opens:
 * the list of its resource with the item's filter in the address (react-admin reads `filter`).
 */
export const SUMMARY_URL = '/api/home/summary';

export interface SummaryItem {
  key: string;
  title: string;
  count: number;
  /** the list it opens; null: the caller's system messages */
  resource: string | null;
  filter: Record<string, string | number | boolean>;
}

export interface SummaryChart {
  key: string;
  title: string;
  resource: string;
  days: Array<{ date: string; count: number }>;
}

export interface Summary {
  items: SummaryItem[];
  charts: SummaryChart[];
  from: string;
  to: string;
}

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
