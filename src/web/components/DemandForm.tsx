/**
 * The car-use demand form (用车需求), used to submit a demand for a customer and to edit one.
 * Every field is required (X不能为空) and checked with the same rules as the server
 * (src/shared/dbc-demand.ts): plate 请输入正确的车牌号, VIN with its check digit 请输入正确的底盘号,
 * labour fee 请输入正确的工时费, day counts 请输入正整数, foregift 2000 or 4000, end after start.
 * On submit the first error is shown and its field focused. The car type is picked in the
 * brand-tree cascader down to the configuration (level 4); the form sends userCarType (brand/
 * series/model names joined by '/') and carTypeIds (the picked path), which the server checks.
 * Editing keeps the saved car type (sent without ids) until another one is picked.
 * 识别车牌 / 识别行驶证 / 识别VIN send a picture to api/public/getCph|getXsz|getVin and fill 车牌号 and
 * 底盘号 from the answer. Shared by the dealer portal (src/web/dealer/DemandForm.tsx gives it the
 * dealer's car-type tree, notices and token) and the staff console (StaffDemandDialog).
 */
import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { DateTimeField } from './DateFields.tsx';
import { ModelCascader, type ModelValue } from './ModelCascader.tsx';
import type { BrandNode } from '../../shared/brand-tree.ts';
import {
  CAR_TYPE_LEVEL,
  checkDemand,
  DEMAND_FIELDS,
  DEMAND_LABELS,
  firstDemandError,
  FOREGIFT_CHOICES,
  type DemandField,
} from '../../shared/dbc-demand.ts';
import { OcrButton, type OcrRecognise } from './OcrButton.tsx';
import { textOf } from '../common/text.ts';

/** The saved car type of a demand being edited, shown as it is until the user picks another. */
export function savedCarType(text: string): ModelValue | null {
  if (!text) return null;
  const names = text.split('/');
  return { ids: [], names, userCarType: text, node: { id: 0, pid: 0, name: names[names.length - 1], level: CAR_TYPE_LEVEL } as BrandNode };
}

export type DemandFormValues = Record<DemandField, string>;

export const EMPTY_DEMAND: DemandFormValues = {
  userCarType: '',
  userCph: '',
  userVin: '',
  bah: '',
  wxgsf: '',
  wxts: '',
  startTime: '',
  endTime: '',
  mfts: '',
  zfts: '',
  foregiftPrice: '2000',
  createUser: '',
};

export function demandFromRecord(r: Record<string, unknown>): DemandFormValues {
  const out = { ...EMPTY_DEMAND };
  for (const f of DEMAND_FIELDS) out[f] = r[f] === null || r[f] === undefined ? '' : textOf(r[f]);
  return out;
}

const PLACEHOLDERS: Partial<Record<DemandField, string>> = {
  userCph: '如 豫A12345',
  userVin: '17位底盘号',
};

export interface DemandDialogProps {
  open: boolean;
  title: string;
  width: 1000 | 1300;
  customerName: string;
  initial: DemandFormValues;
  onClose: () => void;
  /** sends the checked form; resolves when saved */
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  /** the car-type cascader's children by parent id */
  loadCarTypes: (pid: number) => Promise<BrandNode[]>;
  /** shows the form's first error */
  onInvalid: (message: string) => void;
  /** sends a picture to a recognition call */
  recognise: OcrRecognise;
}

export function DemandDialog({
  open,
  title,
  width,
  customerName,
  initial,
  onClose,
  onSubmit,
  loadCarTypes,
  onInvalid,
  recognise,
}: DemandDialogProps) {
  const [values, setValues] = useState<DemandFormValues>(initial);
  const [errors, setErrors] = useState<Partial<Record<DemandField, string>>>({});
  const [saving, setSaving] = useState(false);
  const [carType, setCarType] = useState<ModelValue | null>(() => savedCarType(initial.userCarType));
  const refs = useRef<Partial<Record<DemandField, HTMLInputElement | null>>>({});

  const set = (f: DemandField, v: string) => {
    setValues((old) => ({ ...old, [f]: v }));
    if (errors[f]) setErrors((old) => ({ ...old, [f]: undefined }));
  };

  /** the recognised plate and VIN (each only when read) go into their fields */
  const fill = (fields: Record<string, string>) => {
    if (fields.plate) set('userCph', fields.plate.slice(0, 8));
    if (fields.vin) set('userVin', fields.vin.slice(0, 17));
  };

  async function submit() {
    const checked = checkDemand(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      const message = firstDemandError(checked.errors);
      onInvalid(message);
      const first = DEMAND_FIELDS.find((f) => checked.errors[f]);
      if (first) refs.current[first]?.focus();
      return;
    }
    setSaving(true);
    try {
      const body: Record<string, unknown> = { ...checked.values };
      if (carType?.ids.length) body.carTypeIds = carType.ids;
      await onSubmit(body);
    } catch {
      /* the message is shown by the client */
    } finally {
      setSaving(false);
    }
  }

  /** 开始时间 / 结束时间: 'yyyy-MM-dd HH:mm:ss' pickers whatever the browser's language */
  const dateTime = (f: DemandField) => (
    <DateTimeField
      key={f}
      label={DEMAND_LABELS[f]}
      name={f}
      required
      size="small"
      fullWidth
      value={values[f]}
      onChange={(v) => set(f, v)}
      error={!!errors[f]}
      helperText={errors[f] ?? ' '}
      dataField={f}
      inputRef={(el: HTMLInputElement | null) => {
        refs.current[f] = el;
      }}
    />
  );

  const text = (f: DemandField, extra: { maxLength?: number } = {}) => (
    <TextField
      key={f}
      label={DEMAND_LABELS[f]}
      name={f}
      required
      size="small"
      fullWidth
      value={values[f]}
      onChange={(e) => set(f, e.target.value)}
      error={!!errors[f]}
      helperText={errors[f] ?? ' '}
      placeholder={PLACEHOLDERS[f]}
      inputRef={(el: HTMLInputElement | null) => {
        refs.current[f] = el;
      }}
      slotProps={{
        htmlInput: { maxLength: extra.maxLength, 'data-field': f },
      }}
    />
  );

  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} maxWidth={false} slotProps={{ paper: { sx: { width, maxWidth: '96vw' } } }}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 1, mb: 2.5, flexWrap: 'wrap' }} data-testid="demand-ocr">
          <OcrButton call="getCph" label="识别车牌" recognise={recognise} onResult={fill} disabled={saving} />
          <OcrButton call="getXsz" label="识别行驶证" recognise={recognise} onResult={fill} disabled={saving} />
          <OcrButton call="getVin" label="识别VIN" recognise={recognise} onResult={fill} disabled={saving} />
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: width === 1300 ? 'repeat(4, 1fr)' : 'repeat(3, 1fr)', columnGap: 2, rowGap: 1.5 }}>
          <TextField label="客户" size="small" value={customerName} disabled helperText=" " />
          <Box data-field="userCarType">
            <ModelCascader
              label="车型"
              required
              level={CAR_TYPE_LEVEL}
              value={carType}
              loadChildren={loadCarTypes}
              onChange={(v) => {
                setCarType(v);
                set('userCarType', v?.userCarType ?? '');
              }}
              error={errors.userCarType}
            />
          </Box>
          {text('userCph', { maxLength: 8 })}
          {text('userVin', { maxLength: 17 })}
          {text('bah', { maxLength: 64 })}
          {text('wxgsf', { maxLength: 11 })}
          {text('wxts', { maxLength: 4 })}
          {dateTime('startTime')}
          {dateTime('endTime')}
          {text('mfts', { maxLength: 4 })}
          {text('zfts', { maxLength: 4 })}
          {text('createUser', { maxLength: 32 })}
          <Box>
            <FormLabel required error={!!errors.foregiftPrice} sx={{ fontSize: 12 }}>
              押金
            </FormLabel>
            <RadioGroup row value={values.foregiftPrice} onChange={(e) => set('foregiftPrice', e.target.value)} name="foregiftPrice">
              {FOREGIFT_CHOICES.map((v) => (
                <FormControlLabel key={v} value={String(v)} control={<Radio size="small" />} label={String(v)} />
              ))}
            </RadioGroup>
            {errors.foregiftPrice ? <FormHelperText error>{errors.foregiftPrice}</FormHelperText> : null}
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          取消
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={saving} data-testid="demand-submit">
          {saving ? '提交中...' : '确定'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
