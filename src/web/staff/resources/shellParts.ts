/**
 * What the console's frame needs of a resource before any of its screen's code: the menu icon
 * (sidebar, menu search) and the record's own page at `#/{name}/{id}/show` (whose code comes
 * when a record is first opened). Everything else a resource changes in its screen is in
 * ./index.ts, which comes with the list screens.
 */
import type { ComponentType } from 'react';
import AssignmentIcon from '@mui/icons-material/Assignment';
import BadgeIcon from '@mui/icons-material/Badge';
import CampaignIcon from '@mui/icons-material/Campaign';
import FeedbackIcon from '@mui/icons-material/Feedback';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import ScheduleIcon from '@mui/icons-material/Schedule';
import StoreIcon from '@mui/icons-material/Store';
import WorkIcon from '@mui/icons-material/Work';
import { lazyPage } from '../lazyPart.tsx';

export interface ResourceShellParts {
  /** the menu icon (a menu's own icon name, when it has one, comes first) */
  icon?: ComponentType;
  /** the record's own page at `#/{name}/{id}/show` */
  Show?: ComponentType;
}

export const resourceShellParts: Record<string, ResourceShellParts> = {
  applicant: { icon: PersonSearchIcon, Show: lazyPage(() => import('./applicant/ApplicantDetail.tsx'), 'ApplicantDetail') },
  dbcCompany: { icon: StoreIcon },
  dbcInfo: { icon: AssignmentIcon },
  dj: { icon: ScheduleIcon },
  jobExplain: { icon: BadgeIcon },
  menuPage: { icon: HelpOutlineIcon },
  staff: { icon: BadgeIcon },
  staffunZp: { icon: WorkIcon },
  sysQuestion: { icon: FeedbackIcon },
  sysSocket: { icon: CampaignIcon },
};
