/** The administration screens of the 系统管理 directory, by route (the menus' paths). */
import type { ComponentType } from 'react';
import { lazyPage } from '../../lazyPart.tsx';

// each screen's code comes when it is first opened
const UserAdmin = lazyPage(() => import('./UserAdmin.tsx'), 'UserAdmin');
const RoleAdmin = lazyPage(() => import('./RoleAdmin.tsx'), 'RoleAdmin');
const MenuAdmin = lazyPage(() => import('./MenuAdmin.tsx'), 'MenuAdmin');
const DeptAdmin = lazyPage(() => import('./DeptAdmin.tsx'), 'DeptAdmin');
const DictAdmin = lazyPage(() => import('./DictAdmin.tsx'), 'DictAdmin');
const BusiDictAdmin = lazyPage(() => import('./BusiDictAdmin.tsx'), 'BusiDictAdmin');
const SettingsAdmin = lazyPage(() => import('./SettingsAdmin.tsx'), 'SettingsAdmin');
const BackupAdmin = lazyPage(() => import('./BackupAdmin.tsx'), 'BackupAdmin');
const PrivacyAdmin = lazyPage(() => import('./PrivacyAdmin.tsx'), 'PrivacyAdmin');

export const SYSTEM_SCREENS: Array<{ path: string; title: string; component: ComponentType }> = [
  { path: '/system/user', title: '用户管理', component: UserAdmin },
  { path: '/system/role', title: '角色管理', component: RoleAdmin },
  { path: '/system/menu', title: '菜单管理', component: MenuAdmin },
  { path: '/system/dept', title: '部门管理', component: DeptAdmin },
  { path: '/system/dict', title: '字典管理', component: DictAdmin },
  { path: '/system/busidict', title: '业务字典', component: BusiDictAdmin },
  { path: '/system/settings', title: '系统设置', component: SettingsAdmin },
  { path: '/system/backup', title: '备份管理', component: BackupAdmin },
  { path: '/system/privacy', title: '个人信息保护', component: PrivacyAdmin },
];
