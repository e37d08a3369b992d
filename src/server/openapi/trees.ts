/**
 * The department tree and the brand tree (modules/trees) in the OpenAPI document: reads by
 * level, lazy children and paths, creates and updates per level, deletes and the push of a
 * whole branch. Merged by api-docs-routes.ts.
 */
import { arrayOf, empty, idsBody, json, nullable, refusal, object, pageOf, ref, type Json } from './shapes.ts';

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

export const TREE_COMPONENTS: Record<string, Json> = {
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
};

export const TREE_ROUTES: Record<string, Json> = {
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
};
