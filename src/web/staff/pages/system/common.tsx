/**
 * Pieces shared by the administration screens (users, roles, menus, departments, dictionaries):
 * loading a server answer with its loading and error state, the permission check, a form
 * dialog with 确定/取消, a confirm dialog, a lazily expanded tree table and department options.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Confirm, useNotify, usePermissions } from 'react-admin';
import { hasPermission } from '../../../common/session.ts';
import { HttpError, request, type QueryValue } from '../../../common/http.ts';
import { checkForm, type FormBody, type FormRules } from '../../../../shared/admin-forms.ts';
import { SUCCESS_NOTICE_MS } from '../../schema/notices.ts';
import { messages } from '../../../../shared/messages.ts';

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export async function getJson<T>(url: string, query?: Record<string, QueryValue>): Promise<T> {
  return (await request<T>(url, { query })).data;
}

export async function send(
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  body: unknown,
  query?: Record<string, QueryValue>,
): Promise<void> {
  await request(url, { method, body, query });
}

/** A server answer with its loading and error state; reload() fetches it again. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { data: T | undefined; loading: boolean; failed: boolean; reload: () => void } {
  const [data, setData] = useState<T>();
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);
  // new deps or a reload: loading again until the answer comes
  const key = [...deps, tick];
  const [loadingFor, setLoadingFor] = useState(key);
  if (key.length !== loadingFor.length || key.some((d, i) => !Object.is(d, loadingFor[i]))) {
    setLoadingFor(key);
    setLoading(true);
  }
  useEffect(() => {
    let live = true;
    load()
      .then((d) => {
        if (!live) return;
        setData(d);
        setFailed(false);
      })
      .catch(() => live && setFailed(true))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { data, loading, failed, reload: useCallback(() => setTick((n) => n + 1), []) };
}

/** can('user:add'): the signed-in user holds the key (admin holds every key). */
export function useCan(): (key: string) => boolean {
  const { permissions } = usePermissions<string[]>();
  return (key: string) => hasPermission(permissions, key);
}

/**
 * The add/edit dialog and the delete confirmation of an admin table: `save` sends the form
 * (notice 新增成功 or 编辑成功 by whether it has an id), `remove` deletes the confirmed row by
 * id; after a success the dialog closes and `done` reloads. `busy` covers both.
 */
export function useEditing<F extends { id?: number | null }, R extends { id: number }>(opts: {
  send: (form: F) => Promise<unknown>;
  deletePath: string;
  done: () => void;
  /** the form's shared field checks (nothing is sent while a field is in error) */
  rules?: FormRules;
  /** what is checked: the body sent (default the form itself) */
  toBody?: (form: F) => object;
}) {
  const act = useAction();
  const [form, setForm] = useState<F | null>(null);
  const check = useFormCheck(opts.rules ?? NO_RULES, form && (opts.toBody ? opts.toBody(form) : form));
  const [deleting, setDeleting] = useState<R | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!form) return;
    if (!check.valid()) return;
    setBusy(true);
    const ok = await act(() => opts.send(form), form.id ? messages.notice.updated : messages.notice.created, check.failed);
    setBusy(false);
    if (ok) {
      setForm(null);
      opts.done();
    }
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    const ok = await act(() => send('DELETE', opts.deletePath, [deleting.id]), messages.notice.deleted);
    setBusy(false);
    setDeleting(null);
    if (ok) opts.done();
  };
  return { form, setForm, deleting, setDeleting, busy, save, remove, check };
}

/** Runs a write and shows its success notice; failures are shown by the HTTP client (and handed to `failed`). */
export function useAction(): (work: () => Promise<unknown>, notice: string, failed?: (error: unknown) => void) => Promise<boolean> {
  const notify = useNotify();
  return async (work, notice, failed) => {
    try {
      await work();
      notify(notice, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      return true;
    } catch (error) {
      failed?.(error);
      return false;
    }
  };
}

export interface FormCheck {
  /** {field: message} of the fields to mark */
  errors: Record<string, string>;
  /** checks every field and marks those in error: true when the form may be sent */
  valid: () => boolean;
  /** a refused write: the field the server names is marked with its message */
  failed: (error: unknown) => void;
  /** error and helperText of a field (helperText falls back to `help`) */
  field: (name: string, help?: ReactNode) => { error: boolean; helperText: ReactNode };
}

/**
 * Field checks of an admin form against its shared definition (src/shared/admin-forms.ts, the
 * one the server checks with): nothing is marked until the first 确定; from then on every field
 * is checked as it changes. The field a server 400 names ({message, field}) is marked until the
 * form changes. `body` is what would be sent, null while the dialog is closed (which resets).
 */
const NO_RULES: FormRules = {};

export function useFormCheck(rules: FormRules, form: object | null): FormCheck {
  const body = form as FormBody | null;
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<{ field: string; message: string; sent: string } | null>(null);
  const current = body === null ? null : JSON.stringify(body);
  // the form as it is when a request fails (the user may type while it runs)
  const latest = useRef(current);
  useEffect(() => {
    latest.current = current;
  }, [current]);
  // a closed dialog starts afresh
  if (current === null && (tried || server !== null)) {
    setTried(false);
    setServer(null);
  }
  const errors: Record<string, string> = { ...(tried && body ? checkForm(rules, body) : {}) };
  if (server && server.sent === current && !errors[server.field]) errors[server.field] = server.message;
  return {
    errors,
    valid: () => {
      setTried(true);
      setServer(null);
      return !body || Object.keys(checkForm(rules, body)).length === 0;
    },
    failed: (error) => {
      const b = error instanceof HttpError ? (error.body as { field?: unknown; message?: unknown } | undefined) : undefined;
      if (b && typeof b.field === 'string' && typeof b.message === 'string')
        setServer({ field: b.field, message: b.message, sent: latest.current ?? '' });
    },
    field: (name, help) => ({ error: !!errors[name], helperText: errors[name] ?? help }),
  };
}

export function FormDialog(props: {
  open: boolean;
  title: string;
  width?: number;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={props.open}
      onClose={props.busy ? undefined : props.onClose}
      maxWidth={false}
      PaperProps={{ sx: { width: props.width ?? 500 } }}
    >
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        <Box
          component="form"
          sx={{ display: 'grid', gap: 2, pt: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            props.onSubmit();
          }}
        >
          {props.children}
          <button type="submit" hidden />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.busy}>
          {messages.confirm.cancel}
        </Button>
        <Button
          variant="contained"
          onClick={props.onSubmit}
          disabled={props.busy}
          startIcon={props.busy ? <CircularProgress size={14} aria-hidden /> : null}
        >
          {messages.confirm.ok}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function ConfirmDialog(props: { open: boolean; content: string; busy?: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Confirm
      isOpen={props.open}
      loading={props.busy}
      title={messages.confirm.title}
      content={props.content}
      confirm={messages.confirm.ok}
      cancel={messages.confirm.cancel}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    />
  );
}

import { TableState } from '../../../components/TableState.tsx';
import { ScrollX } from '../../../components/ScrollX.tsx';

export { TableState };

export interface TreeColumn<T> {
  title: string;
  width?: number;
  render: (row: T) => ReactNode;
}

export interface TreeRowBase {
  id: number;
  hasChildren?: boolean;
  children?: TreeRowBase[];
}

/**
 * A tree table: the first column carries the expand control and the indent. Children come from
 * the row itself (`children`) or, lazily, from loadChildren(id) when the row is expanded.
 */
export function TreeTable<T extends TreeRowBase>(props: {
  rows: T[] | undefined;
  loading: boolean;
  failed: boolean;
  columns: TreeColumn<T>[];
  loadChildren?: (id: number) => Promise<T[]>;
  /** changes when the tree must be loaded again (after a write) */
  version?: number;
  label: string;
}) {
  const [open, setOpen] = useState<Record<number, boolean>>({});
  const [lazy, setLazy] = useState<Record<number, T[]>>({});
  // a write: the loaded children are dropped and the expanded rows load again (below)
  const [versionSeen, setVersionSeen] = useState(props.version);
  if (versionSeen !== props.version) {
    setVersionSeen(props.version);
    setLazy({});
  }
  useEffect(() => {
    // reload the expanded rows after a write
    if (!props.loadChildren) return;
    for (const id of Object.keys(open)
      .map(Number)
      .filter((k) => open[k])) {
      props
        .loadChildren(id)
        .then((kids) => setLazy((m) => ({ ...m, [id]: kids })))
        .catch(() => undefined);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.version]);
  const toggle = async (row: T) => {
    const next = !open[row.id];
    setOpen((o) => ({ ...o, [row.id]: next }));
    if (next && props.loadChildren && !lazy[row.id]) {
      const kids = await props.loadChildren(row.id).catch(() => [] as T[]);
      setLazy((m) => ({ ...m, [row.id]: kids }));
    }
  };
  const lines: Array<{ row: T; depth: number }> = [];
  const walk = (rows: T[], depth: number) => {
    for (const row of rows) {
      lines.push({ row, depth });
      if (open[row.id]) walk((row.children as T[] | undefined) ?? lazy[row.id] ?? [], depth + 1);
    }
  };
  walk(props.rows ?? [], 0);
  return (
    <ScrollX>
      <Table size="small" aria-label={props.label}>
        <TableHead>
          <TableRow>
            {props.columns.map((c) => (
              <TableCell key={c.title} sx={{ width: c.width, fontWeight: 600, whiteSpace: 'nowrap' }}>
                {c.title}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          <TableState loading={props.loading && !props.rows} failed={props.failed} empty={!lines.length} columns={props.columns.length} />
          {lines.map(({ row, depth }) => {
            const expandable = row.hasChildren || !!row.children?.length;
            return (
              <TableRow key={row.id} hover data-row-id={row.id}>
                {props.columns.map((c, i) => (
                  <TableCell key={c.title} sx={i === 0 ? { whiteSpace: 'nowrap' } : undefined}>
                    {i === 0 ? (
                      <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 2.5 }}>
                        {expandable ? (
                          <IconButton size="small" aria-label={open[row.id] ? '收起' : '展开'} onClick={() => void toggle(row)}>
                            {open[row.id] ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                          </IconButton>
                        ) : (
                          <Box sx={{ width: 34 }} />
                        )}
                        {c.render(row)}
                      </Box>
                    ) : (
                      c.render(row)
                    )}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </ScrollX>
  );
}

export interface DeptNode {
  id: number;
  pid: number;
  name: string;
  enabled: boolean;
  sort: number;
  hasChildren: boolean;
  createTime: string | null;
  /** the department's WeCom id once synced to WeCom contacts */
  wecomDeptId?: number | null;
  /** the department note (部门备注) */
  remark?: string | null;
  /** outside the user's data scope (shown as the way down only) */
  disabled?: boolean;
  children?: DeptNode[];
}

/** Department tree options, flattened with their depth for an indented select. */
export function flattenDepts(
  tree: DeptNode[] | undefined,
  depth = 0,
  out: Array<{ id: number; name: string; depth: number; disabled: boolean }> = [],
) {
  for (const d of tree ?? []) {
    out.push({ id: d.id, name: d.name, depth, disabled: !!d.disabled });
    flattenDepts(d.children, depth + 1, out);
  }
  return out;
}

export const indentLabel = (name: string, depth: number) => `${'\u3000'.repeat(depth)}${name}`;

export function ScreenTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h6" sx={{ mb: 1 }}>
      {children}
    </Typography>
  );
}
