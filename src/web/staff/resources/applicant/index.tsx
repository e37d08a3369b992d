/** Applicants (应聘人员信息): the generated list with a 详情 link to the scroll-tab detail page. */
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { lazyPage } from '../../lazyPart.tsx';

// the detail page's code comes when a record is first opened
const ApplicantDetail = lazyPage(() => import('./ApplicantDetail.tsx'), 'ApplicantDetail');

export const applicantOverrides: ResourceOverrides = {
  icon: PersonSearchIcon,
  Show: ApplicantDetail,
  detailPath: (record) => `/applicant/${record.id}/show`,
};

export default applicantOverrides;
