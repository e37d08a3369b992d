/** The dialog input for a FieldSpec, chosen by FieldSpec.input. */
import {
  BooleanInput,
  DateInput,
  DateTimeInput,
  NumberInput,
  RadioButtonGroupInput,
  Offline,
  ReferenceInputBase,
  SelectInput,
  TextInput,
} from 'react-admin';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { FULL_LIST_SIZE } from '../providers/dataProvider.ts';
import { choicesOf, fromChoice, toChoice } from './records.ts';
import { fieldValidator } from './validation.ts';
import { MASKED_HELP, useIsMasked } from './maskedFields.tsx';
import { RestrictedNumberInput } from './RestrictedNumberInput.tsx';
import { UploadInput } from './UploadInput.tsx';
import { restrictionFor } from '../../../shared/input-filters.ts';


export interface FieldInputProps {
  spec: ResourceSpec;
  field: FieldSpec;
  readOnly?: boolean;
  /** a required marker is shown unless false */
  label?: string;
}

/** 'YYYY-MM-DD HH:mm:ss' <-> the browser's datetime-local value. */
export function parseDateTime(value: string | null): string | null {
  if (!value) return null;
  const text = value.replace('T', ' ');
  return text.length === 16 ? `${text}:00` : text;
}

export function formatDateTime(value: unknown): string {
  if (!value) return '';
  return String(value).replace(' ', 'T').slice(0, 19);
}

export function FieldInput({ spec, field, readOnly: readOnlyForm = false, label }: FieldInputProps) {
  // personal data that came masked is shown, never edited (the mask is not the value)
  const masked = useIsMasked(field.name);
  const readOnly = readOnlyForm || masked;
  const common = {
    source: field.name,
    label: label ?? field.title,
    validate: readOnly ? undefined : fieldValidator(spec, field),
    readOnly,
    helperText: masked ? MASKED_HELP : field.placeholder || false,
    fullWidth: true,
  } as const;

  if (field.ref) {
    return (
      // ReferenceInputBase: react-admin's ReferenceInput would bring its default autocomplete into the console's download
      <ReferenceInputBase
        source={field.name}
        reference={field.ref.resource}
        perPage={FULL_LIST_SIZE}
        sort={{ field: 'id', order: 'ASC' }}
        offline={<Offline variant="inline" />}
      >
        <SelectInput {...common} optionText={field.ref.label} disabled={readOnly} />
      </ReferenceInputBase>
    );
  }
  switch (field.input) {
    case 'textarea':
      return <TextInput {...common} multiline minRows={3} />;
    case 'number': {
      const prop = ((spec.schema.properties ?? {}) as Record<string, Record<string, unknown>>)[field.name] ?? {};
      const kind = restrictionFor(prop);
      return kind ? <RestrictedNumberInput {...common} kind={kind} /> : <NumberInput {...common} />;
    }
    case 'select':
      return (
        <SelectInput
          {...common}
          choices={choicesOf(field)}
          format={toChoice}
          parse={(v: unknown) => fromChoice(field, v)}
          disabled={readOnly}
        />
      );
    case 'radio': {
      // the radio group hands unknown props to its DOM element: no fullWidth there
      const { fullWidth: _fullWidth, ...radioProps } = common;
      return (
        <RadioButtonGroupInput
          {...radioProps}
          choices={choicesOf(field)}
          format={toChoice}
          parse={(v: unknown) => fromChoice(field, v)}
          disabled={readOnly}
        />
      );
    }
    case 'switch':
      return <BooleanInput {...common} disabled={readOnly} />;
    case 'date':
      return <DateInput {...common} />;
    case 'datetime':
      return <DateTimeInput {...common} format={formatDateTime} parse={parseDateTime} />;
    case 'hidden':
      return null;
    case 'upload':
      return <UploadInput {...common} />;
    default:
      return <TextInput {...common} />;
  }
}
