/**
 * What a generated list shows when it has no rows: the header row of its columns with
 * 暂无数据 under it (as an eladmin table does), so the screen keeps its shape.
 */
import { isValidElement, type ReactElement } from 'react';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

/** The header texts of list columns (their `label` props). */
export function columnLabels(columns: ReactElement[]): string[] {
  return columns.map((c) => (isValidElement<{ label?: unknown }>(c) && typeof c.props.label === 'string' ? c.props.label : ''));
}

export function EmptyTable({ labels }: { labels: string[] }) {
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="列表">
        <TableHead>
          <TableRow>
            {labels.map((label, i) => (
              <TableCell key={i} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                {label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          <TableRow>
            <TableCell colSpan={Math.max(labels.length, 1)} align="center" sx={{ color: 'text.secondary', py: 3 }}>
              暂无数据
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </Paper>
  );
}
