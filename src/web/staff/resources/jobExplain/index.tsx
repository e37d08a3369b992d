/** Job descriptions (岗位说明): the generated screen with its own icon; staff read them on /jobDescription. */
import BadgeIcon from '@mui/icons-material/Badge';
import type { ResourceOverrides } from '../../schema/overrides.ts';

const jobExplainOverrides: ResourceOverrides = { icon: BadgeIcon };

export default jobExplainOverrides;
