/** Menu help pages (菜单帮助页): the generated screen with its own icon; the content is shown on /help. */
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import type { ResourceOverrides } from '../../schema/overrides.ts';

const menuPageOverrides: ResourceOverrides = { icon: HelpOutlineIcon };

export default menuPageOverrides;
