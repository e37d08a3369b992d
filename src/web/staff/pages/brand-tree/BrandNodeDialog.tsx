/**
 * Create / edit dialog of one brand tree node: name, sort, status, sales flag, the vehicle
 * enumerations its level carries (selects), price, colour code and remark.
 */
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useNotify } from 'react-admin';
import { KIND_TITLES, enumFieldsOf, priceTitle, type BrandNode, type NodeKind } from '../../../../shared/brand-tree.ts';
import { messages } from '../../../../shared/messages.ts';
import { SUCCESS_NOTICE_MS } from '../../schema/notices.ts';
import { loadCompanies, saveNode, type Company } from './api.ts';
import { textOf } from '../../../common/text.ts';
import { PinyinPicker } from '../../../components/pinyin/PinyinPicker.tsx';

export interface NodeDialogState {
  /** the node being edited, or undefined for a new child of `parent` */
  node?: BrandNode;
  parent: BrandNode | null;
  /** kind of the new node */
  kind: NodeKind;
}

type Values = Record<string, string | boolean>;

function initialValues(state: NodeDialogState): Values {
  const n = state.node;
  const v: Values = {
    name: n?.name ?? '',
    sort: String(n?.sort ?? 999),
    enabled: n?.enabled ?? true,
    enabledXs: n?.enabledXs ?? true,
    remark: n?.remark ?? '',
    orgId: n?.orgId === null || n?.orgId === undefined ? '' : String(n.orgId),
  };
  for (const f of enumFieldsOf(state.kind)) {
    const raw = n ? (n as unknown as Record<string, unknown>)[f.name] : null;
    v[f.name] = raw === null || raw === undefined ? '' : textOf(raw);
  }
  return v;
}

/** The request body from the form; an empty enumeration is sent as null (cleared). */
export function nodeBody(state: NodeDialogState, values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: String(values.name).trim(),
    sort: Number(values.sort),
    enabled: values.enabled,
    enabledXs: values.enabledXs,
    remark: String(values.remark ?? '').trim() || null,
  };
  if (!state.node && state.kind === 'pack') body.kind = 'pack';
  if (state.kind === 'brand') body.orgId = values.orgId ? Number(values.orgId) : null;
  for (const f of enumFieldsOf(state.kind)) {
    const v = String(values[f.name] ?? '').trim();
    body[f.name] = v === '' ? null : f.type === 'number' ? Number(v) : v;
  }
  return body;
}

export function validateNode(values: Values): string | null {
  if (!String(values.name).trim()) return '名称不能为空';
  if (String(values.name).trim().length > 50) return '名称长度不能超过50个字符';
  if (!/^\d{1,6}$/.test(String(values.sort))) return '排序必须是0到999999的整数';
  if (values.price !== undefined && String(values.price).trim() !== '' && !/^\d{1,9}(\.\d{1,2})?$/.test(String(values.price).trim())) {
    return '价格必须是非负数，最多保留两位小数';
  }
  if (
    values.colorCode !== undefined &&
    String(values.colorCode).trim() !== '' &&
    !/^#[0-9A-Fa-f]{6}$/.test(String(values.colorCode).trim())
  ) {
    return '色值格式应为 #RRGGBB';
  }
  return null;
}

export function BrandNodeDialog({ state, onClose, onSaved }: { state: NodeDialogState | null; onClose: () => void; onSaved: () => void }) {
  const notify = useNotify();
  const [values, setValues] = useState<Values>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [companies, setCompanies] = useState<Company[]>([]);
  const isBrand = state?.kind === 'brand';
  useEffect(() => {
    if (!isBrand) return;
    loadCompanies()
      .then(setCompanies)
      .catch(() => setCompanies([]));
  }, [isBrand]);
  // each opening (a new dialog state) starts from the node's values
  const [shownFor, setShownFor] = useState<NodeDialogState | null>(null);
  if (state && shownFor !== state) {
    setShownFor(state);
    setValues(initialValues(state));
    setError(null);
  }
  if (!state) return null;
  const title = `${state.node ? '编辑' : '新增'}${KIND_TITLES[state.kind]}`;
  const set = (name: string, value: string | boolean) => {
    setValues((v) => ({ ...v, [name]: value }));
    setError(null);
  };

  const submit = async () => {
    const problem = validateNode(values);
    setError(problem);
    if (problem) {
      notify(problem, { type: 'error' });
      return;
    }
    setSaving(true);
    try {
      await saveNode(nodeBody(state, values), state.parent, state.node);
      notify(state.node ? messages.notice.updated : messages.notice.created, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      onSaved();
    } catch {
      /* the HTTP client has shown the server's message; the dialog stays open */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      maxWidth={false}
      PaperProps={{ sx: { width: 700, maxWidth: '95vw' } }}
      aria-labelledby="brand-node-title"
    >
      <DialogTitle id="brand-node-title">{title}</DialogTitle>
      <DialogContent dividers>
        {state.parent ? <TextField label="上级" value={state.parent.name} size="small" fullWidth disabled sx={{ mb: 2 }} /> : null}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 8 }}>
            <TextField
              label={`${KIND_TITLES[state.kind]}名称`}
              required
              autoFocus
              size="small"
              fullWidth
              value={values.name ?? ''}
              error={error === '名称不能为空' || error === '名称长度不能超过50个字符'}
              helperText={error?.startsWith('名称') ? error : undefined}
              onChange={(e) => set('name', e.target.value)}
              slotProps={{ htmlInput: { maxLength: 50 } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              label="排序"
              size="small"
              fullWidth
              value={values.sort ?? ''}
              onChange={(e) => set('sort', e.target.value.replace(/\D/g, ''))}
            />
          </Grid>
          {state.kind === 'brand' ? (
            <Grid size={{ xs: 12 }}>
              <PinyinPicker
                label="所属公司"
                size="small"
                options={companies.map((c) => ({ id: String(c.id), name: c.name }))}
                value={String(values.orgId ?? '')}
                emptyLabel="集团通用"
                onChange={(orgId) => set('orgId', String(orgId))}
                helperText="集团通用：集团各公司都可销售"
              />
            </Grid>
          ) : null}
          {enumFieldsOf(state.kind).map((f) => (
            <Grid key={f.name} size={{ xs: 12, sm: 6 }}>
              {f.values ? (
                <TextField
                  select
                  label={f.title}
                  size="small"
                  fullWidth
                  value={values[f.name] ?? ''}
                  onChange={(e) => set(f.name, e.target.value)}
                >
                  <MenuItem value="">
                    <em>未设置</em>
                  </MenuItem>
                  {f.values.map((v) => (
                    <MenuItem key={v} value={v}>
                      {v}
                    </MenuItem>
                  ))}
                </TextField>
              ) : (
                <TextField
                  label={f.name === 'price' ? priceTitle(state.kind) : f.title}
                  size="small"
                  fullWidth
                  value={values[f.name] ?? ''}
                  placeholder={f.name === 'colorCode' ? '#RRGGBB' : undefined}
                  error={
                    (f.name === 'price' && error?.startsWith('价格')) || (f.name === 'colorCode' && error?.startsWith('色值')) || false
                  }
                  helperText={
                    f.name === 'price' && error?.startsWith('价格')
                      ? error
                      : f.name === 'colorCode' && error?.startsWith('色值')
                        ? error
                        : undefined
                  }
                  onChange={(e) => set(f.name, e.target.value)}
                />
              )}
            </Grid>
          ))}
          <Grid size={{ xs: 12 }} sx={{ display: 'flex', gap: 4 }}>
            <FormControlLabel
              control={<Switch checked={values.enabled === true} onChange={(e) => set('enabled', e.target.checked)} />}
              label="启用"
            />
            <FormControlLabel
              control={<Switch checked={values.enabledXs === true} onChange={(e) => set('enabledXs', e.target.checked)} />}
              label="销售启用"
            />
          </Grid>
          <Grid size={{ xs: 12 }}>
            <TextField
              label="备注"
              size="small"
              fullWidth
              multiline
              minRows={2}
              value={values.remark ?? ''}
              onChange={(e) => set('remark', e.target.value)}
              slotProps={{ htmlInput: { maxLength: 255 } }}
            />
          </Grid>
        </Grid>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          取消
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={saving}>
          {saving ? '提交中…' : '确定'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
