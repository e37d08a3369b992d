/**
 * The signed-in user's own calls and the sign-in helpers in the OpenAPI document: verification
 * codes and the forgotten-password reset (modules/account/code-routes.ts), the avatar
 * (user-center.ts), the WeCom QR sign-in (wecom-login.ts), the user pickers (access/users.ts,
 * access/user-picker.ts), the password reminder (jobs), the help page's menu, the decision
 * centre link and the staff chat room (messages/chat.ts).
 */
import { Type } from '@sinclair/typebox';
import type { ChatMessage } from '../modules/messages/chat.ts';
import { CHAT_EMPTY, CHAT_MAX_LENGTH } from '../modules/messages/chat.ts';
import { CODE_MESSAGES } from '../modules/account/codes.ts';
import { RESET_MESSAGES } from '../modules/account/code-routes.ts';
import { CENTER_MESSAGES } from '../modules/account/user-center.ts';
import { WECOM_MESSAGES } from '../modules/account/wecom-login.ts';
import { PASSWORD_EXPIRED } from '../auth/account-policy.ts';
import {
  arrayOf,
  empty,
  errorAnswer,
  idsBody,
  json,
  refusal,
  MESSAGE,
  noBody,
  nullable,
  object,
  pageOf,
  ref,
  same,
  uploadBody,
  type Json,
  type Static,
} from './shapes.ts';

const UserBriefSchema = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    nickName: Type.String(),
    deptId: Type.Union([Type.Integer(), Type.Null()]),
    orgId: Type.Union([Type.Integer(), Type.Null()]),
    enabled: Type.Boolean(),
  },
  { title: '用户（选择用，无个人信息）' },
);

const ChatMessageSchema = Type.Object(
  {
    id: Type.Integer(),
    formUser: Type.String({ description: '发送人用户名' }),
    formName: Type.String({ description: '发送人昵称' }),
    formImg: Type.Union([Type.String(), Type.Null()], { description: '发送人头像地址' }),
    msg: Type.String({ description: '消息（纯文本）' }),
    msgType: Type.Literal('CHAT'),
    createTime: Type.String(),
  },
  { title: '聊天消息' },
);
same<Static<typeof ChatMessageSchema>, ChatMessage>(true);

export const ACCOUNT_COMPONENTS: Record<string, Json> = { UserBrief: UserBriefSchema, ChatMessage: ChatMessageSchema };

const paging = {
  page: { type: 'integer', minimum: 0, default: 0, description: '页码，从0开始' },
  size: { type: 'integer', minimum: 1, maximum: 99999, description: '每页条数' },
};
const pickQuery = (extra: Json) =>
  object(
    {
      ...extra,
      blurry: { type: 'string', description: '匹配用户名或昵称' },
      enabled: { type: 'boolean' },
      ...paging,
      sort: arrayOf({ type: 'string' }),
    },
    Object.keys(extra).filter((k) => k === 'orgId'),
  );

const sent = MESSAGE(CODE_MESSAGES.sent);
const codeRefused = errorAnswer(400, '号码或邮箱不正确、一分钟内已发送或今日已达上限', CODE_MESSAGES.dailyLimit);
const phoneQuery = (name: string) => object({ [name]: { type: 'string', pattern: '^1\\d{10}$', description: '手机号' } });

const chatText = {
  type: 'string',
  minLength: 1,
  maxLength: CHAT_MAX_LENGTH * 20,
  description: `去掉标签后 1 到 ${CHAT_MAX_LENGTH} 个字符`,
};

export const ACCOUNT_ROUTES: Record<string, Json> = {
  'GET /api/users/pick': {
    summary: '选择用户：数据范围内的用户（简要字段，无个人信息）',
    querystring: pickQuery({ id: arrayOf({ type: 'integer', minimum: 1 }) }),
    response: { 200: json(pageOf(ref('UserBrief')), '一页用户') },
  },
  'GET /api/users/option': {
    summary: '某公司数据范围内的用户（下拉选择用）',
    querystring: pickQuery({ orgId: { type: 'integer', minimum: 1, description: '公司（顶级部门）' } }),
    response: {
      200: json(pageOf(ref('UserBrief')), '一页用户'),
      403: errorAnswer(403, '公司不在数据范围内', '只能选择本公司'),
    },
  },

  'POST /api/code/resetEmail': {
    summary: '向新邮箱发送验证码（修改邮箱用）',
    body: object({ value: { type: 'string', format: 'email', description: '新邮箱（也可用 email）' }, email: { type: 'string' } }, []),
    response: { 200: sent, 400: codeRefused },
  },
  'GET /api/sendEmailCode': {
    summary: '向新邮箱发送验证码（同 POST /api/code/resetEmail）',
    querystring: object({ email: { type: 'string', format: 'email' } }),
    response: { 200: sent, 400: codeRefused },
  },
  'POST /api/code/resetPhone': {
    summary: '向新手机号发送短信验证码（修改手机号用）',
    body: object({ value: { type: 'string', description: '新手机号（也可用 phone）' }, phone: { type: 'string' } }, []),
    response: { 200: sent, 400: codeRefused },
  },
  'GET /api/findByPhone': {
    summary: '忘记密码：手机号是否绑定了账号',
    querystring: phoneQuery('phone'),
    response: {
      200: json(object({ phone: { type: 'string' }, username: { type: 'string', description: '脱敏的用户名' } }), '绑定的账号'),
      400: errorAnswer(400, '手机号不正确或未绑定账号', RESET_MESSAGES.phoneUnknown),
    },
  },
  'GET /api/sendMsg': {
    summary: '忘记密码：向绑定的手机号发送验证码',
    querystring: phoneQuery('phone'),
    response: { 200: sent, 400: errorAnswer(400, '手机号未绑定账号或发送受限', RESET_MESSAGES.phoneUnknown) },
  },
  'POST /api/userWeb/getMsg': {
    summary: '忘记密码：向绑定的手机号发送验证码（手机号在查询参数 mobile 或请求体中）',
    querystring: object({ mobile: { type: 'string', description: '手机号' } }, []),
    body: object({ mobile: { type: 'string' }, phone: { type: 'string' }, value: { type: 'string' } }, [], {
      description: '可选：手机号也可放在请求体中（mobile、phone 或 value）',
    }),
    response: { 200: sent, 400: errorAnswer(400, '手机号未绑定账号或发送受限', RESET_MESSAGES.phoneUnknown) },
  },
  'POST /api/resetPassword': {
    summary: '忘记密码：用短信验证码设置新密码',
    body: object(
      {
        phone: { type: 'string' },
        code: { type: 'string', description: '短信验证码' },
        password: { type: 'string', description: '新密码的 RSA-OAEP（SHA-256）密文，base64（也可用 newPass）' },
      },
      ['phone', 'code', 'password'],
    ),
    response: { 200: MESSAGE('密码已重置'), 400: errorAnswer(400, '验证码、密码规则或账号状态不符', CODE_MESSAGES.wrong) },
  },

  'POST /api/users/updateAvatar': {
    summary: '上传本人头像（JPG、PNG、GIF 或 WEBP，最大 AVATAR_MAX_BYTES）',
    ...uploadBody('头像图片'),
    response: {
      200: json(
        object({
          avatar: { type: 'string', description: '头像地址 /api/users/avatar/{id}?v=…' },
          img: { type: 'string', description: '同 avatar' },
          message: { type: 'string' },
        }),
        '头像已修改',
      ),
      400: errorAnswer(400, '没有图片、格式不对或过大', CENTER_MESSAGES.avatarType),
    },
  },
  'GET /api/users/avatar/{id}': {
    summary: '用户头像图片（公开；地址中的版本号变化即换图）',
    response: {
      200: {
        description: '头像图片',
        content: Object.fromEntries(
          ['image/jpeg', 'image/png', 'image/gif', 'image/webp'].map((mime) => [
            mime,
            { schema: { type: 'string', contentMediaType: mime } },
          ]),
        ),
      },
      404: errorAnswer(404, '没有头像', '头像不存在'),
    },
  },

  'GET /api/getQywxInfo': {
    summary: '企业微信扫码登录参数（每次一个新的 state，一次有效）',
    response: {
      200: json(
        {
          oneOf: [
            object({
              configured: { type: 'boolean', const: true },
              appid: { type: 'string' },
              agentid: { type: 'string' },
              state: { type: 'string' },
              loginUrl: { type: 'string' },
            }),
            object({ configured: { type: 'boolean', const: false }, message: { type: 'string' } }),
          ],
        },
        '扫码参数；未配置时 configured 为 false',
      ),
    },
  },
  'GET /api/qywxLogin': {
    summary: '企业微信扫码登录：用回调的 code 和 state 登录（答复同 POST /api/login）',
    querystring: object({ code: { type: 'string', maxLength: 512 }, state: { type: 'string', maxLength: 64 } }),
    response: {
      200: json(ref('LoginAnswer'), '令牌、用户、权限与公开设置'),
      400: errorAnswer(400, '未配置、参数缺失、state 失效、授权失败或未绑定用户', WECOM_MESSAGES.stateInvalid),
      403: errorAnswer(403, '密码超过100天未修改，账号已停用', PASSWORD_EXPIRED),
      423: refusal('连续输错密码，账号暂时锁定（提示锁定到何时）'),
    },
  },

  'GET /api/jobs/passwordReminder': {
    summary: '本人未读的修改密码提醒',
    response: {
      200: json(
        object({
          reminder: {
            anyOf: [
              object({
                id: { type: 'integer' },
                days: { type: 'integer', description: '密码已使用天数' },
                createTime: { type: 'string' },
                message: { type: 'string' },
              }),
              { type: 'null' },
            ],
          },
        }),
        '提醒；没有时为 null',
      ),
    },
  },
  'PUT /api/jobs/passwordReminder/read': {
    summary: '本人的修改密码提醒标为已读',
    ...noBody('只把本人的提醒标为已读，不带请求体'),
    response: { 204: empty('已读') },
  },
  'GET /api/menuPage/menu': {
    summary: '帮助：页面路径对应的菜单',
    querystring: object({ path: { type: 'string', minLength: 1, maxLength: 255, description: '页面路径，如 system/user' } }),
    response: {
      200: json(object({ menuId: { type: 'integer' }, title: { type: 'string' } }), '菜单'),
      404: errorAnswer(404, '没有对应的菜单', '当前页面没有对应的菜单'),
    },
  },
  'GET /api/decision/getDecision': {
    summary: '数据决策中心单点登录链接（每次签发都有记录）',
    response: { 200: json(object({ ssoHref: nullable('string', { description: '签名的链接；未配置 SSO_LINK_URL 时为 null' }) }), '链接') },
  },
  'GET /api/decision/sso': {
    summary: '数据决策中心链接的签发记录',
    querystring: object(
      {
        ...paging,
        sort: arrayOf({ type: 'string', description: 'id、username、createTime，加 ,asc 或 ,desc' }),
        username: { type: 'string', maxLength: 64 },
        createTime: arrayOf({ type: 'string', format: 'date' }),
      },
      [],
    ),
    response: {
      200: json(
        pageOf(
          object({
            id: { type: 'integer' },
            username: { type: 'string' },
            nickName: nullable('string'),
            ip: nullable('string'),
            createTime: { type: 'string' },
          }),
        ),
        '一页记录',
      ),
    },
  },

  'GET /api/sysSocketChat': {
    summary: '聊天室：历史消息',
    querystring: object({ ...paging, sort: arrayOf({ type: 'string' }) }, []),
    response: { 200: json(pageOf(ref('ChatMessage')), '一页消息') },
  },
  'POST /api/sysSocketChat': {
    summary: '聊天室：发送消息（同时推送给在线的聊天连接）',
    body: object({ msg: chatText }),
    response: { 201: json(ref('ChatMessage'), '发送的消息'), 400: errorAnswer(400, '消息为空或过长', CHAT_EMPTY) },
  },
  'PUT /api/sysSocketChat': {
    summary: '聊天室：修改本人发送的消息',
    body: object({ id: { type: 'integer', minimum: 1 }, msg: chatText }),
    response: {
      204: empty('已修改'),
      403: errorAnswer(403, '不是本人的消息', '只能修改自己发送的消息'),
      404: errorAnswer(404, '消息不存在', '数据不存在'),
    },
  },
  'DELETE /api/sysSocketChat': {
    summary: '聊天室：删除本人的消息（管理员可删除任何消息）',
    body: { ...idsBody('要删除的消息 ID'), maxItems: 1000 },
    response: { 200: empty('已删除'), 403: errorAnswer(403, '不是本人的消息', '只能删除自己发送的消息') },
  },
  'GET /api/sysSocketChat/wssList': {
    summary: '聊天室：在线的员工',
    response: { 200: json(arrayOf(object({ sid: { type: 'string', description: '用户名' }, name: { type: 'string' } })), '在线员工') },
  },
};
