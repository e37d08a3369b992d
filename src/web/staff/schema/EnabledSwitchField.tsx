/**
 * A boolean column edited in the row (`x-list.editable: "switch"`). The confirm
 * 此操作将启用/禁用 是否继续？ comes first; a resource with `x-entity.enabledToggle` on this
 * field saves through `PUT {path}/updateEnabled/{id}` (启用成功 / 禁用成功), any other boolean
 * through the edit call (状态修改成功).
 */
import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { formatMessage, messages } from '../../../shared/messages.ts';
import { request } from '../../common/http.ts';
import { SUCCESS_NOTICE_MS } from './notices.ts';
import { requestBody } from './records.ts';

export function EnabledSwitchField({
  spec,
  field,
  disabled,
}: {
  spec: ResourceSpec;
  field: FieldSpec;
  disabled?: boolean;
  label?: string;
  source?: string;
  sortable?: boolean;
}) {
  const record = useRecordContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [saving, setSaving] = useState(false);
  if (!record) return null;
  const on = record[field.name] === true;
  const next = !on;
  const save = async () => {
    setSaving(true);
    try {
      if (spec.enabledToggle === field.name) {
        await request(`/${spec.path}/updateEnabled/${record.id}`, { method: 'PUT', body: { [field.name]: next } });
        notify(next ? messages.notice.enabled : messages.notice.disabled, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      } else {
        const values = { ...record, [field.name]: next };
        await dataProvider.update(spec.name, { id: record.id, data: requestBody(spec, values, record), previousData: record });
        notify(messages.notice.statusChanged, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      }
      setAsking(false);
      refresh();
    } catch {
      /* the HTTP client has shown the message; the switch stays as it was */
      setAsking(false);
    } finally {
      setSaving(false);
    }
  };
  return (
    <span onClick={(e) => e.stopPropagation()}>
      <Switch
        size="small"
        checked={on}
        disabled={disabled || saving}
        onChange={() => setAsking(true)}
        slotProps={{ input: { 'aria-label': `${field.title}: ${on ? '启用' : '禁用'}` } }}
      />
      <Confirm
        isOpen={asking}
        loading={saving}
        title={messages.confirm.title}
        content={formatMessage(messages.confirm.enableDisable, { action: next ? '启用' : '禁用' })}
        confirm={messages.confirm.ok}
        cancel={messages.confirm.cancel}
        onConfirm={() => void save()}
        onClose={() => setAsking(false)}
      />
    </span>
  );
}
