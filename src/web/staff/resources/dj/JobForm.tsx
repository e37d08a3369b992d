/**
 * The job dialog: the generated fields plus a picker of the registered job functions
 * (GET api/jobs/functions) that fills Bean名称 and 执行方法, so a job names a function the
 * server will accept.
 */
import { useEffect, useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useFormContext, useWatch } from 'react-hook-form';
import { request } from '../../../common/http.ts';
import { DefaultRecordForm } from '../../schema/RecordDialog.tsx';
import type { RecordFormProps } from '../../schema/overrides.ts';

export interface JobFunctionInfo {
  bean: string;
  method: string;
  name: string | null;
}

export function JobForm(props: RecordFormProps) {
  const { setValue } = useFormContext();
  const bean = useWatch({ name: 'project' }) as string | undefined;
  const method = useWatch({ name: 'methodName' }) as string | undefined;
  const [functions, setFunctions] = useState<JobFunctionInfo[]>([]);
  useEffect(() => {
    request<JobFunctionInfo[]>('/api/jobs/functions', { quiet: true })
      .then(({ data }) => setFunctions(data))
      .catch(() => setFunctions([]));
  }, []);
  const current = functions.some((f) => f.bean === bean && f.method === method) ? `${bean}.${method}` : '';
  return (
    <Stack spacing={1}>
      {props.readOnly || functions.length === 0 ? null : (
        <TextField
          select
          size="small"
          label="选择已注册的任务方法"
          value={current}
          helperText="选择后自动填写Bean名称和执行方法"
          onChange={(e) => {
            const [b, m] = e.target.value.split('.');
            setValue('project', b, { shouldDirty: true, shouldValidate: true });
            setValue('methodName', m, { shouldDirty: true, shouldValidate: true });
          }}
        >
          {functions.map((f) => (
            <MenuItem key={`${f.bean}.${f.method}`} value={`${f.bean}.${f.method}`}>
              {f.name ? `${f.name}（${f.bean}.${f.method}）` : `${f.bean}.${f.method}`}
            </MenuItem>
          ))}
        </TextField>
      )}
      <DefaultRecordForm {...props} />
    </Stack>
  );
}
