/**
 * DateField / DateTimeField: the date pickers of every form and filter, loaded lazily so the
 * picker's code is not in the shell or the sign-in page: it is fetched when the browser is idle
 * after the first screen that shows a date (or at once when a date box is reached). Until it has
 * arrived a plain read-only box shows the value in the same format and place.
 * See ./pickers/PickerFields.tsx for the behaviour.
 */
import { useEffect, useState } from 'react';
import TextField from '@mui/material/TextField';
import type { PickerFieldProps } from './pickers/picker-props.ts';

export type { PickerFieldProps } from './pickers/picker-props.ts';

type Pickers = typeof import('./pickers/PickerFields.tsx');
let loaded: Pickers | null = null;
let loading: Promise<Pickers> | null = null;
const load = (): Promise<Pickers> =>
  (loading ??= import('./pickers/PickerFields.tsx').then(
    (m) => (loaded = m),
    (e: unknown) => {
      loading = null; // a failed download is tried again next time
      throw e;
    },
  ));

/**
 * The picker module: at once when it has arrived; otherwise it is fetched when the browser is
 * idle (so a list's first rows are not held up by its date filters) or at once when the user
 * reaches for the box, and the box is swapped in then.
 */
function usePickers(): [Pickers | null, () => void] {
  const [mod, setMod] = useState<Pickers | null>(loaded);
  useEffect(() => {
    if (mod) return;
    let live = true;
    const start = () => {
      load().then(
        (m) => live && setMod(m),
        () => undefined,
      );
    };
    const w = window as Window & {
      requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number;
      cancelIdleCallback?: (id: number) => void;
    };
    const idle = w.requestIdleCallback ? w.requestIdleCallback(start, { timeout: 1500 }) : undefined;
    const timer = idle === undefined ? setTimeout(start, 200) : undefined;
    return () => {
      live = false;
      if (idle !== undefined) w.cancelIdleCallback?.(idle);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [mod]);
  return [mod, () => void load().then(setMod, () => undefined)];
}

function Placeholder(props: PickerFieldProps & { onReach: () => void }) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      required={props.required}
      error={props.error}
      helperText={props.helperText}
      fullWidth={props.fullWidth}
      size={props.size}
      disabled={props.disabled}
      sx={props.sx}
      inputRef={props.inputRef}
      onFocus={props.onReach}
      onPointerDown={props.onReach}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { readOnly: true, 'data-field': props.dataField } }}
    />
  );
}

export function DateField(props: PickerFieldProps) {
  const [mod, reach] = usePickers();
  return mod ? <mod.DatePickerField {...props} /> : <Placeholder {...props} onReach={reach} />;
}

export function DateTimeField(props: PickerFieldProps) {
  const [mod, reach] = usePickers();
  return mod ? <mod.DateTimePickerField {...props} /> : <Placeholder {...props} onReach={reach} />;
}
