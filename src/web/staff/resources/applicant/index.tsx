/** Applicants (应聘人员信息): the generated list with a 详情 link to the scroll-tab detail page. */
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { ApplicantDetail } from './ApplicantDetail.tsx';

export const applicantOverrides: ResourceOverrides = {
  icon: PersonSearchIcon,
  Show: ApplicantDetail,
  detailPath: (record) => `/applicant/${record.id}/show`,
};

export default applicantOverrides;
