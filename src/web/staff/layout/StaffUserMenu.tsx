/** User dropdown: organisation, nickname and role names, personal centre, logout. */
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import PersonIcon from '@mui/icons-material/Person';
import SettingsIcon from '@mui/icons-material/Settings';
import { forwardRef } from 'react';
import { UserMenu, useGetIdentity, useRedirect, useUserMenu } from 'react-admin';
import { LogoutMenuItem } from './LogoutMenuItem.tsx';
import { JobDescriptionMenuItem } from './JobDescriptionMenuItem.tsx';
import { openSettings } from '../shell/SettingsDrawer.tsx';

function lastSegment(path: unknown): string {
  return typeof path === 'string' ? (path.split('/').filter(Boolean).pop() ?? '') : '';
}

const ProfileMenuItem = forwardRef<HTMLLIElement>(function ProfileMenuItem(props, ref) {
  const redirect = useRedirect();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      {...props}
      onClick={() => {
        userMenu?.onClose();
        redirect('/user/center');
      }}
    >
      <ListItemIcon>
        <PersonIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>个人中心</ListItemText>
    </MenuItem>
  );
});

const SettingsMenuItem = forwardRef<HTMLLIElement>(function SettingsMenuItem(props, ref) {
  const userMenu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      {...props}
      onClick={() => {
        userMenu?.onClose();
        openSettings();
      }}
    >
      <ListItemIcon>
        <SettingsIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>布局设置</ListItemText>
    </MenuItem>
  );
});

export function StaffUserMenu() {
  const { identity } = useGetIdentity();
  const roles = Array.isArray(identity?.roles) ? (identity.roles as Array<{ name: string }>).map((r) => r.name).join('、') : '';
  // the header button shows the user's name: its accessible name starts with that text (WCAG label in name)
  const label = identity?.fullName ? `${identity.fullName} 个人中心` : '个人中心';
  return (
    <UserMenu label={label}>
      <Box sx={{ px: 2, py: 1, minWidth: 200 }}>
        <Typography variant="subtitle2">{identity?.fullName}</Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {[identity?.orgName, lastSegment(identity?.deptNamePath)].filter(Boolean).join(' / ')}
        </Typography>
        {roles ? (
          <Typography variant="caption" color="text.secondary" component="div">
            {roles}
          </Typography>
        ) : null}
      </Box>
      <Divider />
      <SettingsMenuItem />
      <ProfileMenuItem />
      <JobDescriptionMenuItem />
      <LogoutMenuItem />
    </UserMenu>
  );
}
