/** 用车客户 (staff): the generated screen plus 代客提交用车需求 on each row. */
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { lazyPart } from '../../lazyPart.tsx';

// the demand form (car models, brand tree) comes with the first list of this screen, not with the console
const SubmitDemandRowButton = lazyPart(() => import('./StaffDemandDialog.tsx'), 'SubmitDemandRowButton');

export const dbcUserInfoOverrides: ResourceOverrides = {
  RowButtons: SubmitDemandRowButton,
};

export default dbcUserInfoOverrides;
