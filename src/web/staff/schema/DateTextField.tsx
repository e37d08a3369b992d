/**
 * A filter-sized date field that shows and takes 'yyyy-MM-dd' whatever the browser's language:
 * the shared lazily loaded date picker (../../components/DateFields.tsx) at filter width.
 * onChange gets a valid 'YYYY-MM-DD' or '' (cleared); a typed date that does not exist stays in
 * the box, marked as an error, and is not passed on.
 */
import { DateField } from '../../components/DateFields.tsx';
import { DATE_FIELD_WIDTH } from './filterWidths.ts';

export interface DateTextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function DateTextField({ label, value, onChange }: DateTextFieldProps) {
  return <DateField label={label} value={value} onChange={onChange} size="small" clearable sx={{ width: DATE_FIELD_WIDTH }} />;
}
