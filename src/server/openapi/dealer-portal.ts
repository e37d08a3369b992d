/**
 * The dealer portal's routes (modules/dealer: /comp/dbcCompany/...), the contract PDFs and the
 * download of a finished export, as the OpenAPI document describes them. Merged by
 * api-docs-routes.ts.
 */
import { arrayOf, empty, json, nullable, refusal, object, pageOf, ref, type Json } from './shapes.ts';

const pdf = (summary: string, disposition: string) => ({
  summary,
  querystring: object({ contract_id: { type: 'integer', minimum: 1, description: '合同编号即用车需求ID' } }),
  response: {
    200: {
      description: `合同 PDF（Content-Disposition: ${disposition}）`,
      content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
    },
    404: refusal('合同不存在（需求尚未审核通过）'),
  },
});

export const DEALER_PORTAL_COMPONENTS: Record<string, Json> = {
  DealerUser: object({
    id: { type: 'integer', description: '经销商公司ID' },
    compName: { type: 'string' },
    compCode: { type: 'string' },
    username: { type: 'string' },
    mobile: nullable('string', { description: '绑定的手机号' }),
    lockTime: { type: 'integer', description: '锁屏时间（分钟），0 不锁屏' },
  }),
  Member: object({
    mobile: { type: 'string' },
    surname: { type: 'string' },
    sex: { type: 'integer', description: '0 女，1 男' },
    mid: nullable('string', { description: '会员ID' }),
    idno: nullable('string', { description: '身份证号（脱敏）' }),
    birthday: nullable('string'),
    status: { type: 'integer', description: '0 未注册，1 客户，2 员工，3 黑卡，4 天使' },
    subscribe: { type: 'integer', description: '1 已关注公众号，0 未关注' },
  }),
  DemandHistory: object({
    id: { type: 'integer' },
    fromStatus: nullable('integer'),
    toStatus: { type: 'integer' },
    action: { type: 'string' },
    reason: nullable('string'),
    actorKind: { type: 'string' },
    actor: { type: 'string' },
    createTime: { type: 'string' },
  }),
};

export const DEALER_PORTAL_ROUTES: Record<string, Json> = {
  'POST /comp/dbcCompany/auth/login': {
    summary: '经销商登录',
    body: object({
      username: { type: 'string', minLength: 1 },
      password: { type: 'string', description: '密码的 RSA-OAEP（SHA-256）密文，base64；公钥来自 GET /api/publicKey' },
    }),
    response: {
      200: json(object({ token: { type: 'string', description: '经销商令牌' }, user: ref('DealerUser') }), '令牌与经销商信息'),
      423: refusal('连续输错密码，账号暂时锁定'),
    },
  },
  'GET /comp/dbcCompany/auth/login': {
    summary: '经销商登录不接受 GET（账号和密码不能放在地址中）',
    response: { 405: refusal('请使用 POST') },
  },
  'GET /comp/dbcCompany/auth/logout': {
    summary: '经销商退出登录',
    response: { 200: json(object({}, [], { additionalProperties: false }), '已退出') },
  },
  'GET /comp/dbcCompany/auth/info': { summary: '当前经销商', response: { 200: json(ref('DealerUser'), '经销商信息') } },
  'GET /comp/dbcCompany/getMember': {
    summary: '按手机号查询公众号会员（需客户收到的授权验证码）',
    querystring: object({ mobile: { type: 'string' }, code: { type: 'string' } }),
    response: { 200: json(ref('Member'), '会员（身份证号、生日脱敏）') },
  },
  'GET /comp/dbcCompany/getDbcUserInfos': {
    summary: '本公司的用车客户',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        mobile: { type: 'string' },
      },
      [],
    ),
    response: { 200: json(pageOf(ref('dbcUserInfo')), '一页客户') },
  },
  'GET /comp/dbcCompany/getDbcUserInfo': {
    summary: '本公司的一个用车客户',
    querystring: object({ id: { type: 'integer', minimum: 1 } }),
    response: { 200: json(ref('dbcUserInfo'), '客户'), 404: refusal('客户不存在') },
  },
  'POST /comp/dbcCompany/submitDbcUserInfo': {
    summary: '新增用车客户（资料取自公众号会员，需客户收到的授权验证码）',
    body: object({ mobile: { type: 'string' }, code: { type: 'string' } }),
    response: { 201: json(ref('dbcUserInfo'), '新增的客户') },
  },
  'PUT /comp/dbcCompany/updateDbcUserInfo': {
    summary: '重新读取客户的会员资料',
    body: object({ id: { type: 'integer', minimum: 1 }, mobile: { type: 'string' }, code: { type: 'string' } }, ['id']),
    response: { 204: empty('已修改') },
  },
  'POST /comp/dbcCompany/submitDbcInfo': {
    summary: '提交用车需求',
    body: ref('dbcInfoBody'),
    response: { 201: json(ref('dbcInfo'), '新的用车需求（审核中）') },
  },
  'POST /comp/dbcCompany/getDbcInfos': {
    summary: '本公司的用车需求（条件在请求体中）',
    body: object(
      {
        page: { type: 'integer', minimum: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        blurry: { type: 'string' },
        status: { type: 'integer' },
        shStatus: { type: 'integer' },
        ddStatus: { type: 'integer' },
      },
      [],
    ),
    response: { 200: json(pageOf(ref('dbcInfo')), '一页用车需求') },
  },
  'GET /comp/dbcCompany/getDbcInfo': {
    summary: '本公司的一个用车需求',
    querystring: object({ id: { type: 'integer', minimum: 1 } }),
    response: { 200: json(ref('dbcInfo'), '用车需求'), 404: refusal('用车需求不存在') },
  },
  'GET /comp/dbcCompany/getDbcInfoHistory': {
    summary: '用车需求的状态变化',
    querystring: object({ id: { type: 'integer', minimum: 1 } }),
    response: { 200: json(arrayOf(ref('DemandHistory')), '状态变化') },
  },
  'PUT /comp/dbcCompany/updateDbcInfo': {
    summary: '修改用车需求（审核中或未通过时），改后重新审核',
    body: { allOf: [ref('dbcInfoBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改') },
  },
  'GET /comp/dbcCompany/getTree': {
    summary: '启用的品牌车型树（选择事故车型用）',
    querystring: object({ levels: { type: 'integer', minimum: 1, maximum: 5 } }, []),
    response: { 200: json(arrayOf(ref('BrandNode')), '品牌及其下级') },
  },
  'POST /comp/dbcCompany/sendMessage': {
    summary: '发送短信验证码',
    body: object({
      mobile: { type: 'string' },
      type: { type: 'integer', enum: [2, 3, 4, 5], description: '2 修改密码，3 绑定手机，4 更换手机，5 客户授权' },
    }),
    response: { 200: json(object({ Code: { type: 'string', const: 'OK' } }), '已发送') },
  },
  'PUT /comp/dbcCompany/updatePass': {
    summary: '修改密码（验证码发到绑定的手机）',
    body: object({ code: { type: 'string' }, oldPass: { type: 'string' }, newPass: { type: 'string' }, confirmPass: { type: 'string' } }),
    response: { 200: json(object({}, [], { additionalProperties: false }), '已修改，所有会话结束') },
  },
  'PUT /comp/dbcCompany/updateDbcCompany': {
    summary: '绑定或更换手机号',
    body: object({ mobile: { type: 'string' }, code: { type: 'string' } }),
    response: { 200: json(ref('DealerUser'), '新的经销商信息') },
  },

  'PUT /comp/dbcCompany/lockTime': {
    summary: '设置锁屏时间',
    body: object({ lockTime: { type: 'integer', minimum: 0, maximum: 999, description: '分钟，0 不锁屏' } }),
    response: { 200: json(ref('DealerUser'), '新的经销商信息') },
  },
  'GET /api/dbc/dbcInfo/viewContract': pdf('查看合同（浏览器内显示）', 'inline'),
  'GET /api/dbc/dbcInfo/downloadContract': pdf('下载合同', 'attachment'),
  'GET /api/dbc/dbcInfo/viewOrDownloadContract': {
    ...pdf('查看或下载合同', 'inline 或 attachment'),
    querystring: object({ contract_id: { type: 'integer', minimum: 1 }, type: { type: 'string', description: 'view 或 download' } }, [
      'contract_id',
    ]),
  },
  'GET /comp/dbcCompany/viewContract': pdf('经销商查看合同', 'inline'),
  'GET /comp/dbcCompany/downloadContract': pdf('经销商下载合同', 'attachment'),
  'GET /api/downloadFile/{id}': {
    summary: '下载后台导出完成的文件（仅本人）',
    response: {
      200: {
        description: '文件（通常为 xlsx）',
        content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
      },
      403: refusal('不是本人的文件'),
      404: refusal('文件不存在或已过期'),
    },
  },
};
