/**
 * The office routes of the staff console in the OpenAPI document: staff look-ups and job changes,
 * system settings, department remarks, the outbox, operation logs, messages, the user centre and
 * scheduled jobs. Merged by api-docs-routes.ts.
 */
import { arrayOf, empty, idsBody, json, MESSAGE, noBody, nullable, refusal, object, pageOf, ref, type Json } from './shapes.ts';

export const OFFICE_COMPONENTS: Record<string, Json> = {
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
};

export const OFFICE_ROUTES: Record<string, Json> = {
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
      properties: (OFFICE_COMPONENTS.PublicSettings as { properties: Json }).properties,
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
};
