/** Scheduled jobs (定时任务): the generated screen plus run now, pause/resume and the run log per row, and a picker of the registered functions in the dialog. */
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { JobForm } from './JobForm.tsx';
import { JobRowButtons } from './JobRowButtons.tsx';

export const djOverrides: ResourceOverrides = {
  RowButtons: JobRowButtons,
  Form: JobForm,
};

export default djOverrides;
