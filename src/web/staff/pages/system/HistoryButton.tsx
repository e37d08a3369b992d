/**
 * 历史记录 for a record of a hand-written administration screen (用户管理, 角色管理, 菜单管理,
 * 部门管理, 字典管理, 系统设置): a small row button that opens the same timeline dialog as the
 * generated screens (schema/HistoryDialog.tsx), read from the table's own history route. Shown
 * to holders of the screen's `:list` key; 恢复到此版本 in it for holders of `:edit`.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import { TABLE_HISTORY, type TrackedTableName } from '../../../../shared/table-history.ts';
import { HistoryDialog } from '../../schema/HistoryDialog.tsx';
import { useCan } from './common.tsx';

export interface HistoryButtonProps {
  table: TrackedTableName;
  id: number;
  /** after a restore: the screen reads its rows again */
  onRestored?: () => void;
  variant?: 'text' | 'outlined';
}

export function HistoryButton({ table, id, onRestored, variant = 'text' }: HistoryButtonProps) {
  const can = useCan();
  const [open, setOpen] = useState(false);
  const spec = TABLE_HISTORY[table];
  if (!can(`${spec.permission}:list`)) return null;
  return (
    <>
      {/* named by its text alone: a row's cells are found by the record's name, which the button must not repeat */}
      <Button size="small" variant={variant} onClick={() => setOpen(true)}>
        历史记录
      </Button>
      {open ? (
        <HistoryDialog
          spec={spec}
          recordId={id}
          canRestore={can(`${spec.permission}:edit`)}
          onClose={() => setOpen(false)}
          onRestored={onRestored}
        />
      ) : null}
    </>
  );
}
