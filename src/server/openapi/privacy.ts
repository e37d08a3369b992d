/**
 * 个人信息保护 (modules/privacy) in the OpenAPI document: the look-up, the copy, the erasure and
 * the list of requests, the retention dry run and run, the records of processing, each answered
 * for the holder of pi:admin only.
 */
import { arrayOf, errorAnswer, fileAnswer, json, noBody, nullable, object, pageOf, ref, type Json } from './shapes.ts';

const RECORD = { type: 'object', additionalProperties: true, description: '记录的全部字段（完整值）' };
const REVISION = { type: 'object', additionalProperties: true, description: '一个历史版本（谁、何时、改了什么）' };

const FoundGroup = object(
  {
    resource: { type: 'string', description: '实体名或表名' },
    title: { type: 'string', description: '中文名称' },
    table: { type: 'string' },
    source: { type: 'string', enum: ['schema', 'table', 'owned'], description: '实体、手写表、应聘者本人填写的记录' },
    records: arrayOf(RECORD),
    deletedIds: arrayOf({ type: 'integer' }),
    revisions: arrayOf(REVISION),
  },
  ['resource', 'title', 'table', 'source', 'records', 'deletedIds', 'revisions'],
  { additionalProperties: true },
);
const FoundLog = object(
  {
    id: { type: 'integer' },
    username: nullable('string'),
    description: nullable('string'),
    method: nullable('string'),
    params: nullable('string'),
    createTime: { type: 'string' },
  },
  undefined,
  { additionalProperties: true },
);
const EraseLine = object(
  {
    resource: { type: 'string' },
    title: { type: 'string' },
    table: { type: 'string' },
    action: { type: 'string', description: '删除 或 匿名化' },
    records: { type: 'integer', minimum: 0 },
    binEntries: { type: 'integer', minimum: 0 },
    revisionsRemoved: { type: 'integer', minimum: 0 },
    revisionsBlanked: { type: 'integer', minimum: 0 },
    pinyinKeys: { type: 'integer', minimum: 0 },
    files: { type: 'integer', minimum: 0 },
  },
  undefined,
  { additionalProperties: true },
);

const COUNT = { type: 'integer', minimum: 0 };
const RetentionLine = object(
  {
    resource: { type: 'string' },
    title: { type: 'string' },
    action: { type: 'string', description: '删除 或 匿名化' },
    rule: { type: 'string', description: '保存期限，如“最后修改时间后 180 天”' },
    records: { ...COUNT, description: '到期的记录（全部）' },
    binEntries: { ...COUNT, description: '删除已超过期限的回收站数据' },
    owned: { ...COUNT, description: '其中随到期的应聘人员一并处理的附属记录' },
    ids: arrayOf({ type: 'integer' }),
    binIds: arrayOf({ type: 'integer' }),
    count: { ...COUNT, description: '本次处理（或将处理）的记录和回收站数据' },
    left: { ...COUNT, description: '超过单次上限、留待下次的' },
    revisionsRemoved: COUNT,
    revisionsBlanked: COUNT,
    pinyinKeys: COUNT,
    files: COUNT,
  },
  undefined,
  { additionalProperties: true },
);
const ProcessingRecord = object(
  {
    resource: { type: 'string' },
    title: { type: 'string' },
    table: { type: 'string' },
    source: { type: 'string', description: '业务数据 或 系统数据' },
    fields: arrayOf(
      object({ name: { type: 'string' }, title: { type: 'string' }, kind: { type: 'string' }, kindTitle: { type: 'string' } }, undefined, {
        additionalProperties: true,
      }),
    ),
    purpose: { type: 'string', description: '处理目的（x-purpose）' },
    retention: { type: 'string', description: '保存期限（x-retention）' },
    erase: { type: 'string', description: '删除方式（x-erase）' },
    fullKey: nullable('string', { description: '查看完整值的权限标识' }),
    roles: arrayOf({ type: 'string' }),
  },
  undefined,
  { additionalProperties: true },
);

export const PRIVACY_COMPONENTS: Record<string, Json> = {
  PrivacyRetention: object(
    {
      requestId: { type: 'integer', description: '执行时：本次运行的请求记录号' },
      dryRun: { type: 'boolean' },
      time: { type: 'string' },
      lines: arrayOf(RetentionLine),
      logLines: { ...COUNT, description: '号码已脱敏的操作日志行' },
      count: COUNT,
      left: COUNT,
    },
    ['dryRun', 'time', 'lines', 'logLines', 'count', 'left'],
    { title: '个人信息到期清理报告' },
  ),
  PrivacyProcessing: object(
    { generatedAt: { type: 'string' }, everything: { type: 'string' }, records: arrayOf(ProcessingRecord) },
    ['generatedAt', 'everything', 'records'],
    { title: '个人信息处理活动记录' },
  ),
  PrivacyFound: object(
    {
      requestId: { type: 'integer', description: '本次请求的记录号' },
      groups: arrayOf(ref('PrivacyFoundGroup')),
      logs: arrayOf(ref('PrivacyFoundLog')),
      count: { type: 'integer', minimum: 0, description: '记录、已删除记录和日志行合计' },
    },
    ['requestId', 'groups', 'logs', 'count'],
    { title: '个人信息查询结果' },
  ),
  PrivacyFoundGroup: FoundGroup,
  PrivacyFoundLog: FoundLog,
  PrivacyErasure: object(
    {
      requestId: { type: 'integer' },
      lines: arrayOf(EraseLine),
      logLines: { type: 'integer', minimum: 0, description: '脱敏的操作日志行' },
      otherRevisions: { type: 'integer', minimum: 0, description: '其他记录的历史版本中被脱敏的' },
      ledger: { type: 'integer', minimum: 0, description: '写入删除登记的标识数' },
      count: { type: 'integer', minimum: 0 },
    },
    ['requestId', 'lines', 'logLines', 'otherRevisions', 'ledger', 'count'],
    { title: '个人信息删除报告' },
  ),
  PrivacyRequest: object(
    {
      id: { type: 'integer' },
      kind: { type: 'string', enum: ['search', 'copy', 'erase', 'retention'] },
      kindTitle: { type: 'string', description: '查询、导出副本、删除或到期清理' },
      subject: nullable('string', { description: '脱敏后的身份证号或手机号' }),
      reason: { type: 'string', description: '事由' },
      status: { type: 'string' },
      resultCount: { type: 'integer', minimum: 0 },
      detail: { description: '结果摘要' },
      username: nullable('string'),
      createTime: { type: 'string' },
    },
    undefined,
    { title: '个人信息请求记录' },
  ),
};

const SUBJECT = {
  idNumber: { type: 'string', maxLength: 40, description: '完整的身份证号' },
  mobile: { type: 'string', maxLength: 40, description: '完整的手机号' },
  reason: { type: 'string', maxLength: 500, description: '事由（必填）' },
};
const badSubject = errorAnswer(400, '缺少事由，或身份证号、手机号不完整', '请填写事由');

export const PRIVACY_ROUTES: Record<string, Json> = {
  'POST /api/privacy/search': {
    summary: '个人信息查询：按完整的身份证号或手机号查找此人在各处的记录（记为一次请求）',
    body: object(SUBJECT, ['reason']),
    response: { 200: json(ref('PrivacyFound'), '找到的记录、历史版本和日志行'), 400: badSubject },
  },
  'POST /api/privacy/copy': {
    summary: '个人信息副本：此人的全部记录、历史版本和日志行，一个 JSON 或 xlsx 文件（记为一次请求）',
    body: object({ ...SUBJECT, format: { type: 'string', enum: ['json', 'xlsx'], description: '默认 json' } }, ['reason']),
    response: {
      200: {
        description: '副本文件',
        content: {
          'application/json': { schema: { type: 'object', additionalProperties: true } },
          ...fileAnswer('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx').content,
        },
      },
      400: badSubject,
    },
  },
  'POST /api/privacy/erase': {
    summary: '删除个人信息：按各实体的 x-erase 删除或匿名化此人的记录、历史版本、回收站、拼音索引和文件，并登记（记为一次请求）',
    body: object(SUBJECT, ['reason']),
    response: { 200: json(ref('PrivacyErasure'), '每处做了什么'), 400: badSubject },
  },
  'GET /api/privacy/requests': {
    summary: '个人信息请求记录（新的在前；kind=retention 只列到期清理的运行）',
    response: { 200: json(pageOf(ref('PrivacyRequest')), '一页请求记录') },
  },
  'GET /api/privacy/requests/download': {
    summary: '导出个人信息请求记录（xlsx，供审计）',
    response: { 200: fileAnswer('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '请求记录表') },
  },
  'GET /api/privacy/retention': {
    summary: '到期清理试运行：按各数据的保存期限列出现在到期的记录（每类的数量和ID），不做任何修改',
    response: { 200: json(ref('PrivacyRetention'), '将删除或匿名化的记录') },
  },
  'POST /api/privacy/retention/run': {
    summary: '立即执行到期清理：删除或匿名化到期的记录（与每日定时任务相同，记为一次请求并通知管理员）',
    ...noBody('按当前时间执行一次，不带请求体'),
    response: { 200: json(ref('PrivacyRetention'), '本次处理的报告') },
  },
  'GET /api/privacy/processing': {
    summary: '个人信息处理活动记录：各数据的个人信息字段、处理目的、保存期限、删除方式和可查看完整信息的角色',
    response: { 200: json(ref('PrivacyProcessing'), '由数据定义和角色权限生成') },
  },
  'GET /api/privacy/processing/markdown': {
    summary: '导出个人信息处理活动记录（Markdown 文件）',
    response: { 200: fileAnswer('text/markdown', '个人信息处理活动记录') },
  },
};
