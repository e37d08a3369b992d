/** Recruitment postings (人事招聘信息): the generated screen with its own menu icon. */
import WorkIcon from '@mui/icons-material/Work';
import type { ResourceOverrides } from '../../schema/overrides.ts';

export const staffunZpOverrides: ResourceOverrides = {
  icon: WorkIcon,
};

export default staffunZpOverrides;
