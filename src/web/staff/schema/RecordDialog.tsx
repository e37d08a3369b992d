/**
 * The create/edit dialog of a generated screen: spec.dialogWidth wide, inputs from the
 * FieldSpecs (or the resource's own Form), the spec's messages, the first error shown in a
 * notice and its field focused. 新增成功 / 编辑成功 on success; on failure the dialog stays open.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { Form, useDataProvider, useNotify, type RaRecord } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { FieldInput } from './inputs.tsx';
import { MaskedFieldsProvider, useMaskedFields } from './maskedFields.tsx';
import type { RecordFormProps, ResourceOverrides } from './overrides.ts';
import { defaultValues, requestBody } from './records.ts';
import { SUCCESS_NOTICE_MS } from './notices.ts';
import { exportElementToPdf } from '../../components/pdfExport.ts';
import { messages } from '../../../shared/messages.ts';
import { HistoryDialog } from './HistoryDialog.tsx';
import { useCanReadHistory, useResourceAccess } from './permissions.ts';

/** Editor states of the spec: normal, prepared (dialog open), processing (submitting). */
export type EditorStatus = 'normal' | 'prepared' | 'processing';

export interface RecordDialogProps {
  spec: ResourceSpec;
  overrides?: ResourceOverrides;
  open: boolean;
  /** the record to edit; undefined to create */
  record?: RaRecord;
  /** extra defaults for a new record (e.g. from the route) */
  defaults?: Record<string, unknown>;
  onClose: () => void;
  onSaved: () => void;
}

/** All dialog fields of a spec, in schema order. */
export function DefaultRecordForm({ spec, readOnly }: RecordFormProps) {
  return (
    <Stack spacing={0.5}>
      {spec.fields
        .filter((f) => f.form && f.input !== 'hidden')
        .map((field) => (
          <FieldInput key={field.name} spec={spec} field={field} readOnly={readOnly} />
        ))}
    </Stack>
  );
}

const RA_ERROR_PREFIX = '@@react-admin@@';

/** react-admin stores validation results in the form as `@@react-admin@@` + JSON; this gives the text back. */
export function validationText(message: unknown): string {
  if (typeof message !== 'string') return '表单填写有误';
  if (!message.startsWith(RA_ERROR_PREFIX)) return message;
  try {
    const decoded = JSON.parse(message.slice(RA_ERROR_PREFIX.length)) as unknown;
    if (typeof decoded === 'string') return decoded;
    if (decoded && typeof decoded === 'object' && typeof (decoded as { message?: unknown }).message === 'string') {
      return (decoded as { message: string }).message;
    }
  } catch {
    /* fall through */
  }
  return message.slice(RA_ERROR_PREFIX.length);
}

/** After a failed submit: notice with the first error (form order) and focus on its field. */
function FirstErrorNotice() {
  const { submitCount, errors } = useFormState();
  const { setFocus } = useFormContext();
  const notify = useNotify();
  const handled = useRef(0);
  useEffect(() => {
    if (submitCount === handled.current) return;
    const names = Object.keys(errors);
    if (names.length === 0) return;
    handled.current = submitCount;
    // the DOM order of the inputs is the form order
    const elements = names
      .map((name) => ({ name, el: document.querySelector(`[name="${CSS.escape(name)}"]`) }))
      .sort((a, b) => {
        if (!a.el || !b.el) return a.el ? -1 : b.el ? 1 : 0;
        return a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
      });
    const first = elements[0].name;
    const message = errors[first]?.message;
    notify(validationText(message), { type: 'error', autoHideDuration: SUCCESS_NOTICE_MS });
    try {
      setFocus(first);
    } catch {
      /* some inputs (radio groups) cannot take focus */
    }
  }, [submitCount, errors, notify, setFocus]);
  return null;
}

export function RecordDialog({ spec, overrides = {}, open, record: given, defaults, onClose, onSaved }: RecordDialogProps) {
  // the record as stored now: the one the list gave, or a newer one a form part fetched after changing it
  const [fresh, setFresh] = useState<{ of: RaRecord | undefined; data: RaRecord } | null>(null);
  const record = fresh && fresh.of === given ? fresh.data : given;
  const replaceRecord = useCallback((data: RaRecord) => setFresh({ of: given, data }), [given]);
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const [status, setStatus] = useState<EditorStatus>(open ? 'prepared' : 'normal');
  const [exporting, setExporting] = useState(false);
  const content = useRef<HTMLDivElement>(null);
  const readOnly = !!record && !!overrides.readOnlyExisting;
  const masked = useMaskedFields(spec, record);
  const [historyOpen, setHistoryOpen] = useState(false);
  const canHistory = useCanReadHistory(spec);
  const { can } = useResourceAccess(spec);

  // opening prepares the form, closing sets it back
  const [openSeen, setOpenSeen] = useState(open);
  if (openSeen !== open) {
    setOpenSeen(open);
    setStatus(open ? 'prepared' : 'normal');
  }

  const initial = useMemo(() => {
    const base: Record<string, unknown> = record ? { ...record } : { ...defaultValues(spec), ...defaults };
    return overrides.toForm ? overrides.toForm(base, record) : base;
  }, [record, spec, defaults, overrides]);

  const save = async (values: Record<string, unknown>) => {
    if (readOnly || status === 'processing') return;
    setStatus('processing');
    let body = requestBody(spec, values, record);
    if (overrides.toRequest) body = overrides.toRequest(body, values, record);
    for (const name of masked) delete body[name];
    try {
      if (record) {
        await dataProvider.update(spec.name, { id: record.id, data: body, previousData: record });
        notify(messages.notice.updated, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      } else {
        await dataProvider.create(spec.name, { data: body });
        notify(messages.notice.created, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      }
      setStatus('normal');
      onSaved();
    } catch {
      // the HTTP client has shown the server's message; the dialog stays open
      setStatus('prepared');
    }
  };

  /** 导出PDF of a read-only view: the dialog's content on A4 pages. */
  const exportPdf = async () => {
    if (!content.current || exporting) return;
    setExporting(true);
    try {
      await exportElementToPdf(content.current, `${spec.title}${record?.id ?? ''}`);
    } catch (e) {
      notify((e as Error).message || '导出PDF失败', { type: 'error' });
    } finally {
      setExporting(false);
    }
  };

  const Body = overrides.Form ?? DefaultRecordForm;
  const title = record ? (readOnly ? `查看${spec.title}` : `编辑${spec.title}`) : `新增${spec.title}`;
  const processing = status === 'processing';

  return (
    <Dialog
      open={open}
      onClose={processing ? undefined : onClose}
      maxWidth={false}
      aria-labelledby={`${spec.name}-dialog-title`}
      slotProps={{ paper: { sx: { width: spec.dialogWidth, maxWidth: 'calc(100% - 32px)' } } }}
    >
      {open ? (
        <Form record={initial} onSubmit={save} disableInvalidFormNotification noValidate>
          <DialogTitle id={`${spec.name}-dialog-title`}>{title}</DialogTitle>
          <DialogContent dividers ref={content}>
            <MaskedFieldsProvider value={masked}>
              <Body spec={spec} record={record} readOnly={readOnly} replaceRecord={record ? replaceRecord : undefined} />
            </MaskedFieldsProvider>
          </DialogContent>
          <FirstErrorNotice />
          <DialogActions>
            {record && canHistory ? (
              <Button onClick={() => setHistoryOpen(true)} sx={{ mr: 'auto' }}>
                历史记录
              </Button>
            ) : null}
            {readOnly ? (
              <Button onClick={() => void exportPdf()} disabled={exporting}>
                {exporting ? '正在导出...' : '导出PDF'}
              </Button>
            ) : null}
            <Button onClick={onClose} disabled={processing}>
              {readOnly ? '关闭' : '取消'}
            </Button>
            {readOnly ? null : (
              <Button
                type="submit"
                variant="contained"
                disabled={processing}
                startIcon={processing ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
              >
                确认
              </Button>
            )}
          </DialogActions>
        </Form>
      ) : null}
      {historyOpen && record ? (
        <HistoryDialog
          spec={spec}
          recordId={record.id}
          canRestore={can('edit')}
          onClose={() => setHistoryOpen(false)}
          onRestored={() => {
            setHistoryOpen(false);
            onSaved();
          }}
        />
      ) : null}
    </Dialog>
  );
}
