/**
 * The sign-in and session routes in the OpenAPI document (auth/routes.ts, health.ts, metrics):
 * captcha, public key, login, the session's user and menus, logout, health checks and /metrics.
 * Merged into HAND_WRITTEN_ROUTES and HAND_WRITTEN_COMPONENTS by api-docs-routes.ts.
 */
import { PASSWORD_EXPIRED } from '../auth/account-policy.ts';
import { arrayOf, errorAnswer, json, nullable, refusal, object, ref, type Json } from './shapes.ts';

export const SESSION_COMPONENTS: Record<string, Json> = {
  Captcha: object(
    {
      img: { type: 'string', description: 'SVG 图片（data:image/svg+xml;base64,…），内容为一道算式；验证码关闭时为空' },
      uuid: { type: 'string', description: '验证码编号，登录时原样提交；验证码关闭时为空' },
      enabled: { type: 'boolean', description: '是否需要验证码（CAPTCHA_ENABLED）' },
    },
    ['img', 'uuid', 'enabled'],
  ),
  LoginBody: object(
    {
      username: { type: 'string', minLength: 1, maxLength: 64, description: '用户名或手机号' },
      password: {
        type: 'string',
        minLength: 1,
        maxLength: 1024,
        description: '密码的 RSA-OAEP（SHA-256）密文，base64；公钥来自 GET /api/publicKey',
      },
      code: { type: 'string', description: '验证码图片中算式的结果；验证码关闭时可省略' },
      uuid: { type: 'string', description: 'GET /api/code 返回的 uuid' },
      rememberMe: { type: 'boolean', default: false, description: '记住我：会话保持 REMEMBER_ME_DAYS 天' },
      platTypeId: { description: '管理后台发送的平台标识，服务器不使用' },
    },
    ['username', 'password'],
  ),
  RoleInfo: object({
    id: { type: 'integer' },
    name: { type: 'string' },
    dataScope: { type: 'string', description: '数据权限：全部 / 本级 / 自定义' },
    level: { type: 'integer', description: '角色级别，1 最高' },
  }),
  UserView: object({
    id: { type: 'integer' },
    username: { type: 'string' },
    nickName: { type: 'string' },
    orgId: nullable('integer', { description: '所属公司（顶级部门）' }),
    orgName: nullable('string'),
    deptId: nullable('integer'),
    deptNamePath: { type: 'string', description: '部门路径，如 总公司/销售部' },
    phone: nullable('string'),
    email: nullable('string'),
    sex: { type: 'integer', description: '1 男，0 女' },
    img: nullable('string'),
    wxImg: nullable('string'),
    idno: nullable('string'),
    lockTime: { type: 'integer', description: '锁屏时间（分钟），0 不锁屏' },
    lastPasswordResetDate: nullable('string'),
    defPassword: { type: 'boolean', description: '仍是初始密码：管理后台会要求先修改密码' },
    enabled: { type: 'boolean' },
    roles: arrayOf(ref('RoleInfo')),
  }),
  SessionInfo: object({
    user: ref('UserView'),
    permissions: arrayOf({ type: 'string' }),
    sys: { type: 'object', additionalProperties: true, description: '公开的系统设置（系统名称、公司名称、备案号、图片地址）' },
  }),
  LoginAnswer: {
    allOf: [
      ref('SessionInfo'),
      object(
        {
          token: { type: 'string', description: '员工令牌：之后每个请求带 Authorization: Bearer <token>' },
          rememberMeDays: { type: 'integer', description: '仅记住我时返回：会话天数' },
        },
        ['token'],
      ),
    ],
  },
  Health: object({ status: { type: 'string', const: 'UP' } }),
};

export const SESSION_ROUTES: Record<string, Json> = {
  'GET /metrics': {
    summary: 'Prometheus 监控指标（文本格式）；请求头 Authorization: Bearer <METRICS_TOKEN>，未设置 METRICS_TOKEN 时一律 401',
    response: {
      200: {
        description: 'Prometheus 文本格式 0.0.4 的指标（标签只取有限集合：路由模板、操作、表名、状态类别，不含任何数据值）',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
      401: errorAnswer(401, '缺少或错误的监控令牌', '需要有效的监控令牌（METRICS_TOKEN）'),
    },
  },
  'GET /api/health': { summary: '存活检查', response: { 200: json(ref('Health'), '进程在运行') } },
  'GET /api/health/ready': {
    summary: '就绪检查：数据库 2 秒内应答',
    response: { 200: json(object({ status: { type: 'string', const: 'UP' }, database: { type: 'string', const: 'UP' } }), '可以接收请求') },
  },
  'GET /api/code': { summary: '登录验证码', response: { 200: json(ref('Captcha'), '验证码图片与编号') } },
  'GET /api/publicKey': {
    summary: '登录密码加密公钥',
    response: {
      200: json(object({ publicKey: { type: 'string', description: 'RSA 2048 公钥，SPKI DER 的 base64' } }), '公钥'),
    },
  },
  'POST /api/login': {
    summary: '员工登录',
    body: ref('LoginBody'),
    response: {
      200: json(ref('LoginAnswer'), '令牌与登录用户信息'),
      403: errorAnswer(403, '密码超过100天未修改，账号已停用', PASSWORD_EXPIRED),
      423: refusal('连续输错密码，账号暂时锁定（提示锁定到何时）'),
    },
  },
  'GET /api/info': { summary: '当前登录用户信息', response: { 200: json(ref('SessionInfo'), '用户、权限与公开设置') } },
  'DELETE /api/logout': {
    summary: '退出登录（所有实例上立即失效）',
    response: { 200: json(object({}, [], { additionalProperties: false }), '已退出') },
  },
  'GET /api/menus/build': { summary: '当前用户的侧边栏菜单树', response: { 200: json(arrayOf(ref('MenuVo')), '菜单树') } },
};
