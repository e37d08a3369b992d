/**
 * What the hand-written routes take and answer, for the OpenAPI document only: the routes
 * themselves check their input in code and send what they build, and these schemas are not
 * given to Fastify (a response schema there would become its serialiser and drop any property
 * it does not list). api-docs.ts merges an entry into the documented route of the same
 * `METHOD /path` (OpenAPI form). `tests/server/api-docs-client.test.ts` checks the routes'
 * real answers against these schemas and type-checks a client generated from them.
 */
import { AREA_COMPONENTS, AREA_ROUTES } from './openapi/areas.ts';
import { PASSWORD_EXPIRED } from './auth/account-policy.ts';
import {
  arrayOf,
  empty,
  errorAnswer,
  idsBody,
  json,
  MESSAGE,
  noBody,
  nullable,
  refusal,
  object,
  pageOf,
  ref,
  type Json,
} from './openapi/shapes.ts';
import { LABELLED, TABLE_BINS, TABLE_HISTORY } from '../shared/table-history.ts';

/** Schemas the entries below refer to (`#/components/schemas/<name>`). */
export const HAND_WRITTEN_COMPONENTS: Record<string, Json> = {
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
  MenuVo: object(
    {
      name: { type: 'string' },
      path: { type: 'string' },
      hidden: { type: 'boolean' },
      redirect: { type: 'string' },
      component: { type: 'string', description: 'Layout / ParentView（目录）或页面的组件名' },
      alwaysShow: { type: 'boolean' },
      meta: object({ title: { type: 'string' }, icon: nullable('string'), noCache: { type: 'boolean' } }),
      children: arrayOf(ref('MenuVo')),
    },
    ['path', 'hidden', 'component'],
  ),
  MenuView: object(
    {
      id: { type: 'integer' },
      pid: { type: 'integer', description: '顶级为 0' },
      type: { type: 'integer', enum: [0, 1, 2], description: '0 目录，1 菜单（页面），2 按钮（权限标识）' },
      title: { type: 'string' },
      label: { type: 'string' },
      name: nullable('string'),
      component: nullable('string'),
      path: nullable('string'),
      icon: nullable('string'),
      sort: { type: 'integer' },
      menuSort: { type: 'integer' },
      permission: nullable('string'),
      hidden: { type: 'boolean' },
      cache: { type: 'boolean' },
      iFrame: { type: 'boolean' },
      createTime: nullable('string'),
      hasChildren: { type: 'boolean' },
      leaf: { type: 'boolean' },
      subCount: { type: 'integer' },
      children: arrayOf(ref('MenuView')),
    },
    [
      'id',
      'pid',
      'type',
      'title',
      'label',
      'name',
      'component',
      'path',
      'icon',
      'sort',
      'permission',
      'hidden',
      'cache',
      'iFrame',
      'hasChildren',
      'subCount',
    ],
  ),
  MenuBody: object(
    {
      type: { type: 'integer', enum: [0, 1, 2], default: 1 },
      title: { type: 'string', minLength: 1, maxLength: 100 },
      pid: nullable('integer', { description: '上级菜单；空为顶级' }),
      name: nullable('string', { maxLength: 100 }),
      component: nullable('string', { maxLength: 255 }),
      path: nullable('string', { maxLength: 255, description: '目录和菜单必填；外链以 http:// 或 https:// 开头' }),
      icon: nullable('string', { maxLength: 100 }),
      sort: { type: 'integer', minimum: 0, maximum: 999999, default: 999, description: '也可用 menuSort' },
      permission: nullable('string', { maxLength: 100, description: '按钮必填，格式 模块:操作' }),
      hidden: { type: 'boolean', default: false },
      cache: { type: 'boolean', default: false },
      iFrame: { type: 'boolean', default: false },
    },
    ['title'],
  ),
  Dict: object({
    id: { type: 'integer' },
    name: { type: 'string' },
    description: nullable('string'),
    isPublic: { type: 'boolean', description: '公开：GET /api/public 无需登录即可读取' },
    createTime: nullable('string'),
  }),
  DictBody: object(
    {
      name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$', maxLength: 64 },
      description: nullable('string', { maxLength: 255 }),
      isPublic: { type: 'boolean', default: false },
    },
    ['name'],
  ),
  DictDetail: object({
    id: { type: 'integer' },
    label: { type: 'string' },
    value: { type: 'string' },
    sort: { type: 'integer' },
    enabled: { type: 'boolean' },
    dictName: { type: 'string' },
    dict: ref('IdRef'),
    createTime: nullable('string'),
  }),
  DictDetailBody: object(
    {
      dictName: { type: 'string', description: '所属字典（或 dict: {id}、dictId）' },
      dict: ref('IdRef'),
      dictId: { type: 'integer', minimum: 1 },
      label: { type: 'string', minLength: 1, maxLength: 100 },
      value: { type: ['string', 'number', 'boolean'], description: '数字和 true/false 按文字保存' },
      sort: { type: 'integer', minimum: 0, maximum: 999999, default: 999 },
      enabled: { type: 'boolean', default: true },
    },
    ['label', 'value'],
  ),
  Option: object({ value: { type: 'string' }, label: { type: 'string' } }),
  BusiDict: object({
    id: { type: 'integer' },
    pid: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    label: { type: 'string' },
    value: { type: 'string' },
    sort: { type: 'integer' },
    enabled: { type: 'boolean' },
    hasChildren: { type: 'boolean' },
    leaf: { type: 'boolean' },
    subCount: { type: 'integer' },
    createTime: nullable('string'),
  }),
  BusiDictBody: object(
    {
      pid: nullable('integer', { description: '上级；空为分类' }),
      code: { type: 'string', minLength: 1, maxLength: 64 },
      name: { type: 'string', minLength: 1, maxLength: 100 },
      value: nullable('string', { maxLength: 255 }),
      sort: { type: 'integer', minimum: 0, maximum: 999999, default: 999 },
      enabled: { type: 'boolean', default: true },
    },
    ['code', 'name'],
  ),
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
  StaffBrief: object(
    {
      id: { type: 'integer' },
      name: { type: 'string' },
      mobile: { type: 'string', description: '未持有 staff:sensitive 时脱敏显示' },
      sex: nullable('integer'),
      orgId: nullable('integer'),
      deptId: nullable('integer'),
      deptName: nullable('string'),
      job: nullable('string'),
      jpTypeId: nullable('integer'),
      jpTypeName: nullable('string'),
      userId: nullable('integer', { description: '关联的系统账号' }),
      status: { type: 'integer', description: '1 在职，0 离职' },
    },
    ['id', 'name', 'mobile', 'sex', 'orgId', 'deptId', 'deptName', 'job', 'jpTypeId', 'userId', 'status'],
  ),
  StaffChange: object(
    {
      id: { type: 'integer' },
      kind: { type: 'string', description: '调岗 或 离职' },
      fromDeptId: nullable('integer'),
      fromDeptName: nullable('string'),
      toDeptId: nullable('integer'),
      toDeptName: nullable('string'),
      fromJob: nullable('string'),
      toJob: nullable('string'),
      fromJpTypeId: nullable('integer'),
      fromJpTypeName: nullable('string'),
      toJpTypeId: nullable('integer'),
      toJpTypeName: nullable('string'),
      roles: nullable('string'),
      leaveDate: nullable('string'),
      remark: nullable('string'),
      createUser: nullable('string'),
      createTime: nullable('string'),
    },
    ['id', 'kind'],
  ),
  PublicSettings: object({
    title: { type: 'string', description: '系统名称' },
    compName: { type: 'string', description: '公司名称' },
    recordNumber: { type: 'string', description: '备案号' },
    favicon: { type: 'string', description: '网站图标地址，空为默认' },
    logo: { type: 'string', description: '系统 Logo 地址' },
    sysHomeImg: { type: 'string', description: '首页图片地址' },
  }),
  Notice: object({
    id: { type: 'integer' },
    title: { type: 'string' },
    msg: nullable('string', { description: '消息内容（HTML，已净化后显示）' }),
    url: nullable('string'),
    sort: { type: 'integer' },
    status: { type: 'integer', enum: [0, 1], description: '0 未读，1 已读' },
    createTime: { type: ['string', 'null'] },
  }),
  LogEntry: object(
    {
      id: { type: 'integer' },
      description: nullable('string'),
      requestIp: nullable('string'),
      address: { type: 'string' },
      browser: nullable('string'),
      time: { type: 'number', description: '耗时（毫秒）' },
      logType: { type: 'string', enum: ['INFO', 'ERROR'] },
      createTime: nullable('string'),
      exceptionDetail: nullable('string'),
      username: nullable('string', { description: '仅 GET /api/logs' }),
      method: nullable('string', { description: '仅 GET /api/logs' }),
      params: nullable('string', { description: '仅 GET /api/logs；个人信息已脱敏' }),
    },
    ['id', 'description', 'requestIp', 'address', 'time', 'logType', 'createTime'],
  ),
  Dept: object({
    id: { type: 'integer' },
    pid: nullable('integer', { description: '上级部门；顶级公司为 null' }),
    name: { type: 'string' },
    sort: { type: 'integer' },
    enabled: { type: 'boolean' },
    createTime: nullable('string'),
  }),
  DeptNode: object(
    {
      id: { type: 'integer' },
      pid: { type: 'integer', description: '上级部门；顶级公司为 0' },
      name: { type: 'string' },
      label: { type: 'string' },
      sort: { type: 'integer' },
      enabled: { type: 'boolean' },
      hasChildren: { type: 'boolean' },
      leaf: { type: 'boolean' },
      subCount: { type: 'integer' },
      createTime: nullable('string'),
      wecomDeptId: nullable('integer', { description: '企业微信部门ID，未同步为 null' }),
      remark: nullable('string', { description: '部门备注' }),
      disabled: { type: 'boolean', description: '仅作为通往数据范围内部门的路径显示，不可选择、不可编辑' },
      children: arrayOf(ref('DeptNode')),
    },
    ['id', 'pid', 'name', 'label', 'sort', 'enabled', 'hasChildren', 'leaf', 'subCount', 'createTime', 'wecomDeptId', 'remark', 'disabled'],
  ),
  DeptBody: object(
    {
      name: { type: 'string', minLength: 1, maxLength: 100, description: '部门名称' },
      pid: nullable('integer', { description: '上级部门；空为顶级公司（需要全部数据权限）' }),
      sort: { type: 'integer', minimum: 0, maximum: 999999, default: 999 },
      enabled: { type: 'boolean', default: true },
    },
    ['name'],
  ),
  BrandNode: object(
    {
      id: { type: 'integer' },
      pid: { type: 'integer', description: '上级节点；品牌为 0' },
      name: { type: 'string' },
      level: { type: 'integer', minimum: 1, maximum: 5, description: '1 品牌，2 车系，3 车型，4 配置，5 颜色或选装包' },
      kind: { type: 'string', enum: ['brand', 'series', 'model', 'config', 'colour', 'pack'] },
      sort: { type: 'integer' },
      enabled: { type: 'boolean' },
      enabledXs: { type: 'boolean', description: '销售可选' },
      orgId: nullable('integer', { description: '品牌所属公司；null 为全集团' }),
      brandNature: nullable('string'),
      brandTier: nullable('string'),
      origin: nullable('string'),
      bodyType: nullable('string'),
      carClass: nullable('string'),
      fuelType: nullable('string'),
      emission: nullable('string'),
      modelYear: nullable('string'),
      engine: nullable('string'),
      gearbox: nullable('string'),
      colorCode: nullable('string', { description: '颜色色值 #RRGGBB' }),
      price: nullable('number', { description: '指导价（万元）、加价或选装包价格（元）' }),
      remark: nullable('string'),
      createTime: nullable('string'),
      updateTime: nullable('string'),
      hasChildren: { type: 'boolean', description: '按层加载时：是否有下级' },
      children: arrayOf(ref('BrandNode')),
    },
    ['id', 'pid', 'name', 'level', 'kind', 'sort', 'enabled', 'enabledXs', 'orgId', 'price', 'remark', 'createTime', 'updateTime'],
  ),
  BrandNodeWithPath: {
    allOf: [
      ref('BrandNode'),
      object({ path: arrayOf({ type: 'string' }), ids: arrayOf({ type: 'integer' }) }, ['path', 'ids'], {
        description: 'path 与 ids：从品牌到本节点的名称与 ID',
      }),
    ],
  },
  BrandNodeBody: object(
    {
      pid: { type: 'integer', minimum: 0, description: '上级节点；0 为品牌' },
      kind: { type: 'string', enum: ['colour', 'pack'], description: '配置下新增选装包时传 pack，默认颜色' },
      name: { type: 'string', minLength: 1, maxLength: 50 },
      sort: { type: 'integer' },
      enabled: { type: 'boolean' },
      enabledXs: { type: 'boolean' },
      orgId: nullable('integer'),
      brandNature: { type: 'string' },
      brandTier: { type: 'string' },
      origin: { type: 'string' },
      bodyType: { type: 'string' },
      carClass: { type: 'string' },
      fuelType: { type: 'string' },
      emission: { type: 'string' },
      modelYear: { type: 'string' },
      engine: { type: 'string' },
      gearbox: { type: 'string' },
      colorCode: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' },
      price: { type: 'number' },
      remark: { type: 'string' },
    },
    ['name'],
    { description: '各层级可填的枚举见品牌车型说明；不属于该层级的字段返回400' },
  ),
  BrandNodeUpdate: {
    allOf: [ref('BrandNodeBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])],
    description: '修改：id 必填；不能修改上级节点和节点类型',
  },
  BrandTreePush: object(
    {
      pid: { type: 'integer', minimum: 0, description: '挂在哪个节点下；0 为品牌' },
      nodes: arrayOf({
        allOf: [ref('BrandNodeBody'), object({ children: arrayOf({ type: 'object' }) }, [])],
      }),
    },
    ['nodes'],
  ),
  Count: object({ count: { type: 'integer', minimum: 0 } }),
  ApplicantToken: object({
    id: { type: 'integer', description: '应聘人员ID' },
    token: { type: 'string', description: '应聘人员令牌（ap. 开头，24 小时）：填写教育、培训、工作信息时使用' },
  }),
  PublicPosting: object(
    {
      id: { type: 'integer' },
      job: { type: 'string', description: '岗位' },
      money: nullable('string', { description: '薪资' }),
      address: nullable('string', { description: '工作区域' }),
      jobNum: nullable('integer', { description: '招聘人数' }),
      jobZz: nullable('string', { description: '岗位职责' }),
      jobYq: nullable('string', { description: '任职要求' }),
    },
    ['id', 'job'],
  ),
  Health: object({ status: { type: 'string', const: 'UP' } }),
  IdRef: object({ id: { type: 'integer', minimum: 1 } }),
  UserRow: object({
    id: { type: 'integer' },
    username: { type: 'string' },
    nickName: { type: 'string' },
    phone: nullable('string', { description: '未持有 user:sensitive 时脱敏显示' }),
    email: nullable('string', { description: '未持有 user:sensitive 时脱敏显示' }),
    wecomUserId: nullable('string'),
    sex: { type: 'integer', description: '1 男，0 女' },
    enabled: { type: 'boolean' },
    deptId: nullable('integer'),
    orgId: nullable('integer'),
    dept: { anyOf: [object({ id: { type: 'integer' }, name: { type: 'string' } }), { type: 'null' }] },
    orgName: nullable('string'),
    lockTime: { type: 'integer' },
    defPassword: { type: 'boolean' },
    createTime: nullable('string'),
    roles: arrayOf(ref('RoleInfo')),
  }),
  UserBody: object(
    {
      username: { type: 'string', pattern: '^[A-Za-z0-9_]{2,32}$' },
      nickName: { type: 'string', minLength: 1, maxLength: 64 },
      phone: nullable('string', { maxLength: 20, description: '11位手机号码' }),
      email: nullable('string', { maxLength: 100 }),
      wecomUserId: nullable('string', { maxLength: 64, description: '省略则不变；null 或空串解除绑定' }),
      sex: { type: 'integer', enum: [0, 1], default: 1 },
      enabled: { type: 'boolean', default: true },
      orgId: { type: 'integer', minimum: 1, description: '公司' },
      deptId: { type: 'integer', minimum: 1, description: '部门（也可传 dept: {id}）' },
      dept: ref('IdRef'),
      roles: { type: 'array', minItems: 1, items: { anyOf: [ref('IdRef'), { type: 'integer', minimum: 1 }] }, description: '岗位（角色）' },
    },
    ['username', 'nickName', 'orgId', 'roles'],
  ),
  RoleView: object({
    id: { type: 'integer' },
    name: { type: 'string' },
    level: { type: 'integer' },
    dataScope: { type: 'string', enum: ['全部', '本级', '自定义'] },
    description: nullable('string'),
    createTime: nullable('string'),
    depts: arrayOf(object({ id: { type: 'integer' }, name: { type: 'string' } })),
    menus: arrayOf(ref('IdRef')),
  }),
  RoleBody: object(
    {
      name: { type: 'string', minLength: 1, maxLength: 64 },
      level: { type: 'integer', minimum: 1, maximum: 999, default: 3, description: '1 最高；不能高于操作者自己的级别' },
      dataScope: { type: 'string', enum: ['全部', '本级', '自定义'] },
      description: nullable('string', { maxLength: 255 }),
      depts: { type: 'array', items: { anyOf: [ref('IdRef'), { type: 'integer', minimum: 1 }] }, description: '自定义时必填' },
    },
    ['name', 'dataScope'],
  ),
  ...AREA_COMPONENTS,
};

const deptQuery = object(
  {
    pid: { type: 'integer', minimum: 0, description: '上级部门；0 或省略为顶级公司' },
  },
  [],
);

const brandFilter = {
  enabled: { type: 'boolean', description: '只要启用的节点' },
  enabledXs: { type: 'boolean', description: '只要销售可选的节点' },
  orgId: { type: 'integer', minimum: 1, description: '该公司的品牌与全集团的品牌' },
};
const brandLevels = { levels: { type: 'integer', minimum: 1, maximum: 5, default: 5, description: '读到第几层' } };

const brandCreate = (what: string) => ({
  summary: `品牌车型：新增${what}`,
  body: ref('BrandNodeBody'),
  response: { 201: json(ref('BrandNode'), '新增的节点') },
});
const brandUpdate = (what: string) => ({
  summary: `品牌车型：修改${what}`,
  body: ref('BrandNodeUpdate'),
  response: { 204: empty('已修改') },
});

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

const HISTORY_ENTRY = object({
  id: { type: 'integer', description: '历史版本ID' },
  action: { type: 'string', enum: ['create', 'update', 'delete', 'restore'] },
  actorKind: { type: 'string', enum: ['user', 'system'] },
  actorName: nullable('string'),
  time: { type: 'string', description: 'yyyy-MM-dd HH:mm:ss' },
  changes: arrayOf(
    object({
      field: { type: 'string', description: '字段名' },
      title: { type: 'string', description: '字段中文名' },
      old: { description: '修改前的值（其他表的 ID 显示为“名称（ID n）”；无 :sensitive 权限时个人信息已脱敏）' },
      new: { description: '修改后的值（同上）' },
    }),
  ),
});

/** 历史记录 and 恢复到此版本 of the hand-written tables (src/server/crud/table-history-routes.ts). */
const TABLE_HISTORY_ROUTES: Record<string, Json> = Object.fromEntries(
  Object.values(TABLE_HISTORY).flatMap((spec): Array<[string, Json]> => [
    [
      `GET /${spec.path}/{id}/history`,
      {
        summary: `${spec.title}：历史记录（新的在前，逐字段对比；${spec.permission}:list）`,
        response: { 200: json(pageOf(HISTORY_ENTRY), '历史版本'), 404: json(ref('Error'), '数据不存在') },
      },
    ],
    [
      `POST /${spec.path}/{id}/restore/{revisionId}`,
      {
        summary: `${spec.title}：恢复到此版本（作为一次新的修改，校验与权限同修改；${spec.permission}:edit）`,
        ...noBody('记录与版本由路径指定，不带请求体'),
        response: {
          204: empty('已恢复'),
          400: json(ref('Error'), '当前数据与该版本一致，无需恢复；或该版本的值已被占用（如：用户名已存在）'),
          404: json(ref('Error'), '历史版本不存在'),
        },
      },
    ],
  ]),
);

/** A deleted record of a hand-written table as its 回收站 answers it (ids of other tables named). */
function binRecord(key: (typeof TABLE_BINS)[number]): Json {
  const spec = TABLE_HISTORY[key];
  const named = LABELLED[key] ?? {};
  const type = (t: string) => (t === 'integer' || t === 'boolean' ? t : 'string');
  return object(
    Object.fromEntries(
      spec.fields.map((f) => [
        f.name,
        f.auto === 'id'
          ? { type: 'integer', description: 'ID' }
          : nullable(named[f.name] ? 'string' : type(f.type), {
              description: named[f.name]
                ? `${f.title}（名称（ID n），多个以、分隔）`
                : f.mask
                  ? `${f.title}（无 :sensitive 权限时已脱敏）`
                  : f.title,
            }),
      ]),
    ),
    ['id'],
  );
}

/** 回收站 of the hand-written tables (src/server/crud/table-recycle-bin.ts), shaped like a generated entity's. */
const TABLE_BIN_ROUTES: Record<string, Json> = Object.fromEntries(
  TABLE_BINS.flatMap((key): Array<[string, Json]> => {
    const spec = TABLE_HISTORY[key];
    const perm = `${spec.permission}:del`;
    const ids = idsBody('记录 ID（最多 10000 个）');
    return [
      [
        `GET /${spec.path}/recycleBin`,
        {
          summary: `${spec.title}：回收站（已删除的记录，删除人和时间；${perm}）`,
          querystring: object(
            {
              page: { type: 'integer', minimum: 0, default: 0 },
              size: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
            },
            [],
          ),
          response: {
            200: json(
              pageOf(
                object({
                  id: { type: 'integer', description: '记录 ID' },
                  revisionId: { type: 'integer', description: '删除的历史版本ID' },
                  deleteUser: nullable('string'),
                  actorKind: { type: 'string', enum: ['user', 'system'] },
                  deleteTime: { type: 'string', description: 'yyyy-MM-dd HH:mm:ss' },
                  record: binRecord(key),
                }),
              ),
              '一页已删除的记录，新删除的在前',
            ),
            400: errorAnswer(400, '分页参数不正确', '每页条数必须在1到100之间'),
          },
        },
      ],
      [
        `POST /${spec.path}/recycleBin/restore`,
        {
          summary: `${spec.title}：从回收站恢复（保留原 ID 及关联，全部成功或全部不恢复；${perm}）`,
          body: ids,
          response: {
            200: json(object({ count: { type: 'integer' } }), '恢复的条数'),
            400: errorAnswer(
              400,
              '引用的数据已删除、值已被占用或 ID 已存在，未做任何修改',
              '「部门」引用的部门（ID 12）已被删除，无法恢复，请先恢复或修改相关数据',
            ),
            404: errorAnswer(404, '不在回收站中', '回收站中没有该数据（ID 12）'),
          },
        },
      ],
      [
        `DELETE /${spec.path}/recycleBin`,
        {
          summary: `${spec.title}：彻底删除（记录及其历史记录；${perm}）`,
          body: ids,
          response: {
            200: json(object({ count: { type: 'integer' } }), '删除的条数'),
            404: errorAnswer(404, '不在回收站中', '回收站中没有该数据（ID 12）'),
          },
        },
      ],
    ];
  }),
);

/** Per route (`METHOD /openapi/path`): summary, querystring, body and answers by status. */
export const HAND_WRITTEN_ROUTES: Record<string, Json> = {
  ...TABLE_HISTORY_ROUTES,
  ...TABLE_BIN_ROUTES,
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

  'GET /api/users': {
    summary: '用户列表（数据范围内）',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0, default: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        blurry: { type: 'string', description: '用户名、昵称、电话、邮箱' },
        deptId: { type: 'integer', minimum: 1, description: '该部门及其下级' },
        orgId: { type: 'integer', minimum: 1, description: '公司' },
        enabled: { type: 'boolean' },
        createTime: arrayOf({ type: 'string' }),
      },
      [],
    ),
    response: { 200: json(pageOf(ref('UserRow')), '一页用户') },
  },
  'POST /api/users': {
    summary: '新增用户（初始密码，首次登录须修改）',
    body: ref('UserBody'),
    response: { 201: json(ref('UserRow'), '新增的用户') },
  },
  'PUT /api/users': {
    summary: '修改用户',
    body: { allOf: [ref('UserBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改'), 404: refusal('用户不存在') },
  },
  'DELETE /api/users': {
    summary: '删除用户',
    body: idsBody('要删除的用户 ID（不能删除自己和 admin）'),
    response: { 200: empty('已删除') },
  },
  'POST /api/users/resetPass': {
    summary: '重置为初始密码',
    ...noBody('用户由查询参数指定，不带请求体'),
    querystring: object({ userName: { type: 'string', description: '须与 userid 的用户名一致' }, userid: { type: 'integer', minimum: 1 } }),
    response: { 200: json(object({ message: { type: 'string' } }), '密码重置成功') },
  },
  'GET /api/roles': {
    summary: '角色列表',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        blurry: { type: 'string' },
      },
      [],
    ),
    response: { 200: json(pageOf(ref('RoleView')), '一页角色') },
  },
  'GET /api/roles/all': { summary: '全部角色（选择用）', response: { 200: json(arrayOf(ref('RoleInfo')), '角色') } },
  'GET /api/roles/level': {
    summary: '当前用户的最高角色级别',
    response: { 200: json(object({ level: nullable('integer') }), '级别；没有角色为 null') },
  },
  'GET /api/roles/{id}': { summary: '一个角色', response: { 200: json(ref('RoleView'), '角色'), 404: refusal('角色不存在') } },
  'POST /api/roles': { summary: '新增角色', body: ref('RoleBody'), response: { 201: json(ref('RoleView'), '新增的角色') } },
  'PUT /api/roles': {
    summary: '修改角色',
    body: { allOf: [ref('RoleBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改') },
  },
  'PUT /api/roles/menu': {
    summary: '角色的菜单与权限',
    body: object({ id: { type: 'integer', minimum: 1 }, menus: arrayOf(ref('IdRef')) }),
    response: { 204: empty('已保存') },
  },
  'DELETE /api/roles': { summary: '删除角色（有用户时拒绝）', body: idsBody('要删除的角色 ID'), response: { 200: empty('已删除') } },

  'GET /api/menus': {
    summary: '菜单：某菜单的下级，或按关键字查找',
    querystring: object(
      {
        pid: { type: 'integer', minimum: 0 },
        blurry: { type: 'string' },
        page: { type: 'integer', minimum: 0, default: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
      },
      [],
    ),
    response: { 200: json(pageOf(ref('MenuView')), '菜单') },
  },
  'GET /api/menus/getMenusByPid': {
    summary: '菜单：某菜单的下级（按层加载）',
    querystring: object({ pid: { type: 'integer', minimum: 0 } }, []),
    response: { 200: json(arrayOf(ref('MenuView')), '下级菜单') },
  },
  'GET /api/menus/list': { summary: '菜单：整棵树（角色分配菜单用）', response: { 200: json(arrayOf(ref('MenuView')), '菜单树') } },
  'GET /api/menus/findUserByMenu': {
    summary: '通过角色持有该菜单的用户',
    querystring: object({ menuId: { type: 'integer', minimum: 1 } }),
    response: {
      200: json(arrayOf(object({ id: { type: 'integer' }, username: { type: 'string' }, nickName: { type: 'string' } })), '用户'),
      404: refusal('菜单不存在'),
    },
  },
  'POST /api/menus': { summary: '新增菜单', body: ref('MenuBody'), response: { 201: json(ref('MenuView'), '新增的菜单') } },
  'PUT /api/menus': {
    summary: '修改菜单',
    body: { allOf: [ref('MenuBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改') },
  },
  'DELETE /api/menus': { summary: '删除菜单及其下级', body: idsBody('要删除的菜单 ID'), response: { 200: empty('已删除') } },
  'GET /api/dict': {
    summary: '字典列表',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0, default: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        blurry: { type: 'string' },
      },
      [],
    ),
    response: { 200: json(pageOf(ref('Dict')), '一页字典') },
  },
  'POST /api/dict': {
    summary: '新增字典',
    body: ref('DictBody'),
    response: { 201: json({ allOf: [ref('DictBody'), object({ id: { type: 'integer' } })] }, '新增的字典') },
  },
  'PUT /api/dict': {
    summary: '修改字典',
    body: { allOf: [ref('DictBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改') },
  },
  'DELETE /api/dict': { summary: '删除字典及其明细', body: idsBody('要删除的字典 ID'), response: { 200: empty('已删除') } },
  'GET /api/dictDetail': {
    summary: '字典明细（各下拉选项）',
    querystring: object(
      {
        dictName: { type: 'string' },
        code: { type: 'string', description: '同 dictName' },
        label: { type: 'string' },
        enabled: { type: 'boolean' },
        page: { type: 'integer', minimum: 0, default: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
      },
      [],
    ),
    response: { 200: json(pageOf(ref('DictDetail')), '一页明细') },
  },
  'POST /api/dictDetail': {
    summary: '新增字典明细',
    body: ref('DictDetailBody'),
    response: {
      201: json(
        object({
          id: { type: 'integer' },
          dictId: { type: 'integer' },
          label: { type: 'string' },
          value: { type: 'string' },
          sort: { type: 'integer' },
          enabled: { type: 'boolean' },
        }),
        '新增的明细',
      ),
    },
  },
  'PUT /api/dictDetail': {
    summary: '修改字典明细',
    body: { allOf: [ref('DictDetailBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改') },
  },
  'DELETE /api/dictDetail': { summary: '删除字典明细', body: idsBody('要删除的明细 ID'), response: { 200: empty('已删除') } },
  'GET /api/public': {
    summary: '公开字典的启用选项（无需登录）',
    querystring: object({ enumName: { type: 'string' } }),
    response: { 200: json(arrayOf(ref('Option')), '选项') },
  },
  'GET /api/busidict/list/{x}': {
    summary: '业务字典：某项的下级（0 为分类）',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0, default: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        blurry: { type: 'string' },
        enabled: { type: 'boolean' },
      },
      [],
    ),
    response: { 200: json(pageOf(ref('BusiDict')), '下级') },
  },
  'GET /api/busidict/options/{x}': {
    summary: '业务字典：某分类（按编码）的启用项',
    response: { 200: json(arrayOf(ref('Option')), '选项') },
  },
  'GET /api/busidict/optionsChilds/{x}': {
    summary: '业务字典：某项的启用下级（级联选择）',
    response: {
      200: json(
        arrayOf(
          object({ id: { type: 'integer' }, value: { type: 'string' }, label: { type: 'string' }, hasChildren: { type: 'boolean' } }),
        ),
        '下级选项',
      ),
    },
  },
  'POST /api/busidict/add': {
    summary: '业务字典：新增',
    body: ref('BusiDictBody'),
    response: { 201: json({ allOf: [ref('BusiDictBody'), object({ id: { type: 'integer' }, pid: { type: 'integer' } })] }, '新增的项') },
  },
  'POST /api/busidict/update': {
    summary: '业务字典：修改',
    body: { allOf: [ref('BusiDictBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改') },
  },
  'DELETE /api/busidict': { summary: '业务字典：删除（有下级时拒绝）', body: idsBody('要删除的项 ID'), response: { 200: empty('已删除') } },

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

  'GET /api/staff/findByMobile': {
    summary: '员工花名册：按手机号查找（在职优先）',
    querystring: object({ mobile: { type: 'string', pattern: '^1\\d{10}$' } }),
    response: { 200: json({ anyOf: [ref('StaffBrief'), { type: 'null' }] }, '员工，或 null') },
  },
  'GET /api/staff/getAllOnStaff': {
    summary: '员工花名册：某公司的员工（按部门、姓名拼音排序）',
    querystring: object({ orgId: { type: 'integer', minimum: 1 }, status: { type: 'integer', enum: [0, 1], default: 1 } }, ['orgId']),
    response: { 200: json(arrayOf(ref('StaffBrief')), '员工') },
  },
  'GET /api/staff/search': {
    summary: '员工花名册：按姓名或手机号搜索在职员工（最多20人）',
    querystring: object({ search: { type: 'string' } }, []),
    response: { 200: json(arrayOf(ref('StaffBrief')), '员工') },
  },
  'GET /api/staff/getStaffByOrgIdAndPostType': {
    summary: '员工花名册：某公司某岗位类型的在职员工',
    querystring: object({
      orgId: { type: 'integer', minimum: 1 },
      postType: { type: 'string', description: '岗位类型编码（如 XSGW）或 ID' },
    }),
    response: { 200: json(arrayOf(ref('StaffBrief')), '员工') },
  },
  'GET /api/staff/getStaffByOrgIdAndRoleName': {
    summary: '员工花名册：某公司账号持有某角色的在职员工',
    querystring: object({ orgId: { type: 'integer', minimum: 1 }, roleName: { type: 'string' } }),
    response: { 200: json(arrayOf(ref('StaffBrief')), '员工') },
  },
  'PUT /api/staff/editJob': {
    summary: '员工花名册：调岗',
    body: object(
      {
        id: { type: 'integer', minimum: 1 },
        deptId: { type: 'integer', minimum: 1 },
        job: { type: 'string' },
        jpTypeId: nullable('integer'),
        roleIds: { type: 'array', items: { type: 'integer', minimum: 1 }, description: '关联账号的新角色；省略则不变' },
        remark: { type: 'string' },
      },
      ['id', 'deptId', 'job'],
    ),
    response: {
      200: json(
        object({
          id: { type: 'integer' },
          deptId: { type: 'integer' },
          job: { type: 'string' },
          jpTypeId: nullable('integer'),
          roles: nullable('string', { description: '新角色名（以、分隔）；未改角色为 null' }),
        }),
        '调岗后的部门、岗位与角色',
      ),
    },
  },
  'PUT /api/staff/staffLeave': {
    summary: '员工花名册：离职（关联账号停用）',
    body: object({ id: { type: 'integer', minimum: 1 }, leaveDate: { type: 'string', format: 'date' }, cause: { type: 'string' } }, ['id']),
    response: {
      200: json(
        object({
          id: { type: 'integer' },
          status: { type: 'integer', const: 0 },
          leaveDate: { type: 'string' },
          userDisabled: { type: 'boolean' },
        }),
        '已离职',
      ),
    },
  },
  'GET /api/staff/jobHistory': {
    summary: '员工花名册：调岗记录',
    querystring: object({ id: { type: 'integer', minimum: 1 } }),
    response: { 200: json(arrayOf(ref('StaffChange')), '调岗与离职记录，新的在前'), 404: refusal('员工不存在或不在数据范围内') },
  },

  'GET /api/system/sysConfigInit/anon/pc': {
    summary: '公开的系统设置（登录页使用，无需登录）',
    response: { 200: json(ref('PublicSettings'), '系统设置') },
  },
  'GET /api/system/sysConfig': { summary: '系统设置', response: { 200: json(ref('PublicSettings'), '系统设置') } },
  'PUT /api/system/sysConfig': {
    summary: '保存系统设置（任意几项，全部成功或全部不保存）',
    body: {
      type: 'object',
      properties: (HAND_WRITTEN_COMPONENTS.PublicSettings as { properties: Json }).properties,
      description: '只传要修改的项；图片先经 POST /api/pictures 上传，填其 url；空串清除图片',
    },
    response: { 204: empty('已保存') },
  },
  'GET /favicon.ico': {
    summary: '网站图标',
    response: {
      200: { description: '上传的图标，或默认图标', content: { 'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } } } },
    },
  },
  'GET /api/system/deptRemark/getOrg': {
    summary: '数据范围内的公司及其备注',
    response: {
      200: json(
        arrayOf(object({ id: { type: 'integer' }, name: { type: 'string' }, enabled: { type: 'boolean' }, remark: nullable('string') })),
        '公司',
      ),
    },
  },
  'GET /api/system/deptRemark/getDeptRemarkByOrgId': {
    summary: '某公司的部门及其备注（树的顺序）',
    querystring: object({ orgId: { type: 'integer', minimum: 1 } }),
    response: {
      200: json(
        arrayOf(
          object({
            id: { type: 'integer' },
            pid: { type: 'integer' },
            name: { type: 'string' },
            path: { type: 'string', description: '从公司起的路径，如 总公司/销售部' },
            sort: { type: 'integer' },
            enabled: { type: 'boolean' },
            remark: nullable('string'),
          }),
        ),
        '部门',
      ),
    },
  },
  'PUT /api/system/deptRemark': {
    summary: '编辑部门备注（最多500字，空串清除）',
    body: object({ id: { type: 'integer', minimum: 1 }, remark: nullable('string', { maxLength: 500 }) }),
    response: { 200: json(object({ id: { type: 'integer' }, remark: nullable('string') }), '保存后的备注') },
  },

  'GET /api/outbox': {
    summary: '发件箱（未配置短信、邮件服务时的验证码等）',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0 },
        size: { type: 'integer', minimum: 1 },
        channel: { type: 'string', enum: ['sms', 'email'] },
        target: { type: 'string', maxLength: 100, description: '接收人（手机号或邮箱）' },
      },
      [],
    ),
    response: {
      200: json(
        pageOf(
          object({
            id: { type: 'integer' },
            channel: { type: 'string', enum: ['sms', 'email'] },
            target: { type: 'string' },
            subject: { type: 'string' },
            content: { type: 'string' },
            createTime: { type: 'string' },
          }),
        ),
        '一页消息，新的在前',
      ),
    },
  },
  'GET /api/logs': {
    summary: '操作日志',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        username: { type: 'string', maxLength: 64 },
        blurry: { type: 'string', maxLength: 100 },
        logType: { type: 'string', enum: ['INFO', 'ERROR'] },
        error: { type: 'boolean', description: '只看出错的请求' },
        createTime: arrayOf({ type: 'string' }),
      },
      [],
    ),
    response: { 200: json(pageOf(ref('LogEntry')), '一页日志') },
  },
  'GET /api/logs/user': {
    summary: '我的操作日志',
    querystring: object(
      { page: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 1 }, createTime: arrayOf({ type: 'string' }) },
      [],
    ),
    response: { 200: json(pageOf(ref('LogEntry')), '一页日志') },
  },
  'GET /api/sysSocket/getSocket': {
    summary: '我的系统消息',
    querystring: object(
      { page: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 1 }, sort: arrayOf({ type: 'string' }) },
      [],
    ),
    response: { 200: json(pageOf(ref('Notice')), '一页消息') },
  },
  'GET /api/sysSocket/getNotRead': {
    summary: '我的未读系统消息',
    querystring: object(
      { page: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 1 }, sort: arrayOf({ type: 'string' }) },
      [],
    ),
    response: { 200: json(pageOf(ref('Notice')), '一页未读消息') },
  },
  'PUT /api/sysSocket/read': {
    summary: '标记系统消息为已读',
    body: { anyOf: [idsBody('消息 ID（最多1000条）'), ref('IdRef')] },
    response: { 200: json(object({ unread: { type: 'integer', minimum: 0 } }), '剩余未读条数') },
  },
  'GET /api/sysSocket/getReadUser': {
    summary: '一条系统消息的已读用户',
    querystring: object(
      { id: { type: 'integer', minimum: 1 }, page: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 1 } },
      ['id'],
    ),
    response: {
      200: json(
        pageOf(
          object({ userId: { type: 'integer' }, username: { type: 'string' }, nickName: { type: 'string' }, readTime: { type: 'string' } }),
        ),
        '已读用户',
      ),
    },
  },

  'PUT /api/users/center': {
    summary: '个人中心：修改昵称和性别（手机号需验证码另改）',
    body: object(
      { id: { type: 'integer' }, nickName: { type: 'string', minLength: 1, maxLength: 64 }, sex: { type: 'integer', enum: [0, 1, 2] } },
      ['nickName'],
    ),
    response: { 204: empty('已修改') },
  },
  'POST /api/users/updatePass': {
    summary: '个人中心：修改密码',
    body: object({
      oldPass: { type: 'string', description: '旧密码的 RSA-OAEP 密文（同登录）' },
      newPass: { type: 'string', description: '新密码的 RSA-OAEP 密文' },
    }),
    response: { 200: MESSAGE('密码已修改') },
  },
  'POST /api/users/updateEmail/{code}': {
    summary: '个人中心：修改邮箱（验证码由 POST /api/code/resetEmail 发送）',
    body: object({ password: { type: 'string', description: '密码的 RSA-OAEP 密文' }, email: { type: 'string', format: 'email' } }),
    response: { 200: MESSAGE('邮箱已修改') },
  },
  'PUT /api/users/updateUserPhone': {
    summary: '个人中心：修改手机号（验证码由 POST /api/code/resetPhone 发送）',
    body: object({ id: { type: 'integer' }, phone: { type: 'string' }, code: { type: 'string' } }, ['phone', 'code']),
    response: { 200: MESSAGE('手机号已修改') },
  },
  'PUT /api/jobs/{id}': {
    summary: '定时任务：暂停或恢复（切换）',
    ...noBody('任务由路径指定，每次调用切换暂停与恢复，不带请求体'),
    response: {
      200: json(object({ id: { type: 'integer' }, isPause: { type: 'boolean' } }), '新的状态'),
      404: refusal('任务不存在'),
    },
  },
  'PUT /api/jobs/exec/{id}': {
    summary: '定时任务：立即执行一次',
    ...noBody('任务由路径指定，不带请求体'),
    response: {
      200: json(
        object({ logId: nullable('integer'), success: { type: 'boolean' }, time: { type: 'number' }, message: { type: 'string' } }),
        '执行结果',
      ),
      404: refusal('任务不存在'),
    },
  },
  'GET /api/jobs/functions': {
    summary: '定时任务：可选的 Bean 与方法',
    response: {
      200: json(arrayOf(object({ bean: { type: 'string' }, method: { type: 'string' }, name: nullable('string') })), '已注册的任务方法'),
    },
  },
  'GET /api/jobs/logs': {
    summary: '定时任务：执行日志',
    querystring: object(
      { jobId: { type: 'integer', minimum: 1 }, page: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 1 } },
      [],
    ),
    response: {
      200: json(
        pageOf(
          object(
            {
              id: { type: 'integer' },
              jobId: { type: 'integer' },
              jobName: nullable('string'),
              beanName: nullable('string'),
              methodName: nullable('string'),
              params: nullable('string'),
              trigger: nullable('string', { description: '定时触发或手动执行' }),
              fireTime: nullable('integer'),
              startTime: nullable('string'),
              time: nullable('number', { description: '耗时（毫秒）' }),
              isSuccess: nullable('boolean'),
              result: nullable('string'),
              exceptionDetail: nullable('string'),
              instance: nullable('string'),
            },
            ['id', 'jobId'],
          ),
        ),
        '一页日志，新的在前',
      ),
    },
  },

  'GET /api/dept': {
    summary: '部门列表（数据范围内）',
    querystring: object(
      {
        page: { type: 'integer', minimum: 0, default: 0 },
        size: { type: 'integer', minimum: 1 },
        sort: arrayOf({ type: 'string' }),
        name: { type: 'string', description: '名称包含' },
        enabled: { type: 'boolean' },
        pid: { type: 'integer', minimum: 0 },
      },
      [],
    ),
    response: { 200: json(pageOf(ref('Dept')), '一页部门') },
  },
  'GET /api/dept/lazy': {
    summary: '部门树：某部门的下级',
    querystring: deptQuery,
    response: { 200: json(arrayOf(ref('DeptNode')), '下级部门') },
  },
  'GET /api/dept/getDeptList': {
    summary: '部门树：可见的整棵树',
    querystring: object({ enabled: { type: 'boolean' } }, []),
    response: { 200: json(arrayOf(ref('DeptNode')), '嵌套的部门树') },
  },
  'GET /api/dept/getIdNameAndPid': {
    summary: '可见部门的 ID、名称与上级',
    response: {
      200: json(arrayOf(object({ id: { type: 'integer' }, name: { type: 'string' }, pid: { type: 'integer' } })), '部门'),
    },
  },
  'GET /api/dept/getIdsByPid': {
    summary: '部门及其全部下级的 ID',
    querystring: object({ id: { type: 'integer', minimum: 1 } }, ['id']),
    response: { 200: json(arrayOf({ type: 'integer' }), 'ID 列表'), 404: refusal('部门不存在') },
  },
  'POST /api/dept': {
    summary: '新增部门',
    body: ref('DeptBody'),
    response: {
      201: json(
        object({
          id: { type: 'integer' },
          name: { type: 'string' },
          pid: { type: 'integer', description: '顶级公司为 0' },
          sort: { type: 'integer' },
          enabled: { type: 'boolean' },
        }),
        '新增的部门',
      ),
    },
  },
  'PUT /api/dept': {
    summary: '修改部门',
    body: { allOf: [ref('DeptBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改'), 404: refusal('部门不存在') },
  },
  'DELETE /api/dept': {
    summary: '删除部门（有下级或有用户时拒绝）',
    body: idsBody('要删除的部门 ID'),
    response: { 200: empty('已删除'), 404: refusal('部门不存在') },
  },

  'GET /api/brandTree': {
    summary: '品牌车型：某节点的下级（分页形式）',
    querystring: object({ pid: { type: 'integer', minimum: 0 }, ...brandFilter }, []),
    response: { 200: json(pageOf(ref('BrandNode')), '下级节点') },
  },
  'GET /api/brandTree/getTreeByPid': {
    summary: '品牌车型：某节点的下级（按层加载）',
    querystring: object({ pid: { type: 'integer', minimum: 0 }, ...brandFilter }, []),
    response: { 200: json(arrayOf(ref('BrandNode')), '下级节点，含 hasChildren') },
  },
  'GET /api/brandTree/getTree': {
    summary: '品牌车型：嵌套的树',
    querystring: object({ ...brandLevels, ...brandFilter }, []),
    response: { 200: json(arrayOf(ref('BrandNode')), '品牌及其下级') },
  },
  'GET /api/brandTree/getBrandTree': {
    summary: '品牌车型：某公司销售的启用品牌树',
    querystring: object({ ...brandLevels, ...brandFilter }, []),
    response: { 200: json(arrayOf(ref('BrandNode')), '品牌及其下级') },
  },
  'GET /api/system/deptRemark/getBrandTree': {
    summary: '品牌车型：某公司销售的启用品牌树（同 /api/brandTree/getBrandTree）',
    querystring: object({ ...brandLevels, ...brandFilter }, []),
    response: { 200: json(arrayOf(ref('BrandNode')), '品牌及其下级') },
  },
  'GET /api/brandTree/getItem': {
    summary: '品牌车型：一个节点及其路径',
    querystring: object({ id: { type: 'integer', minimum: 1 } }, ['id']),
    response: { 200: json(ref('BrandNodeWithPath'), '节点'), 404: refusal('节点不存在') },
  },
  'GET /api/brandTree/findTree': {
    summary: '品牌车型：按名称查找',
    querystring: object({ name: { type: 'string', minLength: 1, maxLength: 50 } }, ['name']),
    response: { 200: json(arrayOf(ref('BrandNodeWithPath')), '名称包含该文字的节点及其路径') },
  },
  'POST /api/brandTree': brandCreate('节点（层级由上级决定）'),
  'PUT /api/brandTree': brandUpdate('节点'),
  'DELETE /api/brandTree': {
    summary: '品牌车型：删除（有下级时拒绝）',
    body: idsBody('要删除的节点 ID'),
    response: { 200: json(ref('Count'), '删除的节点数') },
  },
  'POST /api/brandTree/createBrand': brandCreate('品牌'),
  'PUT /api/brandTree/updateBrand': brandUpdate('品牌'),
  'POST /api/brandTree/createTrain': brandCreate('车系'),
  'PUT /api/brandTree/updateTrain': brandUpdate('车系'),
  'POST /api/brandTree/createType': brandCreate('车型'),
  'PUT /api/brandTree/updateType': brandUpdate('车型'),
  'POST /api/brandTree/createProp': brandCreate('配置、颜色或选装包'),
  'PUT /api/brandTree/updateProp': brandUpdate('配置、颜色或选装包'),
  'POST /api/brandTree/brandTreePush': {
    summary: '品牌车型：一次推送整个分支',
    body: ref('BrandTreePush'),
    response: { 201: json(ref('Count'), '新增的节点数') },
  },

  'POST /api/staffun': {
    summary: '应聘人员登记（公开）',
    body: ref('applicantBody'),
    response: {
      201: json(ref('ApplicantToken'), '登记成功：应聘人员令牌'),
      409: json(
        { allOf: [ref('Error'), object({ resume: { type: 'boolean', const: true } }, ['resume'])] },
        '该身份证号码已登记：用手机验证码继续填写',
      ),
    },
  },
  'POST /api/staffun/staffJoin': {
    summary: '应聘人员确认填写完毕',
    body: object(
      {
        id: { type: 'integer', minimum: 1, description: '须与令牌的应聘人员相同（也可用 staffunId）' },
        staffunId: { type: 'integer', minimum: 1 },
      },
      [],
      { description: '可选：应聘人员由令牌确定' },
    ),
    response: { 200: json(object({ id: { type: 'integer' }, status: { type: 'integer', const: 2 } }), '已提交，令牌失效') },
  },
  'POST /api/staffun/resume/sendCode': {
    summary: '继续填写：发送短信验证码',
    body: object({ card: { type: 'string', description: '身份证号码' }, mobile: { type: 'string', description: '登记的手机号码' } }),
    response: { 200: json(object({ message: { type: 'string' } }), '已发送（号码未登记时同样回答）') },
  },
  'POST /api/staffun/resume': {
    summary: '继续填写：凭验证码取得新的应聘人员令牌',
    body: object({ card: { type: 'string' }, mobile: { type: 'string' }, code: { type: 'string', pattern: '^\\d{6}$' } }),
    response: {
      200: json({ allOf: [ref('ApplicantToken'), object({ mobile: { type: 'string' } })] }, '新的应聘人员令牌'),
    },
  },
  'GET /api/staffunZp/public': {
    summary: '正在招聘的岗位（公开）',
    response: { 200: json(pageOf(ref('PublicPosting')), '启用的招聘信息') },
  },
  'GET /api/staffunZp/public/getZpById': {
    summary: '一个正在招聘的岗位（公开）',
    querystring: object({ id: { type: 'integer', minimum: 1 } }, ['id']),
    response: { 200: json(ref('PublicPosting'), '招聘信息'), 404: refusal('岗位不存在或已停止招聘') },
  },
  'POST /api/code': {
    summary: '定时任务：新增（同 POST /api/dj）',
    body: ref('djBody'),
    response: { 201: json(ref('dj'), '新增的任务') },
  },
  'PUT /api/code': {
    summary: '定时任务：修改（同 PUT /api/dj）',
    body: { allOf: [ref('djBody'), object({ id: { type: 'integer', minimum: 1 } }, ['id'])] },
    response: { 204: empty('已修改') },
  },
  ...AREA_ROUTES,
};
