/**
 * The public routes of job applicants (modules/applicant) in the OpenAPI document: registration,
 * the resume with its SMS code, the open postings; and the scheduled jobs' old create and update
 * paths (/api/code). Merged by api-docs-routes.ts.
 */
import { empty, json, nullable, refusal, object, pageOf, ref, type Json } from './shapes.ts';

export const APPLICANT_COMPONENTS: Record<string, Json> = {
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
};

export const APPLICANT_ROUTES: Record<string, Json> = {
  'POST /api/staffun': {
    summary: '应聘人员登记（公开）',
    body: ref('applicantBody'),
    response: {
      // every registration is a new application whatever ID number it carries (an answer that
      // differed for a known one would tell anyone whether that person applied): no 409
      201: json(ref('ApplicantToken'), '登记成功：应聘人员令牌'),
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
};
