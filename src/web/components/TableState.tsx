/**
 * The row a hand-written table shows instead of data: a spinner while loading, then 加载失败，请刷新重试
 * or 暂无数据 with, when given, a sentence saying what to do.
 */
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';

/**
 * 暂无数据 and its hint. In a table wider than its scrolling box the message stays in the visible
 * part (left-pinned, at most as wide as the nearest size container, ScrollX, or else the window) instead of the middle of the whole table.
 */
export function EmptyMessage({ hint, children = '暂无数据' }: { hint?: string; children?: string }) {
  return (
    <Box data-testid="empty-state" sx={{ position: 'sticky', left: 0, width: 'min(100%, calc(100cqw - 32px))', textAlign: 'center' }}>
      <div>{children}</div>
      {hint ? <Box sx={{ mt: 0.5, fontSize: 13, whiteSpace: 'normal' }}>{hint}</Box> : null}
    </Box>
  );
}

export function TableState({
  loading,
  failed,
  empty,
  columns,
  hint,
}: {
  loading: boolean;
  failed: boolean;
  empty: boolean;
  columns: number;
  hint?: string;
}) {
  if (!loading && !failed && !empty) return null;
  return (
    <TableRow>
      <TableCell colSpan={columns} align="center" sx={{ color: 'text.secondary', py: 3 }}>
        {loading ? (
          <CircularProgress size={20} aria-label="正在加载" />
        ) : (
          <EmptyMessage hint={failed ? undefined : hint}>{failed ? '加载失败，请刷新重试' : '暂无数据'}</EmptyMessage>
        )}
      </TableCell>
    </TableRow>
  );
}
