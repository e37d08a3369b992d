/** Menu icon names (as stored with each menu) to icons; unknown names get a plain page icon. */
import type { SvgIconComponent } from '@mui/icons-material';
import ArticleIcon from '@mui/icons-material/Article';
import BarChartIcon from '@mui/icons-material/BarChart';
import FeedbackIcon from '@mui/icons-material/Feedback';
import FolderIcon from '@mui/icons-material/Folder';
import PeopleIcon from '@mui/icons-material/People';
import SettingsIcon from '@mui/icons-material/Settings';
import WorkIcon from '@mui/icons-material/Work';
import BadgeIcon from '@mui/icons-material/Badge';
import MenuIcon from '@mui/icons-material/Menu';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import ListAltIcon from '@mui/icons-material/ListAlt';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import PaidIcon from '@mui/icons-material/Paid';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import ForumIcon from '@mui/icons-material/Forum';
import DirectionsCarIcon from '@mui/icons-material/DirectionsCar';
import BackupIcon from '@mui/icons-material/Backup';
import PrivacyTipIcon from '@mui/icons-material/PrivacyTip';
import { resourceShellParts } from '../resources/shellParts.ts';

const BY_NAME: Record<string, SvgIconComponent> = {
  peoples: PeopleIcon,
  people: PeopleIcon,
  system: SettingsIcon,
  chart: BarChartIcon,
  feedback: FeedbackIcon,
  job: WorkIcon,
  role: BadgeIcon,
  menu: MenuIcon,
  dept: AccountTreeIcon,
  dictionary: MenuBookIcon,
  tree: ListAltIcon,
  guide: HelpOutlineIcon,
  money: PaidIcon,
  phone: SupportAgentIcon,
  wechat: ForumIcon,
  car: DirectionsCarIcon,
  backup: BackupIcon,
  lock: PrivacyTipIcon,
};

export function menuIcon(name: string | null, route: string | undefined, directory: boolean): SvgIconComponent {
  if (name && BY_NAME[name]) return BY_NAME[name];
  const resource = route?.replace(/^\//, '').split(/[/:]/)[0];
  const override = resource ? resourceShellParts[resource]?.icon : undefined;
  if (override) return override as SvgIconComponent;
  return directory ? FolderIcon : ArticleIcon;
}
