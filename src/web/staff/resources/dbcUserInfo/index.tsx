/** 用车客户 (staff): the generated screen plus 代客提交用车需求 on each row. */
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { SubmitDemandRowButton } from './StaffDemandDialog.tsx';

export const dbcUserInfoOverrides: ResourceOverrides = {
  RowButtons: SubmitDemandRowButton,
};

export default dbcUserInfoOverrides;
