/** Staff roster (员工花名册): the generated screen plus 调岗, 离职, 企业微信 and 调岗记录 per row (their dialogs load with the roster). */
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { lazyPart } from '../../lazyPart.tsx';

const StaffRowButtons = lazyPart(() => import('./StaffRowButtons.tsx'), 'StaffRowButtons');

export const staffOverrides: ResourceOverrides = {
  RowButtons: StaffRowButtons,
};

export default staffOverrides;
