/**
 * The applicant flow on a phone-sized browser (390 x 844), without signing in: recruitment
 * information -> 我要应聘 -> registration (required messages, ID autofill of birthday, sex
 * and household region, the area picker) -> education step (special characters, the
 * referee-phone and date rules, cards, delete) -> 确认填写完毕 -> success. Checked on screen,
 * in screenshots and by API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { idCardCheckDigit } from '../../src/shared/validators.ts';
import { loginAs } from '../server/auth-helpers.ts';
import { chooseOption, notice as listNotice, waitForCall } from './list-helpers.ts';
import {
  ADMIN,
  api,
  launchBrowser,
  newPage,
  openFromMenu,
  pending,
  shot as pageShot,
  shotOnFailure,
  signInAs,
  startProduct,
  type Product,
} from './support.ts';
import type { Created, Page as AnswerPage } from '../support/answers.ts';

/** whole-page shots from the top, so the sticky title bar sits where the user sees it */
async function shot(p: Page, name: string, opts?: { fullPage?: boolean }) {
  if (opts?.fullPage !== false) await p.evaluate(() => window.scrollTo(0, 0));
  await pageShot(p, name, opts);
}

const PHONE = { width: 390, height: 844 };
const MOBILE = '13912345678';
const first17 = '41010519960815224'; // 金水区, 1996-08-15, sex digit 4: even, female
const CARD = first17 + idCardCheckDigit(first17);

let product: Product;
let browser: Browser;
let page: Page;
let adminToken: string;
let postingId: number;
let staffunId: number;

async function expectNotice(text: string) {
  await expect.poll(async () => (await page.getByRole('alert').allInnerTexts()).join('|'), { timeout: 10_000 }).toContain(text);
}

async function choose(label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: false });
  adminToken = await loginAs(product.app, ADMIN.username, ADMIN.password);
  const created = await api(product, adminToken, 'POST', '/api/staffunZp', {
    deptId: 1,
    job: '销售顾问',
    money: '6000-9000元/月',
    address: '郑州市金水区',
    jobNum: 3,
    jobZz: '接待到店客户，介绍车型并促成交易',
    jobYq: '大专以上学历，有驾照',
    enabled: true,
  });
  expect(created.status).toBe(201);
  postingId = created.json<Created>().id;
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: PHONE, locale: 'zh-CN', isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

describe('applicant onboarding on a phone', () => {
  it('the sign-in page does not load the region tables; the applicant pages do', async () => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${product.url}/#/login`);
    await page.getByRole('button', { name: '登 录', exact: true }).waitFor();
    expect(scripts.some((p) => p.includes('regions'))).toBe(false);
    expect(scripts.some((p) => p.includes('ApplicantApp'))).toBe(false);
    await page.goto(`${product.url}/#/staffun/list`);
    await page.getByText('销售顾问').first().waitFor();
    expect(scripts.some((p) => p.includes('regions'))).toBe(true);
    await shot(page, 'applicant-00-postings');
    page.removeAllListeners('request');
  });

  it('shows the recruitment information of the posting and opens the registration for it', async () => {
    await page.goto(`${product.url}/#/staffun/view?id=${postingId}`);
    await page.getByRole('heading', { name: '销售顾问' }).waitFor();
    await expect.poll(() => page.getByText('接待到店客户，介绍车型并促成交易').isVisible()).toBe(true);
    await shot(page, 'applicant-01-posting');
    await page.getByRole('link', { name: '我要应聘' }).click();
    await page.getByRole('heading', { name: '应聘人员信息登记表' }).waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: '应聘岗位' }).innerText()).toContain('销售顾问');
  });

  it('refuses an empty form with the first message and marks the fields', async () => {
    await page.getByRole('button', { name: '下一步' }).click();
    await expectNotice('应聘渠道不能为空');
    await expect.poll(() => page.getByText('姓名不能为空').isVisible()).toBe(true);
    await shot(page, 'applicant-02-register-errors');
  });

  it('fills birthday, sex and household region from the ID number', async () => {
    await page.getByRole('textbox', { name: '身份证号码' }).fill(CARD.slice(0, 17) + (CARD[17] === '0' ? '1' : '0'));
    await expect.poll(() => page.getByText('身份证号码不正确').first().isVisible()).toBe(true);
    await page.getByRole('textbox', { name: '身份证号码' }).fill(CARD);
    await expect.poll(() => page.getByRole('textbox', { name: '出生日期' }).inputValue()).toBe('1996-08-15');
    await expect.poll(() => page.getByRole('radio', { name: '女' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByRole('textbox', { name: '户籍所在地', exact: true }).inputValue()).toBe('河南省/郑州市/金水区');
  });

  it('picks the current residence with the area picker (default 河南省/郑州市/中原区)', async () => {
    await page.getByRole('textbox', { name: '现居住地', exact: true }).click();
    const picker = page.getByRole('dialog', { name: '现居住地' });
    await picker.waitFor();
    await expect
      .poll(() => picker.getByRole('listbox', { name: '省份' }).getByRole('option', { selected: true }).innerText())
      .toBe('河南省');
    await expect
      .poll(() => picker.getByRole('listbox', { name: '城市' }).getByRole('option', { selected: true }).innerText())
      .toBe('郑州市');
    await expect
      .poll(() => picker.getByRole('listbox', { name: '区县' }).getByRole('option', { selected: true }).innerText())
      .toBe('中原区');
    await picker.getByRole('listbox', { name: '区县' }).getByRole('option', { name: '二七区' }).click();
    await expect
      .poll(() => picker.getByRole('listbox', { name: '区县' }).getByRole('option', { selected: true }).innerText())
      .toBe('二七区');
    await shot(page, 'applicant-03-area-picker', { fullPage: false });
    await picker.getByRole('button', { name: '完成' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: '现居住地', exact: true }).inputValue()).toBe('河南省/郑州市/二七区');
  });

  it('registers and goes to the education step with staffunId and phoneNum', async () => {
    await choose('应聘渠道', '内部推荐');
    await page.getByRole('textbox', { name: '渠道明细' }).fill('同事王磊推荐');
    await page.getByRole('textbox', { name: '姓名' }).fill('刘晓梅');
    await page.getByRole('textbox', { name: '手机号码' }).fill(MOBILE);
    await choose('婚姻状况', '未婚');
    await page.getByRole('textbox', { name: '电子邮箱' }).fill('bad-mail');
    await page.getByRole('textbox', { name: '身份证地址' }).click();
    await expect.poll(() => page.getByText('输入邮箱格式错误, 请重新输入').isVisible()).toBe(true);
    await page.getByRole('textbox', { name: '电子邮箱' }).fill('liuxm@example.com');
    await page.getByRole('textbox', { name: '身份证地址' }).fill('金水区纬五路12号');
    await page.getByRole('textbox', { name: '现居住地址' }).fill('二七区大学路8号');
    await choose('最高学历', '本科');
    await page.getByRole('textbox', { name: '工作年限（年）' }).fill('4');
    await page.getByRole('textbox', { name: '试用期期望薪资（元/月）' }).fill('6000');
    await page.getByRole('textbox', { name: '转正期望薪资（元/月）' }).fill('8000');
    await page.getByRole('textbox', { name: '预计到岗日期' }).fill('2026-12-15');
    await page.getByRole('radio', { name: '是' }).check();
    await shot(page, 'applicant-04-register-filled');
    const created = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/staffun' && r.request().method() === 'POST'));
    await page.getByRole('button', { name: '下一步' }).click();
    expect((await created).status()).toBe(201);
    await page.waitForURL((u) => u.hash.startsWith('#/staffun/education'));
    const query = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
    staffunId = Number(query.get('staffunId'));
    expect(staffunId).toBeGreaterThan(0);
    expect(query.get('phoneNum')).toBe(MOBILE);
    const stored = (await api(product, adminToken, 'GET', `/api/staffun?id=${staffunId}`)).json<AnswerPage>().content[0];
    expect(stored).toMatchObject({
      name: '刘晓梅',
      sex: 0,
      birthday: '1996-08-15',
      cardCounty: '410105',
      nowCounty: '410103',
      staffunZpId: postingId,
      status: 1,
      ypqd: '内部推荐',
    });
  });

  it('education: special characters, own phone and dates are refused; a valid entry becomes a card', async () => {
    const section = page.locator('[data-entity="staffunEducation"]');
    await section.getByRole('button', { name: '保存教育信息' }).waitFor();
    await shot(page, 'applicant-05-education-empty');
    await section.getByRole('combobox', { name: '学历' }).click();
    await page.getByRole('option', { name: '本科', exact: true }).click();
    await section.getByRole('textbox', { name: '毕业学院' }).fill('郑州大学#');
    await section.getByRole('textbox', { name: '所学专业' }).fill('市场营销');
    await section.getByRole('textbox', { name: '开始日期' }).fill('2014-09-01');
    await section.getByRole('textbox', { name: '毕业日期' }).fill('2018-07-01');
    await section.getByRole('textbox', { name: '证明人', exact: true }).fill('张老师');
    await section.getByRole('textbox', { name: '证明人电话' }).fill(MOBILE);
    await section.getByRole('button', { name: '保存教育信息' }).click();
    await expectNotice('请认真填写,不支持特殊字符');
    await section.getByRole('textbox', { name: '毕业学院' }).fill('郑州大学');
    await section.getByRole('button', { name: '保存教育信息' }).click();
    await expectNotice('信息保存失败，毕业日期必须大于开始日期或证明人电话不能是自己本人');
    await section.getByRole('textbox', { name: '证明人电话' }).fill('13800001111');
    await section.getByRole('textbox', { name: '毕业日期' }).fill('2013-07-01');
    await section.getByRole('button', { name: '保存教育信息' }).click();
    await expectNotice('信息保存失败，毕业日期必须大于开始日期或证明人电话不能是自己本人');
    await section.getByRole('textbox', { name: '毕业日期' }).fill('2018-07-01');
    await section.getByRole('button', { name: '保存教育信息' }).click();
    await expectNotice('教育信息保存成功');
    await expect.poll(() => section.getByTestId('staffunEducation-card').count()).toBe(1);
    await expect.poll(() => section.getByTestId('staffunEducation-card').innerText()).toContain('郑州大学（本科）');
    await shot(page, 'applicant-06-education-card');
  });

  it('training: a card that can be deleted after confirming', async () => {
    await page.getByRole('button', { name: /培训信息/ }).click();
    const section = page.locator('[data-entity="staffunPx"]');
    await section.getByRole('button', { name: '保存培训信息' }).click();
    await expectNotice('培训标题不能为空');
    const fill = async (label: string, value: string) => section.getByRole('textbox', { name: label, exact: true }).fill(value);
    await fill('培训标题', '新车型产品培训');
    await fill('培训部门', '人事部');
    await fill('培训地址', '郑州培训中心');
    await section.getByRole('textbox', { name: '开始日期' }).fill('2019-03-01');
    await section.getByRole('textbox', { name: '结束时间' }).fill('2019-03-03');
    await fill('培训人', '赵讲师');
    await fill('培训性质', '内部培训');
    await fill('培训类型', '产品知识');
    await fill('培训结果', '合格');
    await fill('培训证书', '结业证书');
    await section.getByRole('button', { name: '保存培训信息' }).click();
    await expectNotice('提交成功');
    await expect.poll(() => section.getByTestId('staffunPx-card').count()).toBe(1);
    await section.getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByText('确定删除本条数据吗？').waitFor();
    await shot(page, 'applicant-07-delete-confirm', { fullPage: false });
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await expectNotice('删除成功');
    await expect.poll(() => section.getByTestId('staffunPx-card').count()).toBe(0);
  });

  it('work: the referee may not be the applicant; 请求成功 then the form clears', async () => {
    await page.getByRole('button', { name: /工作信息/ }).click();
    const section = page.locator('[data-entity="staffunWork"]');
    const fill = async (label: string, value: string) => section.getByRole('textbox', { name: label, exact: true }).fill(value);
    await fill('公司名称', '郑州某汽车销售服务有限公司');
    await section.getByRole('textbox', { name: '开始日期' }).fill('2018-08-01');
    await section.getByRole('textbox', { name: '结束日期' }).fill('2022-06-30');
    await fill('职务', '销售顾问');
    await fill('薪资', '8000元');
    await fill('离职原因', '个人发展');
    await fill('证明人', '李经理');
    await fill('证明人电话', MOBILE);
    await fill('工作经历', '负责展厅接待与成交年销量一百二十台');
    await section.getByRole('button', { name: '保存工作信息' }).click();
    await expectNotice('信息保存失败,证明人电话不能是自己本人');
    await fill('证明人电话', '13700002222');
    await section.getByRole('button', { name: '保存工作信息' }).click();
    await expectNotice('请求成功');
    await expect.poll(() => section.getByTestId('staffunWork-card').count()).toBe(1);
    await expect.poll(() => section.getByRole('textbox', { name: '公司名称', exact: true }).inputValue()).toBe('');
    await shot(page, 'applicant-08-work-card');
  });

  it('确认填写完毕 finishes and shows the success page', async () => {
    await page.getByRole('button', { name: '确认填写完毕' }).click();
    await page.waitForURL((u) => u.hash === '#/staffun/success');
    await page.getByRole('heading', { name: '提交成功' }).waitFor();
    await shot(page, 'applicant-09-success');
    const stored = (await api(product, adminToken, 'GET', `/api/staffun?id=${staffunId}`)).json<AnswerPage>().content[0];
    expect(stored.status).toBe(2);
    expect((await api(product, adminToken, 'GET', `/api/staffunEducation?staffunId=${staffunId}`)).json<AnswerPage>().totalElements).toBe(
      1,
    );
    expect((await api(product, adminToken, 'GET', `/api/staffunWork?staffunId=${staffunId}`)).json<AnswerPage>().totalElements).toBe(1);
    expect((await api(product, adminToken, 'GET', `/api/staffunPx?staffunId=${staffunId}`)).json<AnswerPage>().totalElements).toBe(0);
    // the token is gone from the page: going back to the step says the registration has ended
    await page.goto(`${product.url}/#/staffun/education?staffunId=${staffunId}&phoneNum=${MOBILE}`);
    await page.getByText('登记信息已失效，请重新填写应聘人员信息登记表').waitFor();
  });
});

describe('staff side: applicant detail with scroll tabs, and the move into the roster', () => {
  let staff: Page;
  const scripts: string[] = [];
  beforeAll(async () => {
    staff = await newPage(browser);
    staff.setDefaultTimeout(15_000);
    staff.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await signInAs(staff, product, ADMIN);
  });
  beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(staff, `staff-${task.name}`)));

  it('lists the applicant and opens the detail page whose left tabs jump to the sections', async () => {
    await openFromMenu(staff, '应聘人员信息', 'api/staffun');
    // the console shell and the list do not load the region tables; the detail page does
    expect(scripts.some((p) => p.includes('regions'))).toBe(false);
    await staff.getByRole('link', { name: '详情' }).first().click();
    await staff.waitForURL((u) => u.hash === `#/applicant/${staffunId}/show`);
    // the heading shows the name as the page body does: masked
    await staff.getByRole('heading', { name: '刘**' }).waitFor();
    const work = staff.getByRole('region', { name: '工作信息' });
    await expect.poll(() => work.getByRole('table').innerText()).toContain('郑州某汽车销售服务有限公司');
    await expect.poll(() => staff.getByRole('region', { name: '基本信息' }).innerText()).toContain('河南省/郑州市/二七区');
    expect(scripts.some((p) => p.includes('regions'))).toBe(true);
    await shot(staff, 'applicant-10-staff-detail');
    await staff.getByRole('tablist', { name: '页面导航' }).first().getByRole('tab', { name: '工作信息' }).click();
    await expect.poll(async () => (await work.boundingBox())?.y ?? 9999).toBeLessThan(200);
    await expect.poll(() => staff.getByRole('tab', { name: '工作信息' }).first().getAttribute('aria-selected')).toBe('true');
    await shot(staff, 'applicant-11-staff-detail-work', { fullPage: false });
  });

  it('办理入职 adds the applicant to the roster', async () => {
    await staff.getByRole('button', { name: '办理入职' }).click();
    const dialog = staff.getByRole('dialog');
    await dialog.getByRole('textbox', { name: '入职日期' }).fill('2026-12-15');
    const joined = pending(staff.waitForResponse((r) => new URL(r.url()).pathname === '/api/staffjlk/staffJoin'));
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await joined).status()).toBe(201);
    await expect.poll(() => staff.getByRole('button', { name: '办理入职' }).count()).toBe(0);
    const roster = (await api(product, adminToken, 'GET', `/api/staff?staffunId=${staffunId}`)).json<AnswerPage>().content;
    expect(roster).toHaveLength(1);
    expect(roster[0]).toMatchObject({ name: '刘晓梅', mobile: MOBILE, sex: 0, entryDate: '2026-12-15', job: '销售顾问', status: 1 });
    expect((await api(product, adminToken, 'GET', `/api/staffun?id=${staffunId}`)).json<AnswerPage>().content[0].status).toBe(3);
  });

  it('staff add an education entry for the applicant on the generated 应聘人员教育信息 screen', async () => {
    await openFromMenu(staff, '应聘人员教育信息', 'api/staffunEducation');
    await staff.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = staff.getByRole('dialog');
    await dialog.getByRole('button', { name: '确认' }).click();
    await listNotice(staff, '应聘人员不能为空').waitFor();
    await chooseOption(staff, dialog.getByRole('combobox', { name: /^应聘人员/ }), '刘晓梅');
    await chooseOption(staff, dialog.getByRole('combobox', { name: /^学历/ }), '硕士');
    await dialog.getByRole('textbox', { name: /^毕业学院/ }).fill('河南大学');
    await dialog.getByRole('textbox', { name: /^所学专业/ }).fill('工商管理');
    await dialog.getByRole('textbox', { name: /^开始日期/ }).fill('2018-09-01');
    await dialog.getByRole('textbox', { name: /^毕业日期/ }).fill('2021-07-01');
    await dialog.getByRole('textbox', { name: /^证明人\s*\*?$/ }).fill('王导师');
    await dialog.getByRole('textbox', { name: /^证明人电话/ }).fill(MOBILE);
    let response = waitForCall(staff, 'POST', 'api/staffunEducation');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await response).status()).toBe(400);
    await listNotice(staff, '信息保存失败，毕业日期必须大于开始日期或证明人电话不能是自己本人').waitFor();
    await dialog.getByRole('textbox', { name: /^证明人电话/ }).fill('13600003333');
    response = waitForCall(staff, 'POST', 'api/staffunEducation');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await response).status()).toBe(201);
    await shot(staff, 'applicant-12-staff-education-list');
    const rows = (await api(product, adminToken, 'GET', `/api/staffunEducation?staffunId=${staffunId}`)).json<
      AnswerPage<{ school: string }>
    >().content;
    expect(rows.map((r) => r.school).sort()).toEqual(['河南大学', '郑州大学']);
  });
});
