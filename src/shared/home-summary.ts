/** 首页's summary as GET /api/home/summary answers it: the server builds it, the home screen shows it. */
export interface SummaryItem {
  key: string;
  title: string;
  count: number;
  /** the list it opens (null: the caller's system messages) */
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
  /** the first and last day of the charts (YYYY-MM-DD, server time) */
  from: string;
  to: string;
}
