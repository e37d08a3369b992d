/**
 * Dealer companies (经销商公司): the generated screen plus the sign-in password. A new company
 * needs one (请输入密码, 长度在 6 到 20 个字符); when editing, an empty password keeps the old one
 * and a new one ends the company's open sessions. The server never answers the password.
 */
import Stack from '@mui/material/Stack';
import { PasswordInput } from 'react-admin';
import type { RecordFormProps, ResourceOverrides } from '../../schema/overrides.ts';
import { DefaultRecordForm } from '../../schema/RecordDialog.tsx';

export const PASSWORD_FIELD = 'password';

export function companyPasswordError(value: unknown, creating: boolean): string | undefined {
  const text = typeof value === 'string' ? value : '';
  if (!text) return creating ? '请输入密码' : undefined;
  const n = [...text].length;
  return n < 6 || n > 20 || /\s/.test(text) ? '长度在 6 到 20 个字符' : undefined;
}

// react-admin marks an input required (the asterisk) by its validator's isRequired
const validateNewPassword = Object.assign((value: unknown) => companyPasswordError(value, true), { isRequired: true });
const validateChangedPassword = (value: unknown) => companyPasswordError(value, false);

function CompanyForm(props: RecordFormProps) {
  const creating = !props.record;
  const validate = creating ? validateNewPassword : validateChangedPassword;
  return (
    <Stack spacing={0.5}>
      <DefaultRecordForm {...props} />
      {props.readOnly ? null : (
        <PasswordInput
          source={PASSWORD_FIELD}
          label={creating ? '登录密码' : '新密码'}
          validate={validate}
          helperText={creating ? '6 到 20 个字符' : '不修改请留空；修改后该经销商需重新登录'}
          fullWidth
          autoComplete="new-password"
        />
      )}
    </Stack>
  );
}

export const dbcCompanyOverrides: ResourceOverrides = {
  Form: CompanyForm,
  toForm: (values) => ({ ...values, [PASSWORD_FIELD]: '' }),
  toRequest: (body, values) =>
    typeof values[PASSWORD_FIELD] === 'string' && values[PASSWORD_FIELD] ? { ...body, [PASSWORD_FIELD]: values[PASSWORD_FIELD] } : body,
};

export default dbcCompanyOverrides;
