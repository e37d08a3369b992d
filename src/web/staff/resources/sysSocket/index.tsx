/** System messages push (系统消息推送): the generated screen with its own menu icon. */
import CampaignIcon from '@mui/icons-material/Campaign';
import type { ResourceOverrides } from '../../schema/overrides.ts';

export const sysSocketOverrides: ResourceOverrides = {
  icon: CampaignIcon,
};

export default sysSocketOverrides;
