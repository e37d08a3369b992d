/** 退出登录 in the user menu, after the confirm 确定注销并退出系统吗？ */
import { forwardRef, useState } from 'react';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import ExitIcon from '@mui/icons-material/PowerSettingsNew';
import { Confirm, useLogout, useUserMenu } from 'react-admin';
import { messages } from '../../../shared/messages.ts';

export const LOGOUT_CONFIRM = messages.confirm.logout;

export const LogoutMenuItem = forwardRef<HTMLLIElement>(function LogoutMenuItem(props, ref) {
  const [asking, setAsking] = useState(false);
  const logout = useLogout();
  const userMenu = useUserMenu();
  return (
    <>
      <MenuItem ref={ref} {...props} onClick={() => setAsking(true)}>
        <ListItemIcon>
          <ExitIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>退出登录</ListItemText>
      </MenuItem>
      <Confirm
        isOpen={asking}
        title={messages.confirm.title}
        content={LOGOUT_CONFIRM}
        confirm={messages.confirm.ok}
        cancel={messages.confirm.cancel}
        onConfirm={() => {
          setAsking(false);
          userMenu?.onClose();
          void logout();
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
});
