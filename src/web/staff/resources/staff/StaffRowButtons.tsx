/**
 * Per-row buttons of the roster (员工花名册): 调岗 and 离职 (on-staff entries) and the 企业微信
 * menu need staff:edit; 调岗记录 is open to whoever sees the roster.
 */
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import LogoutIcon from '@mui/icons-material/Logout';
import HistoryIcon from '@mui/icons-material/History';
import { usePermissions, useRecordContext, useRefresh } from 'react-admin';
import { hasPermission } from '../../../common/session.ts';
import { HistoryDialog } from './HistoryDialog.tsx';
import { LeaveDialog } from './LeaveDialog.tsx';
import { TransferDialog } from './TransferDialog.tsx';
import { WecomMenu } from './WecomMenu.tsx';

export function StaffRowButtons() {
  const record = useRecordContext();
  const { permissions } = usePermissions<string[]>();
  const refresh = useRefresh();
  const [open, setOpen] = useState<'transfer' | 'leave' | 'history' | null>(null);
  if (!record) return null;
  const canEdit = hasPermission(permissions, 'staff:edit');
  const onStaff = Number(record.status) === 1;
  const done = () => {
    setOpen(null);
    refresh();
  };

  return (
    <>
      {canEdit && onStaff ? (
        <>
          <Tooltip title="调岗">
            <IconButton size="small" color="primary" aria-label="调岗" onClick={() => setOpen('transfer')}>
              <SwapHorizIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="离职">
            <IconButton size="small" color="warning" aria-label="离职" onClick={() => setOpen('leave')}>
              <LogoutIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </>
      ) : null}
      {canEdit ? <WecomMenu record={record} onDone={refresh} /> : null}
      <Tooltip title="调岗记录">
        <IconButton size="small" aria-label="调岗记录" onClick={() => setOpen('history')}>
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open === 'transfer' ? <TransferDialog record={record} onClose={() => setOpen(null)} onDone={done} /> : null}
      {open === 'leave' ? <LeaveDialog record={record} onClose={() => setOpen(null)} onDone={done} /> : null}
      {open === 'history' ? <HistoryDialog id={Number(record.id)} name={String(record.name ?? '')} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
