/**
 * The total line under a list whose schema declares `x-entity.total`: the server sums the
 * fields over the list's current filters (`GET {path}/total`), so it covers every page.
 */
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useListContext, type RaRecord } from 'react-admin';
import { fieldByName, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { listQuery } from '../providers/dataProvider.ts';
import { request } from '../../common/http.ts';

export function formatTotal(n: number): string {
  return n.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function TotalLine({ spec, fixed }: { spec: ResourceSpec; fixed?: Record<string, unknown> }) {
  const list = useListContext<RaRecord>();
  const [totals, setTotals] = useState<Record<string, number> | null>(null);
  const [failed, setFailed] = useState(false);
  const filterKey = JSON.stringify({ ...(list.filterValues as Record<string, unknown>), ...fixed });
  // refetch when the list refetches (a save, a delete, a refresh)
  const stamp = list.data?.map((r) => r.id).join(',') ?? '';
  useEffect(() => {
    if (!spec.total?.length) return;
    let live = true;
    // the filter as the key holds it (react-admin keeps filter values as JSON in the URL and store)
    const query = listQuery({ filter: JSON.parse(filterKey) as Record<string, unknown> });
    delete query.page;
    delete query.size;
    request<Record<string, number>>(`/${spec.path}/total`, { query, quiet: true })
      .then(({ data }) => {
        if (live) {
          setTotals(data);
          setFailed(false);
        }
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [spec, filterKey, stamp, list.total]);
  if (!spec.total?.length) return null;
  const text = failed
    ? '合计加载失败，请刷新重试'
    : totals
      ? `合计（共 ${totals.count ?? 0} 条）：${spec.total.map((name) => `${fieldByName(spec, name)?.title ?? name} ${formatTotal(Number(totals[name] ?? 0))}`).join('，')}`
      : '合计计算中…';
  return (
    <Typography
      role="status"
      aria-label="合计"
      variant="body2"
      sx={{ px: 2, py: 1, fontWeight: 600, borderTop: 1, borderColor: 'divider' }}
    >
      {text}
    </Typography>
  );
}
