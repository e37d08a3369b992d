/**
 * The staff roster's and the department tree's WeCom calls (modules/staff/wecom-members.ts,
 * wecom-departments.ts), moving an applicant into the roster (applicant/staff-join.ts), the
 * applicant's own 确认填写完毕 and reading one posting (recruitment/staffun-zp.ts), in the
 * OpenAPI document. Records are the entities' own components (`staff`, `staffunZp`).
 */
import { Type } from '@sinclair/typebox';
import { ALREADY_JOINED } from '../modules/applicant/staff-join.ts';
import type { PullResult } from '../modules/staff/wecom-departments.ts';
import { WECOM_NOT_CONFIGURED } from '../modules/staff/wecom-members.ts';
import { errorAnswer, json, object, ref, same, type Json, type Static } from './shapes.ts';

const PullResultSchema = Type.Object({
  total: Type.Integer({ description: '企业微信的部门数' }),
  created: Type.Array(Type.String(), { description: '新建的部门' }),
  renamed: Type.Array(Type.String(), { description: '改名的部门' }),
  moved: Type.Array(Type.String(), { description: '移动了上级的部门' }),
  linked: Type.Array(Type.String(), { description: '按名称关联的已有部门' }),
  unchanged: Type.Integer(),
  unlinked: Type.Array(Type.String(), { description: '企业微信已没有、解除关联的部门（本地部门保留）' }),
  skipped: Type.Integer({ description: '从企业微信根部门到不了的部门（未处理）' }),
});
same<Static<typeof PullResultSchema>, PullResult>(true);

const id = { type: 'integer', minimum: 1 };
const entryId = { id: { ...id, description: '花名册记录 ID' } };
const deptId = { id: { ...id, description: '部门 ID（也可用 deptId）' } };
/** Every WeCom call: not configured is a 400, WeCom's refusal a 502, nothing written. */
const wecomErrors = {
  400: errorAnswer(400, '企业微信未配置，或请求不正确', WECOM_NOT_CONFIGURED),
  404: errorAnswer(404, '记录不存在或不在数据范围内', '数据不存在'),
  502: errorAnswer(502, '企业微信拒绝了请求（原样给出其错误信息），本地未修改', '企业微信返回错误：invalid mobile'),
};
const member = (extra: Json, description: string) => json(object({ id: { type: 'integer' }, ...extra }), description);
const qywxUserId = { type: ['string', 'null'], description: '企业微信账号（userid）' };
const wecomDept = (extra: Json) => object({ id: { type: 'integer' }, wecomDeptId: { type: ['integer', 'null'] }, ...extra });

export const STAFF_ROUTES: Record<string, Json> = {
  'POST /api/staff/qywx': {
    summary: '花名册：在企业微信中创建成员（账号默认为手机号）',
    body: object(
      { ...entryId, userid: { type: 'string', pattern: '^[A-Za-z0-9_.@-]{1,64}$', description: '企业微信账号；不填用手机号' } },
      ['id'],
    ),
    response: { 200: member({ qywxUserId }, '已创建并绑定'), ...wecomErrors },
  },
  'PUT /api/staff/updateQywx': {
    summary: '花名册：把姓名、手机、性别、职务和邮箱同步到企业微信成员',
    body: object(entryId),
    response: { 200: member({ qywxUserId }, '已同步'), ...wecomErrors },
  },
  'PUT /api/staff/qywxEmail': {
    summary: '花名册：设置企业邮箱',
    body: object({ ...entryId, email: { type: 'string', format: 'email' } }),
    response: { 200: member({ qywxEmail: { type: 'string' } }, '已设置'), ...wecomErrors },
  },
  'PUT /api/staff/updateAvatarMediaId': {
    summary: '花名册：设置企业微信头像（素材 ID）',
    body: object({ ...entryId, mediaId: { type: 'string', pattern: '^[A-Za-z0-9_\\-.@]+$' } }),
    response: { 200: member({ avatarMediaId: { type: 'string' } }, '已设置'), ...wecomErrors },
  },
  'DELETE /api/staff/deleteQywx': {
    summary: '花名册：删除企业微信成员并解除绑定（id 在查询参数或请求体中）',
    querystring: object({ id }, []),
    body: { oneOf: [object(entryId), { type: 'array', items: id, minItems: 1, maxItems: 1 }], description: '可选：{id} 或 [id]' },
    response: { 200: member({ qywxUserId: { type: 'null' } }, '已删除'), ...wecomErrors },
  },

  'GET /api/dept/syncQwDept': {
    summary: '部门管理：从企业微信拉取部门（需要全部数据权限）',
    response: { 200: json(PullResultSchema, '同步结果'), ...wecomErrors },
  },
  'PUT /api/dept/synStaffs': {
    summary: '部门管理：把部门的企业微信成员与花名册对照并绑定',
    body: object(deptId),
    response: {
      200: json(
        object({
          members: { type: 'integer', description: '企业微信成员数' },
          bound: { type: 'array', items: { type: 'string' }, description: '本次绑定的成员（姓名（账号））' },
          alreadyBound: { type: 'integer' },
          notOnRoster: { type: 'array', items: { type: 'string' }, description: '花名册中没有的成员' },
          notInWecom: { type: 'array', items: { type: 'string' }, description: '不是企业微信成员的在职员工' },
        }),
        '对照结果（各名单最多列出一部分）',
      ),
      ...wecomErrors,
    },
  },
  'PUT /api/dept/updateOrder': {
    summary: '部门管理：保存同级部门的顺序（同步到企业微信）',
    body: {
      oneOf: [
        { type: 'array', items: object({ id, sort: { type: 'integer', minimum: 0, maximum: 999999 } }), minItems: 1, maxItems: 1000 },
        object({ depts: { type: 'array', items: object({ id, sort: { type: 'integer' } }) } }),
      ],
      description: '[{id, sort}]（也可放在 depts 或 list 中）；只能是同一上级的部门',
    },
    response: {
      200: json(object({ saved: { type: 'integer' }, pushed: { type: 'integer', description: '同步到企业微信的部门数' } }), '已保存'),
      ...wecomErrors,
    },
  },
  'PUT /api/dept/addQw': {
    summary: '部门管理：在企业微信中创建部门（上级须已关联）',
    body: object(deptId),
    response: { 200: json(wecomDept({ parentid: { type: 'integer', description: '企业微信上级部门' } }), '已创建并关联'), ...wecomErrors },
  },
  'DELETE /api/dept/delQw': {
    summary: '部门管理：删除企业微信部门并解除关联（id 在查询参数或请求体中）',
    querystring: object({ id }, []),
    body: { oneOf: [object(deptId), { type: 'array', items: id, minItems: 1, maxItems: 1 }], description: '可选：{id} 或 [id]' },
    response: { 200: json(wecomDept({}), '已删除'), ...wecomErrors },
  },

  'POST /api/staffjlk/staffJoin': {
    summary: '应聘人员入职：复制到员工花名册（部门、职务默认取应聘岗位）',
    body: object(
      {
        id: { ...id, description: '应聘人员 ID' },
        deptId: id,
        orgId: id,
        job: { type: 'string' },
        entryDate: { type: 'string', format: 'date', description: '默认今天' },
        remark: { type: 'string' },
      },
      ['id'],
    ),
    response: {
      201: json(ref('staff'), '新的花名册记录'),
      400: errorAnswer(400, '已入职，或复制出的记录不符合花名册的规则', ALREADY_JOINED),
      404: errorAnswer(404, '应聘人员不存在', '应聘人员不存在'),
    },
  },
  'GET /api/staffunZp/getZpById': {
    summary: '招聘信息：一条（数据范围内）',
    querystring: object({ id }),
    response: { 200: json(ref('staffunZp'), '招聘信息'), 404: errorAnswer(404, '不存在或不在数据范围内', '数据不存在') },
  },
};
