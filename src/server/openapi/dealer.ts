/**
 * Car-use demands on the staff side (modules/dealer/requests.ts, contracts.ts, approvals.ts) and
 * the customer-service and decoration look-ups (modules/kf, modules/tms), in the OpenAPI document.
 * Demands are the entity's own component (`dbcInfo`); reads by VIN take the list's filters.
 */
import { APPROVAL_MESSAGES } from '../modules/dealer/approvals.ts';
import { ESIGN_NOT_CONFIGURED } from '../modules/dealer/contracts.ts';
import { REQUEST_NOT_FOUND, TARGET_INVALID } from '../modules/dealer/requests.ts';
import { MOBILE_INVALID } from '../modules/kf/phone-location.ts';
import { arrayOf, empty, errorAnswer, json, listQueryOf, nullable, object, pageOf, ref, type Json } from './shapes.ts';

const DEMAND = 'dbcInfo';
const id = { type: 'integer', minimum: 1 };
const missing = errorAnswer(404, '用车需求不存在', REQUEST_NOT_FOUND);
const noESign = errorAnswer(503, '未配置电子签章服务', ESIGN_NOT_CONFIGURED);
const contract = { contract_id: { ...id, description: '合同编号即用车需求 ID' } };
const byVin = {
  summary: '用车需求：按底盘号（VIN）查询，分页与筛选同列表',
  ...listQueryOf(DEMAND),
  response: { 200: json(pageOf(ref(DEMAND)), '一页用车需求'), 400: errorAnswer(400, '底盘号为空或格式不对', '请输入正确的底盘号') },
};

export const DEALER_STAFF_ROUTES: Record<string, Json> = {
  'POST /api/dbc/dbcInfo/submitDbcInfo': {
    summary: '用车需求：员工替经销商提交（compId 为经销商公司）',
    body: { allOf: [ref('dbcInfoBody'), object({ compId: { ...id, description: '经销商公司 ID' } })] },
    response: {
      201: json(ref(DEMAND), '新的用车需求（审核中）'),
      400: errorAnswer(400, '经销商为空或不存在，或需求不符合规则', '经销商不能为空'),
    },
  },
  'PUT /api/dbc/dbcInfo/status': {
    summary: '用车需求：推进状态（交车、用车、还车、完结）',
    body: object({
      id,
      status: { type: 'integer', enum: [4, 5, 6, 7], description: '4 租赁已交车，5 客户用车中，6 客户已还车，7 订单完结' },
    }),
    response: { 204: empty('已修改'), 400: errorAnswer(400, '目标状态不对或当前状态不能转到该状态', TARGET_INVALID), 404: missing },
  },
  'GET /api/dbc/dbcInfo/history': {
    summary: '用车需求：状态变化',
    querystring: object({ id }),
    response: { 200: json(arrayOf(ref('DemandHistory')), '状态变化'), 404: missing },
  },
  'GET /api/other/otherSysDbx': byVin,
  'GET /api/dbc/dbcInfo/queryQmbcByVin': byVin,
  'GET /api/dbc/dbcInfo/invokeFindPersonCert': {
    summary: '用车需求：签署人的证书信息（电子签章服务）',
    querystring: object(contract),
    response: {
      200: json({ type: 'object', additionalProperties: true, description: '电子签章服务返回的证书信息' }, '证书信息'),
      404: missing,
      503: noESign,
    },
  },
  'POST /api/dbc/dbcInfo/resendMessage': {
    summary: '用车需求：重新发送签署短信（电子签章服务）',
    body: object({ ...contract, id: { ...id, description: '同 contract_id' } }, []),
    response: { 200: json(object({}, [], { additionalProperties: false }), '已发送'), 404: missing, 503: noESign },
  },
  'GET /api/qywxapp/approval/approvalBizSync/{id}': {
    summary: '用车需求：同步企业微信审批结果（路径为审批单号）',
    querystring: object({ bizId: { ...id, description: '用车需求 ID（审批表单未写业务单号时）' } }, []),
    response: {
      200: json(
        object({
          spNo: { type: 'string' },
          bizType: { type: 'string' },
          bizId: { type: 'integer' },
          spName: { type: 'string' },
          spStatus: { type: 'integer', description: '1 审批中，2 已通过，3 已驳回，4 已撤销，6 通过后撤销，7 已删除，10 已支付' },
          spStatusName: { type: 'string' },
          applicant: nullable('string'),
          result: { type: 'string', description: '本次同步做了什么' },
          syncUser: { type: 'string' },
          syncTime: { type: 'string' },
          status: { type: 'integer', description: '同步后用车需求的状态' },
          shStatus: { type: 'integer', description: '同步后的审核状态' },
          auditReason: nullable('string'),
        }),
        '同步记录与需求的新状态',
      ),
      400: errorAnswer(400, '单号不对、未配置、未关联或属于另一条需求', APPROVAL_MESSAGES.notLinked),
      404: missing,
      502: errorAnswer(502, '企业微信返回错误', '企业微信返回错误：invalid sp_no'),
    },
  },

  'GET /api/kf/phoneToAddress': {
    summary: '手机号归属地（离线）；或某条记录手机号的归属地（resource 与 id）',
    querystring: object(
      {
        phone: { type: 'string', description: '11 位手机号' },
        resource: { type: 'string', description: '实体名，如 sysQuestion（与 id 一起）' },
        id,
      },
      [],
    ),
    response: {
      200: json(
        object({
          phone: { type: 'string', description: '无 <实体>:sensitive 时脱敏' },
          province: { type: 'string' },
          city: { type: 'string' },
          carrier: { type: 'string' },
          location: { type: 'string', description: '省市，如 江苏省常州市；未知号段为空' },
        }),
        '归属地',
      ),
      400: errorAnswer(400, '手机号不正确，或该数据没有手机号', MOBILE_INVALID),
      403: errorAnswer(403, '没有该数据的列表权限', '没有权限，请联系管理员'),
      404: errorAnswer(404, '记录不存在或不在数据范围内', '数据不存在'),
    },
  },
  'GET /api/tms/tmsZhcl/findZhclItem': {
    summary: '装潢材料的启用类型（选择用）',
    querystring: object({ name: { type: 'string', maxLength: 50, description: '按名称包含筛选' } }, []),
    response: {
      200: json(
        arrayOf(object({ id: { type: 'integer' }, name: { type: 'string' }, code: nullable('string'), unit: nullable('string') })),
        '类型',
      ),
    },
  },
};
