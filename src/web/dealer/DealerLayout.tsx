/**
 * /comp/jxs_comp: the dealer layout. Sidebar 205 px (50 px collapsed) with 用车客户 (index 2)
 * and 用车需求 (index 3); the chosen view and the sidebar state are remembered in session
 * storage. Header: collapse toggle, title, [user label], personal-centre dropdown with 退出登录
 * (confirm 确定注销并退出系统吗？; the server session is ended too), 修改密码, and 绑定手机号 or, with a
 * bound phone, 修改手机号 showing the number, and 锁屏时间 (the idle lock, as for staff).
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import MenuIcon from '@mui/icons-material/Menu';
import PeopleIcon from '@mui/icons-material/People';
import DirectionsCarIcon from '@mui/icons-material/DirectionsCar';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { usePublicSettings } from '../settings.ts';
import { BRAND_BLUE_ON_DARK } from '../common/palette.ts';
import { RecordFooter } from '../components/RecordFooter.tsx';
import { dealerFetch } from './http.ts';
import { DEALER_SIDEBAR_KEY, DEALER_VIEW_KEY, dealerLabel, getDealerSession, signOutToLogin } from './session.ts';
import CustomerList from './CustomerList.tsx';
import RequestList from './RequestList.tsx';
import { PasswordDialog, PhoneDialog } from './AccountDialogs.tsx';
import { DealerIdleLock, DealerLockTimeDialog } from './DealerIdleLock.tsx';
import { productName } from '../../shared/product.ts';

export const SIDEBAR_OPEN_PX = 205;
export const SIDEBAR_CLOSED_PX = 50;
export const DEALER_MENU = [
  { index: '2', title: '用车客户', icon: <PeopleIcon fontSize="small" /> },
  { index: '3', title: '用车需求', icon: <DirectionsCarIcon fontSize="small" /> },
] as const;

function initialView(path: string): string {
  if (path === '/comp/jxs_khdj_list') return '2';
  if (path === '/comp/jxs_dbc') return 'usage';
  const saved = sessionStorage.getItem(DEALER_VIEW_KEY);
  return saved === '2' || saved === '3' ? saved : '2';
}

export default function DealerLayout({ path }: { path: string }) {
  const sys = usePublicSettings();
  const session = getDealerSession();
  const label = dealerLabel(session?.user);
  const [view, setView] = useState(() => initialView(path));
  // a phone starts with the folded sidebar (icons only): the open one would take most of the screen
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const [open, setOpen] = useState(() => {
    const saved = sessionStorage.getItem(DEALER_SIDEBAR_KEY);
    return saved === null ? !phone : saved !== '0';
  });
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const [accountDialog, setAccountDialog] = useState<'password' | 'phone' | 'lock' | null>(null);
  const [lockMinutes, setLockMinutes] = useState(() => Number(session?.user.lockTime ?? 0));
  const boundMobile = session?.user.mobile ?? '';
  const width = open ? SIDEBAR_OPEN_PX : SIDEBAR_CLOSED_PX;

  const choose = (index: string) => {
    setView(index);
    sessionStorage.setItem(DEALER_VIEW_KEY, index);
  };
  const toggle = () => {
    sessionStorage.setItem(DEALER_SIDEBAR_KEY, open ? '0' : '1');
    setOpen(!open);
  };
  const logout = async () => {
    setConfirmLogout(false);
    try {
      await dealerFetch('comp/dbcCompany/auth/logout', { quiet: true });
    } catch {
      /* signed out locally anyway */
    }
    signOutToLogin();
  };

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Box
        component="nav"
        data-testid="dealer-sidebar"
        sx={{ width, flexShrink: 0, bgcolor: '#304156', color: '#bfcbd9', transition: 'width .28s', overflow: 'hidden' }}
      >
        <Box
          sx={{
            height: 50,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#fff',
            fontWeight: 600,
            whiteSpace: 'nowrap',
          }}
        >
          {open ? '经销商代步车平台' : '代'}
        </Box>
        {/* buttons in a plain group: a list may only hold list items */}
        <List dense disablePadding component="div">
          {DEALER_MENU.map((m) => (
            <Tooltip key={m.index} title={open ? '' : m.title} placement="right">
              <ListItemButton
                selected={view === m.index}
                aria-current={view === m.index ? 'page' : undefined}
                onClick={() => choose(m.index)}
                data-index={m.index}
                sx={{ height: 50, color: view === m.index ? BRAND_BLUE_ON_DARK : 'inherit', '&.Mui-selected': { bgcolor: '#263445' } }}
              >
                <ListItemIcon sx={{ color: 'inherit', minWidth: open ? 36 : 0 }}>{m.icon}</ListItemIcon>
                {open ? <ListItemText primary={m.title} /> : null}
              </ListItemButton>
            </Tooltip>
          ))}
        </List>
      </Box>
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', bgcolor: '#f0f2f5' }}>
        <Box
          component="header"
          sx={{ height: 50, display: 'flex', alignItems: 'center', px: 1, bgcolor: '#fff', boxShadow: '0 1px 4px rgba(0,21,41,.08)' }}
        >
          <IconButton aria-label={open ? '收起菜单' : '展开菜单'} onClick={toggle} size="small">
            <MenuIcon />
          </IconButton>
          <Typography noWrap sx={{ ml: 1, fontWeight: 600, display: { xs: 'none', sm: 'block' } }}>
            {productName(sys.title)}
          </Typography>
          <Typography noWrap sx={{ ml: 1, minWidth: 0, color: 'text.secondary' }} data-testid="dealer-label">
            [{label}]
          </Typography>
          <Box sx={{ flex: 1 }} />
          <Button
            color="inherit"
            endIcon={<ArrowDropDownIcon />}
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
            onClick={(e) => setMenuAnchor(e.currentTarget)}
          >
            个人中心
          </Button>
          <Menu anchorEl={menuAnchor} open={!!menuAnchor} onClose={() => setMenuAnchor(null)}>
            <MenuItem
              onClick={() => {
                setMenuAnchor(null);
                setAccountDialog('password');
              }}
            >
              修改密码
            </MenuItem>
            <MenuItem
              onClick={() => {
                setMenuAnchor(null);
                setAccountDialog('phone');
              }}
            >
              {boundMobile ? `修改手机号（${boundMobile}）` : '绑定手机号'}
            </MenuItem>
            <MenuItem
              onClick={() => {
                setMenuAnchor(null);
                setAccountDialog('lock');
              }}
            >
              {lockMinutes ? `锁屏时间（${lockMinutes}分钟）` : '锁屏时间（永不）'}
            </MenuItem>
            <MenuItem
              onClick={() => {
                setMenuAnchor(null);
                setConfirmLogout(true);
              }}
            >
              退出登录
            </MenuItem>
          </Menu>
        </Box>
        <Box component="main" sx={{ p: 2, flex: 1, minWidth: 0 }}>
          {view === '2' ? <CustomerList /> : view === '3' ? <RequestList mode="requests" /> : <RequestList mode="usage" />}
        </Box>
        <RecordFooter
          compName={sys.compName}
          recordNumber={sys.recordNumber}
          sx={{ textAlign: 'center', color: 'text.secondary', py: 1.5 }}
        />
      </Box>
      {accountDialog === 'password' ? <PasswordDialog onClose={() => setAccountDialog(null)} onChanged={signOutToLogin} /> : null}
      {accountDialog === 'phone' ? <PhoneDialog onClose={() => setAccountDialog(null)} /> : null}
      <DealerLockTimeDialog
        open={accountDialog === 'lock'}
        value={lockMinutes}
        onClose={() => setAccountDialog(null)}
        onSaved={(user) => {
          setLockMinutes(Number(user.lockTime ?? 0));
          setAccountDialog(null);
        }}
      />
      <DealerIdleLock lockMinutes={lockMinutes} username={session?.user.username ?? ''} />
      <Dialog open={confirmLogout} onClose={() => setConfirmLogout(false)}>
        <DialogTitle>提示</DialogTitle>
        <DialogContent>确定注销并退出系统吗？</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmLogout(false)}>取消</Button>
          <Button variant="contained" onClick={() => void logout()}>
            确定
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
