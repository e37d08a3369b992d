/**
 * The date and date-time pickers of every form and filter (MUI X Date Pickers, dayjs, zh-cn):
 * they show and take 'yyyy-MM-dd' and 'yyyy-MM-dd HH:mm:ss' with Chinese labels whatever the
 * browser's language (a native date input shows mm/dd/yyyy in an English browser). Typing fills
 * the year, month and day one after the other; the calendar button opens a calendar (on a
 * phone-sized or touch screen a full dialog with 确认/取消, big enough for a thumb).
 * Values in and out are the API's strings: 'YYYY-MM-DD' / 'YYYY-MM-DD HH:mm:ss', or '' when
 * empty. A typed date that does not exist stays in the box, marked, and is passed on as ''.
 * Loaded lazily (see ../DateFields.tsx): the picker is not in the shell's first load.
 */
import { useState, type ReactNode } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { zhCN } from '@mui/x-date-pickers/locales';
import type { PickerFieldProps } from './picker-props.ts';

export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Chinese texts, with the field's empty sections spelt as the spec writes the formats. */
const localeText = {
  ...zhCN.components.MuiLocalizationProvider.defaultProps.localeText,
  fieldYearPlaceholder: () => 'yyyy',
  fieldMonthPlaceholder: () => 'MM',
  fieldDayPlaceholder: () => 'dd',
  fieldHoursPlaceholder: () => 'HH',
  fieldMinutesPlaceholder: () => 'mm',
  fieldSecondsPlaceholder: () => 'ss',
};

/** Below 600 px or on a touch screen the picker opens as a full dialog. */
const DESKTOP_QUERY = '@media (pointer: fine) and (min-width: 600px)';

/** The calendar's month heading as 2026年11月 (zh-cn alone gives 十一月 2026). */
const CHINESE_HEADINGS = { calendarHeader: { format: 'YYYY年M月' } };

function Provider({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="zh-cn" localeText={localeText}>
      {children}
    </LocalizationProvider>
  );
}

/** The API's 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss' (dayjs reads both) as a picker value. */
function toDayjs(value: string): Dayjs | null {
  if (!value) return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
}

function usePickerValue(props: PickerFieldProps, format: string) {
  const [value, setValue] = useState<Dayjs | null>(() => toDayjs(props.value));
  // the outside value wins when it differs from what the box holds (a reset, a shortcut)
  const [outside, setOutside] = useState({ value: props.value, format });
  if (outside.value !== props.value || outside.format !== format) {
    setOutside({ value: props.value, format });
    setValue((cur) => {
      const shown = cur && cur.isValid() ? cur.format(format) : '';
      if (shown === props.value) return cur;
      if (!props.value && cur && !cur.isValid()) return cur;
      return toDayjs(props.value);
    });
  }
  // an impossible date (2023-02-29) takes back what an earlier keystroke passed on (2023-02-02)
  const change = (next: Dayjs | null) => {
    setValue(next);
    const text = next && next.isValid() ? next.format(format) : '';
    if (text !== props.value) props.onChange(text);
  };
  const invalid = !!value && !value.isValid();
  return { value, change, invalid };
}

function fieldSlotProps(props: PickerFieldProps, invalid: boolean) {
  return {
    textField: {
      name: props.name,
      required: props.required,
      error: props.error || invalid,
      helperText: props.helperText,
      fullWidth: props.fullWidth,
      size: props.size,
      onBlur: props.onBlur,
      inputRef: props.inputRef,
      sx: props.sx,
      inputProps: { 'data-field': props.dataField, 'aria-invalid': props.error || invalid, inputMode: 'numeric' as const },
      InputLabelProps: { shrink: true },
    },
    field: { clearable: props.clearable },
  };
}

export function DatePickerField(props: PickerFieldProps) {
  const { value, change, invalid } = usePickerValue(props, DATE_FORMAT);
  return (
    <Provider>
      <DatePicker
        label={props.label}
        value={value}
        onChange={change}
        format={DATE_FORMAT}
        disabled={props.disabled}
        readOnly={props.readOnly}
        minDate={props.min ? dayjs(props.min) : undefined}
        maxDate={props.max ? dayjs(props.max) : undefined}
        disableFuture={props.disableFuture}
        enableAccessibleFieldDOMStructure={false}
        desktopModeMediaQuery={DESKTOP_QUERY}
        views={['year', 'month', 'day']}
        openTo="day"
        slotProps={{
          ...fieldSlotProps(props, invalid),
          ...CHINESE_HEADINGS,
          toolbar: { toolbarFormat: 'YYYY年M月D日' },
          openPickerButton: { 'aria-label': `选择${props.label}` },
        }}
      />
    </Provider>
  );
}

export function DateTimePickerField(props: PickerFieldProps) {
  const { value, change, invalid } = usePickerValue(props, DATE_TIME_FORMAT);
  return (
    <Provider>
      <DateTimePicker
        label={props.label}
        value={value}
        onChange={change}
        format={DATE_TIME_FORMAT}
        ampm={false}
        disabled={props.disabled}
        readOnly={props.readOnly}
        minDateTime={props.min ? dayjs(props.min) : undefined}
        maxDateTime={props.max ? dayjs(props.max) : undefined}
        disableFuture={props.disableFuture}
        enableAccessibleFieldDOMStructure={false}
        desktopModeMediaQuery={DESKTOP_QUERY}
        views={['year', 'month', 'day', 'hours', 'minutes', 'seconds']}
        openTo="day"
        timeSteps={{ hours: 1, minutes: 1, seconds: 1 }}
        slotProps={{ ...fieldSlotProps(props, invalid), ...CHINESE_HEADINGS, openPickerButton: { 'aria-label': `选择${props.label}` } }}
      />
    </Provider>
  );
}

export default { DatePickerField, DateTimePickerField };
