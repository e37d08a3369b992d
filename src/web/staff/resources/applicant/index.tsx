/** Applicants (应聘人员信息): the generated list with a 详情 link to the scroll-tab detail page. */
import type { ResourceOverrides } from '../../schema/overrides.ts';

export const applicantOverrides: ResourceOverrides = {
  detailPath: (record) => `/applicant/${record.id}/show`,
};

export default applicantOverrides;
