/**
 * The zh-CN catalogue of the spec's fixed texts used on both sides (notices, confirms, errors,
 * sign-in rules, upload rules). Texts are verbatim from the spec; `{name}` marks a parameter
 * filled by `formatMessage`.
 */

export const messages = {
  notice: {
    submitted: '提交成功',
    created: '新增成功',
    updated: '编辑成功',
    deleted: '删除成功',
    done: '操作成功',
    modified: '修改成功',
    statusChanged: '状态修改成功',
    enabled: '启用成功',
    disabled: '禁用成功',
    avatarChanged: '头像修改成功',
    codeSent: '验证码发送成功',
    checkCode: '请注意查收验证码',
    codeSentValid: '发送成功，验证码有效期5分钟',
    copied: '复制成功',
    emailChanged: '邮箱修改成功',
    passwordReset: '密码重置成功，请重新登录',
    passwordChanged: '密码修改成功，请重新登录',
    executed: '执行成功',
    requestOk: '请求成功',
    educationSaved: '教育信息保存成功',
  },
  confirm: {
    title: '提示',
    ok: '确定',
    cancel: '取消',
    deleteOne: '确定删除本条数据吗？',
    deleteSelected: '确认删除选中的{count}条数据?',
    deleteSelectedPlain: '你确定删除选中的数据吗？',
    logout: '确定注销并退出系统吗？',
    enableDisable: '此操作将{action} 是否继续？',
  },
  error: {
    timeout: '网络请求超时',
    requestFailed: '接口请求失败',
    sessionExpired: '登录状态已过期，您可以继续留在该页面，或者重新登录',
    sessionExpiredTitle: '系统提示',
    relogin: '重新登录',
    cancel: '取消',
    dateFormat: '日期时间格式错误',
    webSocket: 'WebSocket连接发生错误',
    underConstruction: '页面正在开发建设中......',
  },
  upload: {
    xlsxOnly: '上传模板只能是xlsx格式!',
    tooLarge: '上传模板大小不能超过 10MB!',
  },
  ui: {
    pickAtLeastOneColumn: '请至少选择一列',
    tooManyTabs: '最多支持10个菜单项!',
    searchMenu: '查找菜单',
    login: '登 录',
    rememberMe: '记住我',
    forgotPassword: '忘记密码',
    accountTab: '账号登录',
  },
  login: {
    usernameRequired: '用户名/手机号不能为空',
    lockUsernameRequired: '用户名不能为空',
    passwordRequired: '密码不能为空',
    codeRequired: '验证码不能为空',
  },
  password: {
    newRequired: '新密码不能为空',
    newRule: '只能输入6-20个以字母开头、可带数字的字串',
    oldPrompt: '请输入旧密码',
    newPrompt: '请输入新密码',
    length: '长度在 6 到 20 个字符',
    confirmPrompt: '请再次输入密码',
    mismatch: '两次输入的密码不一致',
    codePrompt: '请输入验证码',
  },
  contact: {
    phonePrompt: '请输入电话号码',
    mobileInvalid: '请输入正确的11位手机号码',
    emailRequired: '新邮箱不能为空',
    emailInvalid: '邮箱格式错误',
    nickNameRequired: '昵称不能为空',
  },
} as const;

export type Messages = typeof messages;

/** Fills `{name}` parameters: formatMessage(messages.confirm.deleteSelected, {count: 3}) -> 确认删除选中的3条数据? */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
