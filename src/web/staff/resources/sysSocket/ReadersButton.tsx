/** The 已读人员 button of a 系统消息推送 row: who read the message (holders of sysSocket:edit, as the server asks). */
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import { usePermissions, useRecordContext } from 'react-admin';
import { hasPermission } from '../../../common/session.ts';
import { ReadersDialog } from './ReadersDialog.tsx';

export function ReadersButton() {
  const record = useRecordContext();
  const { permissions } = usePermissions<string[]>();
  const [open, setOpen] = useState(false);
  if (!record || !hasPermission(permissions, 'sysSocket:edit')) return null;
  return (
    <>
      <Tooltip title="已读人员">
        <IconButton size="small" color="primary" aria-label="已读人员" onClick={() => setOpen(true)}>
          <DoneAllIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <ReadersDialog id={Number(record.id)} title={String(record.title ?? '')} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
