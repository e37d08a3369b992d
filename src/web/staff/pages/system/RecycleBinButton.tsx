/**
 * 回收站 of a hand-written administration screen (用户管理, 角色管理, 菜单管理, 部门管理, 字典管理
 * and its details): a toolbar button for holders of the screen's `:del` key that opens the same
 * dialog as the generated screens (schema/RecycleBinDialog.tsx), on the table's own bin routes.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { TABLE_HISTORY, type TrackedTableName } from '../../../../shared/table-history.ts';
import { lazyPart } from '../../lazyPart.tsx';
import { useCan } from './common.tsx';

// the bin's own table comes when first opened
const RecycleBinDialog = lazyPart(() => import('../../schema/RecycleBinDialog.tsx'), 'RecycleBinDialog');

export interface RecycleBinButtonProps {
  table: TrackedTableName;
  /** after records came back: the screen reads its rows again */
  onRestored: () => void;
  /** the button's text (default 回收站; the dictionary screen has one for the details too) */
  label?: string;
}

export function RecycleBinButton({ table, onRestored, label = '回收站' }: RecycleBinButtonProps) {
  const can = useCan();
  const [open, setOpen] = useState(false);
  const spec = TABLE_HISTORY[table];
  if (!can(`${spec.permission}:del`)) return null;
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<RestoreFromTrashIcon />}
        onClick={() => setOpen(true)}
        sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
      >
        {label}
      </Button>
      {open ? <RecycleBinDialog spec={spec} open onClose={() => setOpen(false)} onRestored={onRestored} /> : null}
    </>
  );
}
