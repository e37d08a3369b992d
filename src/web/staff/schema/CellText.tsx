/**
 * A list cell's text: the record's value (or what `render` makes of the record) in a plain span.
 *
 * react-admin's TextField and FunctionField put it in a Typography (body2) inside a styled wrapper:
 * two styled components, each working out and hashing its styles, for every cell of every row.
 * The table cell already sets the same body2 typography, which the span inherits, so the cells
 * look the same (screenshots of the lists compare equal byte for byte). Datagrid reads the column
 * props (`source`, `label`, `sortable`) from the element, as from react-admin's fields.
 */
import { type ReactNode } from 'react';
import { useRecordContext, type RaRecord } from 'react-admin';
import { textOf } from '../../common/text.ts';

export interface CellTextProps {
  source?: string;
  label?: string;
  sortable?: boolean;
  /** the cell's content from the record; without it, the value of `source` */
  render?: (record: RaRecord) => ReactNode;
}

export function CellText({ source, render }: CellTextProps) {
  const record = useRecordContext();
  if (!record) return null;
  if (render) return <span>{render(record)}</span>;
  // numbers and booleans as react-admin's TextField printed them, a list joined by commas
  return <span>{source ? textOf((record as Record<string, unknown>)[source]) || null : null}</span>;
}
