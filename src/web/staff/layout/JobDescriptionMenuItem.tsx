/** User dropdown entry to 岗位说明 (the job description page). */
import { forwardRef } from 'react';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import BadgeIcon from '@mui/icons-material/Badge';
import { useRedirect, useUserMenu } from 'react-admin';

export const JobDescriptionMenuItem = forwardRef<HTMLLIElement>(function JobDescriptionMenuItem(props, ref) {
  const redirect = useRedirect();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      {...props}
      onClick={() => {
        userMenu?.onClose();
        redirect('/jobDescription');
      }}
    >
      <ListItemIcon>
        <BadgeIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>岗位说明</ListItemText>
    </MenuItem>
  );
});
