/** Side menu: 首页 and one entry per resource (labels from the resource titles). */
import HomeIcon from '@mui/icons-material/Home';
import { Menu } from 'react-admin';

export function StaffMenu() {
  return (
    <Menu>
      <Menu.Item to="/dashboard" primaryText="首页" leftIcon={<HomeIcon />} />
      <Menu.ResourceItems />
    </Menu>
  );
}
