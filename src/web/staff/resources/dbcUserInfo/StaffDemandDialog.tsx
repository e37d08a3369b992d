/**
 * 代客提交用车需求: staff (submitDbcInfo:add) submit a car-use demand for a dealer's customer from the
 * 用车客户 list. The same form as the dealer's (src/web/components/DemandForm.tsx) with the car-type
 * cascader read from GET /api/brandTree/getTreeByPid (enabled nodes), sent to
 * POST /api/dbc/dbcInfo/submitDbcInfo with the customer's company.
 */
import { useCallback, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import PostAddIcon from '@mui/icons-material/PostAdd';
import { usePermissions, useNotify, useRecordContext, useRefresh } from 'react-admin';
import type { BrandNode } from '../../../../shared/brand-tree.ts';
import { DemandDialog, EMPTY_DEMAND } from '../../../components/DemandForm.tsx';
import { staffRecognise } from '../../schema/inputs.tsx';
import { request } from '../../../common/http.ts';
import { hasPermission } from '../../../common/session.ts';
import { ERROR_NOTICE_MS, SUCCESS_NOTICE_MS } from '../../schema/notices.ts';

export const SUBMIT_DEMAND_PERMISSION = 'submitDbcInfo:add';

/** Children of a brand-tree node for the staff cascader (enabled nodes only). */
export async function staffCarTypes(pid: number): Promise<BrandNode[]> {
  const { data } = await request<BrandNode[]>('/api/brandTree/getTreeByPid', { query: { pid, enabled: true } });
  return data;
}

export interface StaffDemandDialogProps {
  customer: { id: number; compId: number; surname: string };
  onClose: () => void;
  onSaved: () => void;
  notify: (message: string, type: 'success' | 'error') => void;
}

export function StaffDemandDialog({ customer, onClose, onSaved, notify }: StaffDemandDialogProps) {
  const submit = useCallback(
    async (body: Record<string, unknown>) => {
      await request('/api/dbc/dbcInfo/submitDbcInfo', { method: 'POST', body: { ...body, duId: customer.id, compId: customer.compId } });
      notify('提交成功', 'success');
      onSaved();
    },
    [customer, notify, onSaved],
  );
  return (
    <DemandDialog
      open
      title="代客提交用车需求"
      width={1000}
      customerName={customer.surname}
      initial={EMPTY_DEMAND}
      onClose={onClose}
      onSubmit={submit}
      loadCarTypes={staffCarTypes}
      recognise={staffRecognise}
      onInvalid={(message) => notify(message, 'error')}
    />
  );
}

/** The row button of 用车客户 opening the dialog (shown with submitDbcInfo:add). */
export function SubmitDemandRowButton() {
  const record = useRecordContext();
  const { permissions } = usePermissions<string[]>();
  const raNotify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const notify = useCallback(
    (message: string, type: 'success' | 'error') =>
      raNotify(message, { type, autoHideDuration: type === 'success' ? SUCCESS_NOTICE_MS : ERROR_NOTICE_MS }),
    [raNotify],
  );
  if (!record || !hasPermission(permissions, SUBMIT_DEMAND_PERMISSION)) return null;
  return (
    <>
      <Tooltip title="代客提交用车需求">
        <IconButton size="small" aria-label="代客提交用车需求" onClick={() => setOpen(true)}>
          <PostAddIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open ? (
        <StaffDemandDialog
          customer={{ id: Number(record.id), compId: Number(record.compId), surname: String(record.surname ?? '') }}
          onClose={() => setOpen(false)}
          onSaved={() => {
            setOpen(false);
            refresh();
          }}
          notify={notify}
        />
      ) : null}
    </>
  );
}
