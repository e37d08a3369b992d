/**
 * Demo rows of the lists the user guide walks through (docs/用户手册/): the sales leads with their
 * contacts, cars and activities, profit detail and settlements of 销售部 (sales01's department,
 * so its 本级 lists have rows), applicants with their education, training and work entries,
 * system messages and reminder types. Each row is checked against its schema as a create would
 * be (a broken demo row stops the start in tests, never writes a bad row); the fields the server
 * owns (a lead's stage, status and main-clue flag, an applicant's status) are set after that check.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { idCardCheckDigit } from '../../../shared/validators.ts';
import { checkRecord, insertAll } from '../../crud/index.ts';

type Row = Record<string, unknown>;
const ACTOR = { username: 'admin' };

/** A valid 18-digit ID number of 郑州市中原区 (410102) for a birthday and sex (1 male, 0 female). */
export function demoIdCard(birthday: string, sex: number, serial: number): string {
  const seq = String(100 + ((serial * 2 + (sex === 1 ? 1 : 0)) % 900)).padStart(3, '0');
  const first = `410102${birthday.replaceAll('-', '')}${seq}`;
  return first + idCardCheckDigit(first);
}

function checked(spec: ResourceSpec, row: Row, owned: Row = {}): Row {
  const result = checkRecord(spec, row, 'create');
  if (!result.ok) throw new Error(`demo row of ${spec.name} refused: ${result.error.message}`);
  return { ...result.values, ...owned };
}

async function isEmpty(app: FastifyInstance, spec: ResourceSpec): Promise<boolean> {
  return !(await app.database.db.selectFrom(spec.table).select('id').limit(1).executeTakeFirst());
}

async function idsOf(app: FastifyInstance, spec: ResourceSpec): Promise<number[]> {
  const rows = await app.database.db.selectFrom(spec.table).select('id').orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

function daysAgo(n: number): string {
  const d = new Date(Date.now() - n * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** [name, mobile, sex, source, channel, level, brand, model, stage, status, consultant?] */
const LEADS: Array<[string, string, number, string, string, string, string, string, number, number, boolean]> = [
  ['孙志远', '13937100001', 1, '自建', '展厅', 'H', '大众', '帕萨特', 2, 2, true],
  ['钱晓梅', '13937100002', 0, '客流', '展厅', 'A', '丰田', '凯美瑞', 1, 0, false],
  ['周建国', '13937100003', 1, '线索', '网销', 'B', '本田', '雅阁', 2, 1, true],
  ['吴丽娟', '13937100004', 0, '转介绍', '转介绍', 'C', '大众', '途观L', 2, 2, true],
  ['郑海涛', '13937100005', 1, '自建', '车展', 'A', '别克', '君威', 2, 3, true],
  ['冯雪', '13937100006', 0, '线索', '网销', 'H', '丰田', '汉兰达', 2, 4, true],
  ['陈立新', '13937100007', 1, '客流', '展厅', 'B', '日产', '天籁', 1, 0, false],
  ['褚红', '13937100008', 0, '自建', '外拓', 'N', '大众', '朗逸', 2, 5, true],
  // the same person added again: kept as a secondary clue (主线索 否)
  ['孙志远', '13937100001', 1, '线索', '网销', 'A', '大众', '迈腾', 2, 1, false],
];

const BRANDS: Array<[string, string, string]> = [
  ['大众', '帕萨特', '轿车'],
  ['大众', '途观L', 'SUV'],
  ['丰田', '凯美瑞', '轿车'],
  ['丰田', '汉兰达', 'SUV'],
  ['本田', '奥德赛', 'MPV'],
  ['别克', '君威', '轿车'],
];

const DEMO_VIN = [
  'LSVAU2180N2100001',
  'LSVAU2180N2100002',
  'LVGBE40K8NG100003',
  'LHGCV1658N8100004',
  'LSGZA53L8NA100005',
  'LVGBE40K8NG100006',
];

async function seedSales(app: FastifyInstance, byName: Map<string, ResourceSpec>, salesDept: number, otherDept: number) {
  const activity = byName.get('xsSubmersibleActivity');
  if (activity && (await isEmpty(app, activity))) {
    const rows: Array<[string, number, number, number]> = [
      ['春季新车品鉴会', 40, 30, 20000],
      ['五一购车节', 20, 14, 35000],
      ['老客户转介绍有礼', 10, -60, 8000],
    ];
    await insertAll(
      app.database,
      activity,
      rows.map(([name, from, to, budget], i) =>
        checked(activity, { name, startDate: daysAgo(from), endDate: daysAgo(to), budget, sort: i + 1, enabled: true }),
      ),
      ACTOR,
    );
  }
  const file = byName.get('xsSubmersibleFile');
  if (file && (await isEmpty(app, file))) {
    const consultant = await app.database.db
      .selectFrom('sys_user')
      .select(['id', 'nick_name'])
      .where('username', '=', 'sales01')
      .executeTakeFirst();
    const seen = new Set<string>();
    const rows = LEADS.map(([customerName, mobile, sex, source, channel, level, intentBrand, intentModel, stage, status, allotted], i) => {
      const isMain = !seen.has(mobile);
      seen.add(mobile);
      const assigned = allotted && consultant;
      return checked(
        file,
        { customerName, mobile, sex, orgId: i === 6 ? otherDept : salesDept, source, channel, level, intentBrand, intentModel },
        {
          stage,
          status,
          isMain,
          consultantId: assigned ? Number(consultant.id) : null,
          consultantName: assigned ? String(consultant.nick_name) : null,
          allotTime: assigned ? `${daysAgo(7 - (i % 5))} 10:00:00` : null,
          defeatReason: status === 3 ? '客户选择了竞品' : null,
        },
      );
    });
    await insertAll(app.database, file, rows, ACTOR);
    const ids = await idsOf(app, file);
    const contact = byName.get('xsSubmersibleContact');
    if (contact && (await isEmpty(app, contact)))
      await insertAll(
        app.database,
        contact,
        ids.slice(0, 6).map((fileId, i) =>
          checked(contact, {
            fileId,
            contactTime: `${daysAgo(5 - i)} 15:30:00`,
            way: ['电话', '微信', '到店', '短信', '电话', '微信'][i],
            content: [
              '客户关注油耗和保养费用，约周末到店试驾',
              '发送了车型配置表和优惠政策',
              '到店试驾，对内饰满意',
              '提醒客户活动截止时间',
              '客户已购买竞品，记录战败原因',
              '客户确认订车，预约交车时间',
            ][i],
          }),
        ),
        ACTOR,
      );
    const car = byName.get('xsSubmersibleCar');
    if (car && (await isEmpty(app, car)))
      await insertAll(
        app.database,
        car,
        ids.slice(0, 4).map((fileId, i) =>
          checked(car, {
            fileId,
            brand: LEADS[i][6],
            cx: `${LEADS[i][7]} 2026款`,
            color: ['珍珠白', '星空黑', '极地银', '宝石蓝'][i],
            budget: [220000, 250000, 200000, 280000][i],
            buyType: ['全款', '分期', '置换', '分期'][i],
          }),
        ),
        ACTOR,
      );
  }
  const profit = byName.get('xsLrSjmx');
  if (profit && (await isEmpty(app, profit)))
    await insertAll(
      app.database,
      profit,
      BRANDS.map(([brand, cx, cxType], i) => {
        const salePrice = [199800, 239900, 185800, 289800, 309800, 179900][i];
        const costPrice = salePrice - [6200, 8100, 5400, 9900, 11200, 4800][i];
        const insuranceIncome = [1200, 1500, 980, 1800, 2100, 900][i];
        const financeIncome = [2500, 0, 1800, 3200, 0, 1500][i];
        const boutiqueIncome = [800, 1200, 650, 1500, 2000, 500][i];
        return checked(profit, {
          orgId: i === 5 ? otherDept : salesDept,
          saleDate: daysAgo(3 + i * 4),
          brand,
          cx,
          cxType,
          vin: DEMO_VIN[i],
          customerName: LEADS[i][0],
          consultant: '销售小李',
          salePrice,
          costPrice,
          insuranceIncome,
          financeIncome,
          boutiqueIncome,
          profit: salePrice - costPrice + insuranceIncome + financeIncome + boutiqueIncome,
        });
      }),
      ACTOR,
    );
  const settlement = byName.get('xsZjs');
  if (settlement && (await isEmpty(app, settlement)))
    await insertAll(
      app.database,
      settlement,
      BRANDS.map(([brand, cx], i) =>
        checked(settlement, {
          orgId: i === 5 ? otherDept : salesDept,
          settleDate: daysAgo(2 + i * 4),
          customerName: LEADS[i][0],
          mobile: LEADS[i][1],
          brand,
          cx,
          vin: DEMO_VIN[i],
          amount: [199800, 239900, 185800, 289800, 309800, 179900][i],
          consultant: '销售小李',
        }),
      ),
      ACTOR,
    );
}

/** [name, mobile, sex, birthday, channel, education, status] */
const APPLICANTS: Array<[string, string, number, string, string, number, number]> = [
  ['李明轩', '13637100011', 1, '1996-04-12', '招聘网站', 3, 2],
  ['王雨桐', '13637100012', 0, '1999-09-03', '校园招聘', 2, 2],
  ['张浩然', '13637100013', 1, '1993-01-25', '内部推荐', 3, 1],
  ['刘思雨', '13637100014', 0, '1997-06-30', '现场招聘', 2, 3],
];

async function seedApplicants(app: FastifyInstance, byName: Map<string, ResourceSpec>) {
  const applicant = byName.get('applicant');
  const postings = byName.get('staffunZp');
  if (!applicant || !postings || !(await isEmpty(app, applicant))) return;
  const posts = await idsOf(app, postings);
  if (!posts.length) return;
  const rows = APPLICANTS.map(([name, mobile, sex, birthday, ypqd, edu, status], i) =>
    checked(
      applicant,
      {
        staffunZpId: posts[i % posts.length],
        ypqd,
        ypmx: ypqd === '内部推荐' ? '推荐人：张伟' : ypqd === '招聘网站' ? '智联招聘' : '郑州人才市场',
        name,
        mobile,
        card: demoIdCard(birthday, sex, i + 1),
        sex,
        birthday,
        hyzk: i % 2,
        email: `applicant${i + 1}@example.com`,
        cardProvince: '410000',
        cardCity: '410100',
        cardCounty: '410102',
        cardAddress: `河南省郑州市中原区建设路${10 + i}号`,
        nowProvince: '410000',
        nowCity: '410100',
        nowCounty: '410105',
        nowAddress: `郑州市金水区花园路${20 + i}号`,
        edu,
        work: 2 + i,
        syMoney: 5000 + i * 500,
        zsMoney: 6000 + i * 600,
        yjdg: daysAgo(-14 - i),
        outWork: i % 2 === 0 ? 1 : 0,
      },
      { status },
    ),
  );
  await insertAll(app.database, applicant, rows, ACTOR);
  const ids = await idsOf(app, applicant);
  const education = byName.get('staffunEducation');
  if (education && (await isEmpty(app, education)))
    await insertAll(
      app.database,
      education,
      ids.map((staffunId, i) =>
        checked(education, {
          staffunId,
          xl: APPLICANTS[i][5],
          school: ['郑州大学', '河南职业技术学院', '河南工业大学', '郑州铁路职业技术学院'][i],
          specialty: ['市场营销', '汽车检测与维修', '工商管理', '汽车营销与服务'][i],
          startDate: `${Number(APPLICANTS[i][3].slice(0, 4)) + 18}-09-01`,
          endDate: `${Number(APPLICANTS[i][3].slice(0, 4)) + (APPLICANTS[i][5] === 3 ? 22 : 21)}-06-30`,
          zmr: '王老师',
          zmrPhone: `1371234000${i}`,
        }),
      ),
      ACTOR,
    );
  const training = byName.get('staffunPx');
  if (training && (await isEmpty(app, training)))
    await insertAll(
      app.database,
      training,
      ids.slice(0, 2).map((staffunId, i) =>
        checked(training, {
          staffunId,
          title: ['汽车销售技巧', '新能源汽车基础'][i],
          dept: ['销售部', '售后服务部'][i],
          address: '郑州市金水区培训中心',
          startDate: daysAgo(400 + i * 30),
          endDate: daysAgo(395 + i * 30),
          person: '赵讲师',
          pxxz: '外部培训',
          type: '技能培训',
          result: '合格',
          pxzs: '结业证书',
        }),
      ),
      ACTOR,
    );
  const work = byName.get('staffunWork');
  if (work && (await isEmpty(app, work)))
    await insertAll(
      app.database,
      work,
      ids.slice(0, 3).map((staffunId, i) =>
        checked(work, {
          staffunId,
          company: ['郑州某汽车销售服务有限公司', '河南某汽车维修有限公司', '郑州某贸易有限公司'][i],
          status: 1,
          startDate: daysAgo(1500 - i * 100),
          endDate: daysAgo(60 + i * 30),
          job: ['销售顾问', '维修学徒', '客户专员'][i],
          money: ['6000元', '4500元', '5000元'][i],
          cause: ['寻求更好发展', '离家较远', '公司搬迁'][i],
          zmr: '刘经理',
          zmrPhone: `1381234000${i}`,
          remark: ['连续两年完成销售目标', '参与保养和简单维修', '负责客户回访和资料整理'][i],
        }),
      ),
      ACTOR,
    );
}

async function seedService(app: FastifyInstance, byName: Map<string, ResourceSpec>) {
  const messages = byName.get('sysSocket');
  if (messages && (await isEmpty(app, messages)))
    await insertAll(
      app.database,
      messages,
      [
        { title: '系统升级通知', msg: '本周六晚 22:00 至 23:00 系统升级，期间暂停使用。', type: 1, sort: 1, enabled: true },
        { title: '五一假期值班安排', msg: '请各部门在本周五前提交假期值班表。', type: 1, sort: 2, enabled: true },
        { title: '新版潜客档案上线', msg: '潜客档案支持导入和次线索标记，详见操作文档。', url: '/#/help', type: 1, sort: 3, enabled: true },
      ].map((r) => checked(messages, r)),
      ACTOR,
    );
  const remind = byName.get('kfRemindType');
  if (remind && (await isEmpty(app, remind)))
    await insertAll(
      app.database,
      remind,
      [
        { name: '保养到期', remindDays: 7, content: '尊敬的客户，您的爱车将于近期到达保养里程，请及时预约保养。', sort: 1, enabled: true },
        { name: '保险到期', remindDays: 30, content: '尊敬的客户，您的车辆保险即将到期，请留意续保。', sort: 2, enabled: true },
        { name: '客户回访', remindDays: 3, content: '交车后三天内完成首次回访。', sort: 3, enabled: true },
        { name: '年检提醒', remindDays: 15, content: '您的车辆即将到年检时间。', sort: 4, enabled: false, remark: '暂停使用' },
      ].map((r) => checked(remind, r)),
      ACTOR,
    );
}

/** The guide's lists, each written only into an empty table. */
export async function seedGuideRecords(
  app: FastifyInstance,
  byName: Map<string, ResourceSpec>,
  depts: { sales: number; other: number },
): Promise<void> {
  await seedSales(app, byName, depts.sales, depts.other);
  await seedApplicants(app, byName);
  await seedService(app, byName);
}
