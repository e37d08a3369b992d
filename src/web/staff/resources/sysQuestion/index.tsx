/** Feedback (问题反馈/投诉建议): the generated screen plus the identity choice, read-only records and the module route parameter. */
import { resourceByName } from '../../../../generated/resources.ts';
import { fieldByName } from '../../../../shared/resource-spec.ts';
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { ANONYMOUS, FeedbackForm, IDENTITY_FIELD, NAMED } from './FeedbackForm.tsx';

/** `#/sysQuestion:{module}`: the module is the first 2 characters of the parameter, when it is a known module. */
export function moduleFromParam(param: string): Record<string, unknown> {
  const model = param.trim().slice(0, 2);
  const options = fieldByName(resourceByName.sysQuestion, 'model')?.options ?? [];
  return options.some((o) => o.value === model) ? { model } : {};
}

export const sysQuestionOverrides: ResourceOverrides = {
  Form: FeedbackForm,
  readOnlyExisting: true,
  routeParam: moduleFromParam,
  toForm: (values, record) => ({
    ...values,
    [IDENTITY_FIELD]: record ? (record.username ? NAMED : ANONYMOUS) : ANONYMOUS,
  }),
  toRequest: (body, values) => {
    if (values[IDENTITY_FIELD] !== NAMED) {
      const { username: _username, mobile: _mobile, ...rest } = body;
      return rest;
    }
    return body;
  },
};

export default sysQuestionOverrides;
