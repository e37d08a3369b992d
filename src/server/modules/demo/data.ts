/**
 * Demo records for a first start: enough feedback and postings to try every filter,
 * page through a list and export something meaningful, and the 库品类型 a dealer stocks.
 */
const MODULES = ['系统', '销售', '售后', '人事', '行政', '服务', '客户', '市场', '其他'];

const ISSUES: Array<[string, string, string]> = [
  ['导出表格打不开', '在销售明细页面导出的表格用WPS打开提示格式错误。', '导出前提示文件格式，或提供csv版本。'],
  ['试驾预约提醒不及时', '客户预约试驾后，销售顾问第二天才收到提醒。', '预约成功后立即推送企业微信消息。'],
  ['保养到期提醒重复', '同一客户一周内收到三次保养到期短信。', '同一提醒七天内只发送一次。'],
  ['招聘信息无法修改', '已发布的招聘岗位修改薪资后保存没有反应。', ''],
  ['办公用品申领流程太长', '申领一支笔需要三级审批。', '低于五十元的物品改为部门负责人审批。'],
  ['售后工单搜索太慢', '按车牌号搜索工单要等十几秒。', '车牌号字段加索引。'],
  ['客户投诉回访无记录', '回访结果没有地方填写。', '在投诉详情页增加回访记录。'],
  ['活动报名页面在手机上错位', '市场活动报名页在小屏手机上按钮被遮挡。', '适配小屏幕。'],
  ['考勤统计有误', '调休的日期被统计为缺勤。', ''],
  ['系统登录偶尔超时', '早上八点半左右登录经常提示网络请求超时。', '高峰期增加服务器资源。'],
  ['代步车归还登记缺少里程', '还车时无法记录公里数。', '增加还车里程和油量字段。'],
  ['销售线索分配不均', '部分顾问连续分到无效线索。', '按轮询方式分配线索。'],
];

const NAMES = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊', '赵敏', '黄强'];

export function demoFeedback(count = 36): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  for (let i = 0; i < count; i++) {
    const [title, content, remark] = ISSUES[i % ISSUES.length];
    const named = i % 3 !== 0;
    rows.push({
      userType: i % 4 === 3 ? '客户' : '员工',
      model: MODULES[i % MODULES.length],
      title,
      content,
      remark: remark || null,
      username: named ? NAMES[i % NAMES.length] : null,
      mobile: named ? `13${String(800000000 + i * 7919).slice(0, 9)}` : null,
      status: i % 5 === 0,
      enabled: true,
    });
  }
  return rows;
}

export function demoPostings(deptIds: number[]): Array<Record<string, unknown>> {
  const jobs: Array<[string, string, string, number]> = [
    ['销售顾问', '6000-12000元', '郑州市中原区', 5],
    ['售后服务顾问', '5000-9000元', '郑州市金水区', 3],
    ['机修技师', '7000-13000元', '郑州市二七区', 4],
    ['钣喷技师', '7000-12000元', '郑州市管城区', 2],
    ['客服专员', '4000-6000元', '郑州市中原区', 2],
    ['人事专员', '4500-6500元', '郑州市金水区', 1],
    ['市场策划', '6000-10000元', '郑州市郑东新区', 1],
    ['数据分析师', '8000-15000元', '郑州市郑东新区', 1],
  ];
  return jobs.map(([job, money, address, jobNum], i) => ({
    deptId: deptIds[i % deptIds.length],
    job,
    money,
    address,
    jobNum,
    jobZz: `负责${job}岗位的日常工作，完成部门下达的月度目标，维护客户关系。`,
    jobYq: '大专及以上学历，有汽车行业经验者优先；沟通能力强，有责任心。',
    enabled: i !== 7,
    remark: i === 0 ? '提供五险一金、带薪年假和节日福利。' : null,
  }));
}

/** 库品类型: the accessories a dealer fits and stocks (what findZhclItem offers); one disabled to show the filter */
export function demoWareTypes(): Array<Record<string, unknown>> {
  const types: Array<[string, string, string]> = [
    ['脚垫', 'MAT', '套'],
    ['贴膜', 'FILM', '张'],
    ['行车记录仪', 'DVR', '台'],
    ['座套', 'SEAT_COVER', '套'],
    ['机油', 'OIL', '升'],
    ['轮胎', 'TYRE', '条'],
    ['香水挂件', 'FRAGRANCE', '件'],
  ];
  return types.map(([name, code, unit], i) => ({
    name,
    code,
    unit,
    sort: i + 1,
    enabled: i !== types.length - 1,
    remark: i === types.length - 1 ? '已停止采购' : null,
  }));
}
