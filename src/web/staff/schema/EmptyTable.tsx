/**
 * What a generated list shows when it has no rows: the header row of its columns with
 * 暂无数据 under it (as an eladmin table does), so the screen keeps its shape, and a sentence
 * saying what to do: change the search when one is set, else 新增 when the user may add.
 */
import { isValidElement, type ReactElement } from 'react';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useListContext } from 'react-admin';
import { EmptyMessage } from '../../components/TableState.tsx';

/** The header texts of list columns (their `label` props). */
export function columnLabels(columns: ReactElement[]): string[] {
  return columns.map((c) => (isValidElement<{ label?: unknown }>(c) && typeof c.props.label === 'string' ? c.props.label : ''));
}

/** The hint under 暂无数据: what the user can do about an empty list. */
export function emptyHint(filtered: boolean, canAdd: boolean): string | undefined {
  if (filtered) return '没有符合搜索条件的记录，可修改或清空搜索条件后再试';
  if (canAdd) return '还没有记录，可点击「新增」添加';
  return undefined;
}

const isSet = (v: unknown): boolean =>
  v !== undefined &&
  v !== null &&
  v !== '' &&
  !(Array.isArray(v) && !v.some(isSet)) &&
  !(typeof v === 'object' && !Array.isArray(v) && !Object.values(v).some(isSet));

export function EmptyTable({ labels, canAdd = false }: { labels: string[]; canAdd?: boolean }) {
  const filterValues = useListContext().filterValues as Record<string, unknown> | undefined;
  const filtered = Object.values(filterValues ?? {}).some(isSet);
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto', containerType: 'inline-size' }}>
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
              <EmptyMessage hint={emptyHint(filtered, canAdd)} />
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </Paper>
  );
}
