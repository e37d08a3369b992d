/**
 * The initial password of a staff account: a new user and a reset get it (用户管理 新增 /
 * 重置密码), and the console says it when it gives it, so the administrator can tell the
 * colleague; the user must change it at the first sign-in.
 */
export const DEFAULT_USER_PASSWORD = 'Abc123456';

/** What the console says after 新增 of a user. */
export const USER_CREATED_NOTICE = `新增成功，初始密码为 ${DEFAULT_USER_PASSWORD}，用户首次登录时需修改密码`;

/** What the console says after 重置密码. */
export const PASSWORD_RESET_NOTICE = `密码已重置为初始密码 ${DEFAULT_USER_PASSWORD}，用户下次登录时需修改密码`;
