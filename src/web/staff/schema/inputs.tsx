/** The dialog input for a FieldSpec, chosen by FieldSpec.input. */
import { BooleanInput, NumberInput, RadioButtonGroupInput, Offline, ReferenceInputBase, SelectInput, TextInput } from 'react-admin';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { FULL_LIST_SIZE } from '../providers/dataProvider.ts';
import { choicesOf, fromChoice, toChoice } from './records.ts';
import { fieldValidator } from '../../common/validation.ts';
import { MASKED_HELP, useIsMasked } from './maskedFields.tsx';
import { RestrictedNumberInput } from './RestrictedNumberInput.tsx';
import { UploadInput } from './UploadInput.tsx';
import { restrictionFor } from '../../../shared/input-filters.ts';
import Box from '@mui/material/Box';
import { useFormContext } from 'react-hook-form';
import { OCR_LABELS, type OcrFill } from '../../../shared/ocr.ts';
import { OcrButton, type OcrRecognise } from '../../components/OcrButton.tsx';
import { request } from '../../common/http.ts';
import { PickerInput } from './PickerInput.tsx';
// with the form itself: a picker loaded later would miss the form's validation until it arrived
import { PinyinSelectInput } from './PinyinSelectInput.tsx';

export interface FieldInputProps {
  spec: ResourceSpec;
  field: FieldSpec;
  readOnly?: boolean;
  /** a required marker is shown unless false */
  label?: string;
}

/**
 * The input, with a 识别 button beside it when the property has `x-ocr` (a recognised picture
 * fills the named properties of the form).
 */
export function FieldInput(props: FieldInputProps) {
  const input = <PlainFieldInput {...props} />;
  const masked = useIsMasked(props.field.name);
  if (!props.field.ocr || props.readOnly || masked) return input;
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>{input}</Box>
      <Box sx={{ pt: 0.75, flexShrink: 0 }}>
        <FormOcrButton ocr={props.field.ocr} />
      </Box>
    </Box>
  );
}

function FormOcrButton({ ocr }: { ocr: OcrFill }) {
  const { setValue } = useFormContext();
  return (
    <OcrButton
      call={ocr.call}
      label={OCR_LABELS[ocr.call]}
      recognise={staffRecognise}
      onResult={(answer) => {
        for (const [property, key] of Object.entries(ocr.fill)) {
          if (answer[key]) setValue(property, answer[key], { shouldDirty: true, shouldValidate: true });
        }
      }}
    />
  );
}

/** Recognition with the staff member's token (the console's client shows failures). */
export const staffRecognise: OcrRecognise = async (call, form) =>
  (await request<Record<string, string>>(`/api/public/${call}`, { method: 'POST', body: form })).data;

/** from this many values a select takes typing and finds its values by pinyin (PinyinSelectInput) */
export const MANY_CHOICES = 8;

/** referenced resources whose labels are people's names */
export const PEOPLE_RESOURCES = new Set(['user', 'users', 'staff', 'applicant', 'xsSubmersibleFile']);

function PlainFieldInput({ spec, field, readOnly: readOnlyForm = false, label }: FieldInputProps) {
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
        <PinyinSelectInput
          source={common.source}
          label={common.label}
          optionText={field.ref.label}
          kind={PEOPLE_RESOURCES.has(field.ref.resource) ? 'name' : 'text'}
          validate={common.validate}
          readOnly={readOnly}
          disabled={readOnly}
          helperText={common.helperText}
        />
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
      // a select of many values (a dictionary grows) takes typing, found by pinyin
      if (choicesOf(field).length >= MANY_CHOICES)
        return (
          <PinyinSelectInput
            source={common.source}
            label={common.label}
            optionText="name"
            choices={choicesOf(field)}
            format={toChoice}
            parse={(v: unknown) => fromChoice(field, v)}
            validate={common.validate}
            readOnly={readOnly}
            disabled={readOnly}
            helperText={common.helperText}
          />
        );
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
    case 'datetime':
      return (
        <PickerInput
          source={common.source}
          label={common.label}
          kind={field.input}
          validate={common.validate}
          readOnly={readOnly}
          helperText={common.helperText}
        />
      );
    case 'hidden':
      return null;
    case 'upload':
      return <UploadInput {...common} />;
    default:
      return <TextInput {...common} />;
  }
}
