/** The row a hand-written table shows instead of data: a spinner while loading, then 加载失败，请刷新重试 or 暂无数据. */
import CircularProgress from '@mui/material/CircularProgress';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';

export function TableState({ loading, failed, empty, columns }: { loading: boolean; failed: boolean; empty: boolean; columns: number }) {
  if (!loading && !failed && !empty) return null;
  return (
    <TableRow>
      <TableCell colSpan={columns} align="center" sx={{ color: 'text.secondary', py: 3 }}>
        {loading ? <CircularProgress size={20} aria-label="正在加载" /> : failed ? '加载失败，请刷新重试' : '暂无数据'}
      </TableCell>
    </TableRow>
  );
}
