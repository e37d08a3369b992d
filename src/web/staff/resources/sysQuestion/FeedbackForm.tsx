/**
 * Feedback dialog (700 px): module, title, problem description, suggested optimisation,
 * identity 匿名/实名, and — only when named — contact name and phone. The identity choice is
 * UI-only: anonymous feedback carries no username or mobile. A saved record shows where the
 * mobile was issued (号码归属地) under it.
 */
import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { RadioButtonGroupInput, useGetIdentity } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { fieldByName } from '../../../../shared/resource-spec.ts';
import { FieldInput } from '../../schema/inputs.tsx';
import type { RecordFormProps } from '../../schema/overrides.ts';
import { PhoneLocationTag } from './PhoneLocationTag.tsx';

export const IDENTITY_FIELD = '_identity';
export const ANONYMOUS = '匿名';
export const NAMED = '实名';
export const IDENTITY_REQUIRED = '身份不能为空';

const identityChoices = [
  { id: ANONYMOUS, name: ANONYMOUS },
  { id: NAMED, name: NAMED },
];

function requireIdentity(value: unknown) {
  return value === ANONYMOUS || value === NAMED ? undefined : IDENTITY_REQUIRED;
}
requireIdentity.isRequired = true;

/** Fills the contact fields with the signed-in user when named is chosen and they are empty. */
function ContactDefaults({ enabled }: { enabled: boolean }) {
  const { identity } = useGetIdentity();
  const { getValues, setValue } = useFormContext();
  const named = useWatch({ name: IDENTITY_FIELD }) === NAMED;
  useEffect(() => {
    if (!enabled || !named || !identity) return;
    if (!getValues('username')) setValue('username', identity.nickName || identity.fullName || '');
    if (!getValues('mobile') && typeof identity.phone === 'string') setValue('mobile', identity.phone);
  }, [enabled, named, identity, getValues, setValue]);
  return null;
}

export function FeedbackForm({ spec, record, readOnly }: RecordFormProps) {
  const named = useWatch({ name: IDENTITY_FIELD }) === NAMED;
  const field = (name: string) => {
    const spec_ = fieldByName(spec, name);
    return spec_ ? <FieldInput spec={spec} field={spec_} readOnly={readOnly} /> : null;
  };
  return (
    <Stack spacing={0.5}>
      {field('model')}
      {field('title')}
      {field('content')}
      {field('remark')}
      <RadioButtonGroupInput
        source={IDENTITY_FIELD}
        label="身份"
        choices={identityChoices}
        validate={readOnly ? undefined : requireIdentity}
        disabled={readOnly}
        readOnly={readOnly}
        helperText={false}
      />
      {named ? field('username') : null}
      {named ? field('mobile') : null}
      {named && record?.id !== undefined && record.mobile ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, fontSize: 13, color: 'text.secondary' }}>
          号码归属地 <PhoneLocationTag resource={spec.name} id={record.id} />
        </Box>
      ) : null}
      <ContactDefaults enabled={!readOnly} />
    </Stack>
  );
}
