/**
 * Sales (modules/sales) beyond the generic routes, in the OpenAPI document: the leads' actions
 * (潜客档案, leads.ts) and the profit and settlement read-outs (reports.ts). Records are the
 * entities' own components (`xsSubmersibleFile`, `xsLrSjmx`); reads that take a list's filters
 * get that list's query parameters (listQueryOf).
 */
import { LEAD_NOT_FOUND } from '../modules/sales/leads.ts';
import { arrayOf, empty, errorAnswer, json, listQueryOf, nullable, object, pageOf, ref, type Json } from './shapes.ts';

const LEAD = 'xsSubmersibleFile';
const PROFIT = 'xsLrSjmx';

const leadIds = { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, description: '潜客档案 ID' };
const mobile = { type: 'string', pattern: '^1\\d{10}$', description: '客户手机号' };
const orgId = { type: 'integer', minimum: 1, description: '公司（顶级部门）' };
const count = json(object({ count: { type: 'integer', minimum: 0, description: '修改的条数' } }), '修改的条数');
const leadsMissing = errorAnswer(404, '有潜客档案不存在、已删除或不在数据范围内', '潜客档案不存在或已被删除');
const leadMissing = errorAnswer(404, '潜客档案不存在或不在数据范围内', LEAD_NOT_FOUND);
// the example stays the key's refusal; the description gives the other one
const notOwner = errorAnswer(403, '没有该接口的权限，或不是分配给自己的潜客（只能处理分配给自己的潜客）', '没有权限，请联系管理员');
const statusAnswer = json(object({ id: { type: 'integer' }, status: { type: 'integer', description: '新的状态' } }), '新的状态');

/** A grouped sum of profit rows, by the given keys. */
const groupRow = (keys: string[]) =>
  object({
    ...Object.fromEntries(keys.map((k) => [k, nullable('string')])),
    count: { type: 'integer', minimum: 0 },
    salePrice: { type: 'number', description: '销售价合计（元）' },
    profit: { type: 'number', description: '利润合计（元）' },
    avgProfit: { type: 'number', description: '平均利润（元）' },
  });

export const SALES_ROUTES: Record<string, Json> = {
  'GET /api/xs/xsSubmersibleFile/getOwn': {
    summary: '潜客档案：分配给本人的（销售顾问），分页与筛选同列表',
    ...listQueryOf(LEAD),
    response: { 200: json(pageOf(ref(LEAD)), '一页潜客档案') },
  },
  'POST /api/xs/xsSubmersibleFile/isCreate': {
    summary: '潜客档案：能否新建（同一公司同一手机号已有有效线索时不能）',
    body: object({ mobile, orgId }),
    response: {
      200: json(
        object(
          {
            create: { type: 'boolean' },
            fileId: nullable('integer', { description: '已有的有效主线索' }),
            consultantName: nullable('string'),
            message: { type: 'string', description: '不能新建时的提示' },
          },
          ['create', 'fileId', 'consultantName'],
        ),
        '能否新建',
      ),
    },
  },
  'GET /api/xs/xsSubmersibleFile/getValidMainClue': {
    summary: '潜客档案：某公司某手机号的有效主线索',
    querystring: object({ mobile, orgId }),
    response: { 200: json({ anyOf: [ref(LEAD), { type: 'null' }] }, '主线索；没有时为 null') },
  },
  'GET /api/xs/xsSubmersibleFile/isTjgc': {
    summary: '潜客档案：是否已提交购车（已成交）',
    querystring: object({ id: { type: 'integer', minimum: 1 } }),
    response: { 200: json(object({ id: { type: 'integer' }, tjgc: { type: 'boolean' } }), '是否已成交'), 404: leadMissing },
  },
  'GET /api/xs/xsSubmersibleFile/getSalesConsultant': {
    summary: '潜客档案：某公司的销售顾问',
    querystring: object({ orgId }),
    response: {
      200: json(arrayOf(object({ id: { type: 'integer' }, username: { type: 'string' }, nickName: { type: 'string' } })), '销售顾问'),
    },
  },
  'POST /api/xs/xsSubmersibleFile/passengerFlowTransform': {
    summary: '潜客档案：客流到店登记（新客户建线索；已有有效主线索时记一次到店）',
    body: object(
      {
        mobile,
        orgId,
        customerName: { type: 'string', minLength: 1, maxLength: 30 },
        intentModel: { type: 'string', maxLength: 100, description: '意向车型' },
        remark: { type: 'string', maxLength: 500 },
      },
      ['mobile', 'orgId', 'customerName'],
    ),
    response: {
      200: json(object({ created: { type: 'boolean', const: false }, id: { type: 'integer' } }), '已有主线索，记了一次到店'),
      201: json(object({ created: { type: 'boolean', const: true }, id: { type: 'integer' } }), '新建的线索'),
    },
  },
  'POST /api/xs/xsSubmersibleFile/clueConvertSubmersibleFile': {
    summary: '潜客档案：线索转为潜客',
    body: object({ ids: leadIds }),
    response: { 200: count, 404: leadsMissing },
  },
  'POST /api/xs/xsSubmersibleFile/allot': {
    summary: '潜客档案：分配给本公司的销售顾问',
    body: object({ ids: leadIds, consultantId: { type: 'integer', minimum: 1, description: '销售顾问的用户 ID' } }),
    response: { 200: count, 404: leadsMissing },
  },
  'PUT /api/xs/xsSubmersibleFile/processClue': {
    summary: '潜客档案：销售顾问处理（跟进、战败、成交、休眠）并记一条联系记录',
    body: object(
      {
        id: { type: 'integer', minimum: 1 },
        result: { type: 'string', enum: ['follow', 'defeat', 'won', 'sleep'] },
        content: { type: 'string', minLength: 1, maxLength: 1000, description: '处理说明' },
        defeatReason: { type: 'string', maxLength: 200, description: '战败时必填' },
        nextTime: { type: 'string', description: '跟进时：下次跟进时间 yyyy-MM-dd HH:mm:ss' },
        way: { type: 'string', description: '联系方式（联系记录的选项），默认 电话' },
      },
      ['id', 'result', 'content'],
    ),
    response: { 200: statusAnswer, 403: notOwner, 404: leadMissing },
  },
  'PUT /api/xs/xsSubmersibleFile/activation': {
    summary: '潜客档案：激活已战败或休眠的潜客',
    body: object({ id: { type: 'integer', minimum: 1 } }),
    response: { 200: statusAnswer, 403: notOwner, 404: leadMissing },
  },
  'PUT /api/xs/xsSubmersibleFile/upChannel': {
    summary: '潜客档案：批量修改渠道',
    body: object({ ids: leadIds, channel: { type: 'string', description: '渠道（潜客档案的选项）' } }),
    response: { 200: count, 404: leadsMissing },
  },
  'PUT /api/xs/xsSubmersibleFile/upBatchOrgId': {
    summary: '潜客档案：批量调到另一公司（待重新分配）',
    body: object({ ids: leadIds, orgId }),
    response: { 200: count, 404: leadsMissing },
  },

  'GET /api/xs/xsLrSjmx/getListAll': {
    summary: '利润数据明细：全部符合条件的记录（不分页，最多 99999 条）',
    ...listQueryOf(PROFIT),
    response: { 200: json(arrayOf(ref(PROFIT)), '记录') },
  },
  'GET /api/xs/xsLrSjmx/findGroup': {
    summary: '利润数据明细：按品牌汇总（筛选同列表）',
    ...listQueryOf(PROFIT, false),
    response: { 200: json(arrayOf(groupRow(['brand'])), '各品牌的台数、销售额与利润') },
  },
  'GET /api/xs/xsLrSjmx/selectGroupBrandCxType': {
    summary: '利润数据明细：按品牌、车型和车型类别汇总（筛选同列表）',
    ...listQueryOf(PROFIT, false),
    response: { 200: json(arrayOf(groupRow(['brand', 'cx', 'cxType'])), '各组的台数、销售额与利润') },
  },
  'PUT /api/xsZjs/updateCreateTime': {
    summary: '整车结算：更正录入时间',
    body: object({
      id: { type: 'integer', minimum: 1 },
      createTime: { type: 'string', description: 'yyyy-MM-dd HH:mm:ss，不晚于当前时间' },
    }),
    response: { 204: empty('已修改'), 404: errorAnswer(404, '记录不存在或不在数据范围内', '数据不存在') },
  },
  'GET /api/xsZjs/getcx': {
    summary: '整车结算：已结算的品牌与车型（去重）',
    querystring: object({ brand: { type: 'string', maxLength: 50 } }, []),
    response: { 200: json(arrayOf(object({ brand: nullable('string'), cx: nullable('string') })), '品牌与车型') },
  },
};
