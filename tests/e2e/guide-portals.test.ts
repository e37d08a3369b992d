/**
 * The user guide's pages for the two portals read as their readers would: 经销商.md signed in as
 * its demo account at the address it names, 应聘者.md on a phone without signing in. Each `##`
 * section of a page has a walk below that does what the section tells the reader (opens the
 * screen it names, presses the buttons it quotes, leaves a code empty or wrong) and gathers what
 * the product shows; every 「label」 the section quotes must then be among it (a screen text, a
 * button, a dialog, a message that an action brought), and a label the page says the product
 * does not have (没有「X」) must not be. A label found nowhere fails the test with the page, the
 * section and the label; the few quoted values that are not on the portal's screens are listed
 * in ELSEWHERE, each checked where it is. The applicant page's list of required fields is read
 * too: each field it names is marked required on the form and shows its message after an empty
 * 「下一步」; the ones it leaves out are neither. A section without a walk fails, so a new section
 * of either page needs one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { resourceByName } from '../../src/generated/resources.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { DEMO_CUSTOMER_MOBILE, DEMO_DEALERS } from '../../src/server/modules/dealer/demo.ts';
import { DEMO_MEMBERS } from '../../src/server/modules/dealer/members.ts';
import { demoIdCard } from '../../src/server/modules/demo/records.ts';
import { ADMIN, launchBrowser, newPage, pending, shotOnFailure, startProduct, submitId, type Product } from './support.ts';
import { loginAs } from '../server/auth-helpers.ts';
import { demoAccounts, guideSections, guideText, sidebarTitles, textsOf, type GuideSection } from './guide-reader.ts';

/** Quoted values of the portal pages that are not on the portal's own screens: where each is checked instead. */
const ELSEWHERE: Record<string, string> = {
  经销商公司: "a screen of the staff console (管理后台) where the admin sets a dealer's password: checked in the admin's sidebar",
};

/** How long an action is given to show its outcome (a dialog, a message, a field's error). */
const WAIT = 10_000;

let product: Product;
let browser: Browser;

/** What one section's walk has met: the texts the product showed, and where it is in the guide. */
class Walk {
  seen = '';
  /** what the walk itself found wrong (a field the page lists that the form does not require ...) */
  wrong: string[] = [];
  constructor(
    readonly page: Page,
    readonly file: string,
    readonly section: GuideSection,
  ) {}

  get where(): string {
    return `${this.file} §${this.section.heading} (line ${this.section.line})`;
  }

  /** Adds what the page shows now. */
  async look(): Promise<void> {
    this.seen += `\n${await textsOf(this.page)}`;
  }

  /**
   * Presses the button or link the section quotes (so the walk follows the page's words), looking
   * at the screen before and after: fails with the section and the label when the screen has none
   * of that name.
   */
  async press(label: string, scope: Page | Locator = this.page): Promise<void> {
    if (!this.section.labels.includes(label))
      throw new Error(`${this.where}: the walk presses 「${label}」, which the section does not quote`);
    const target = scope
      .getByRole('button', { name: label, exact: true })
      .or(scope.getByRole('link', { name: label, exact: true }))
      .first();
    await target.waitFor({ timeout: WAIT }).catch(() => {
      throw new Error(`${this.where}: 「${label}」 is not a button or link on the screen`);
    });
    await this.look();
    await target.click();
    await this.look();
  }

  /** The labels the section quotes that the walk did not meet, and those the page says are absent that it did. */
  problems(): string[] {
    const out = this.wrong.map((p) => `${this.where}: ${p}`);
    for (const l of this.section.labels)
      if (!(l in ELSEWHERE) && !this.seen.includes(l)) out.push(`${this.where}: 「${l}」 is not on the screen or in what its actions open`);
    for (const l of this.section.absent)
      if (this.seen.includes(l)) out.push(`${this.where}: the page says there is no 「${l}」, but the screen shows it`);
    return out;
  }
}

type WalkStep = (w: Walk) => Promise<void>;

/** Walks the page's sections in order with the walks given by heading; answers every problem found. */
async function follow(page: Page, file: string, walks: Record<string, WalkStep>): Promise<string[]> {
  const problems: string[] = [];
  for (const section of guideSections(file)) {
    const walk = new Walk(page, file, section);
    const step = walks[section.heading];
    if (!step) {
      problems.push(`${walk.where}: no walk reads this section (add one to guide-portals.test.ts)`);
      continue;
    }
    await step(walk);
    problems.push(...walk.problems());
  }
  for (const heading of Object.keys(walks))
    if (!guideSections(file).some((s) => s.heading === heading)) problems.push(`${file}: the walk of §${heading} has no such section`);
  return problems;
}

/** The SMS code last sent to a mobile (the development outbox). */
async function codeSentTo(mobile: string): Promise<string> {
  await product.app.verificationCodes.settled();
  const code = /(\d{6})/.exec((await latestOutbox(product.app.database.db, mobile))?.content ?? '')?.[1];
  if (!code) throw new Error(`no code was sent to ${mobile}`);
  return code;
}

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('the user guide of the portals', () => {
  it('names sections and labels on both pages (the reading below is not empty)', () => {
    for (const file of ['经销商.md', '应聘者.md']) expect(guideSections(file).length, file).toBeGreaterThan(2);
    expect(guideSections('经销商.md').reduce((n, s) => n + s.labels.length, 0)).toBeGreaterThan(15);
    expect(demoAccounts(guideText('经销商.md'))?.usernames).toEqual(DEMO_DEALERS.map((d) => d.username));
  });

  it('经销商.md: the screens it names elsewhere are in the staff console', async () => {
    const titles = await sidebarTitles(product, await loginAs(product.app, ADMIN.username, ADMIN.password));
    for (const label of Object.keys(ELSEWHERE)) expect(titles.has(label), `「${label}」 in the admin's sidebar`).toBe(true);
  });
});

describe('经销商.md, followed as its demo account', () => {
  const FILE = '经销商.md';
  const account = demoAccounts(guideText(FILE));
  /** the demo customer of the account (提交用车需求 opens for a customer who follows the official account) */
  const customer = DEMO_MEMBERS.find((m) => m.mobile === DEMO_CUSTOMER_MOBILE)!;
  /** a member who is not yet a customer, added in 用车客户; and a mobile no member has */
  const NEW_MEMBER = DEMO_MEMBERS.find((m) => m.mobile !== DEMO_CUSTOMER_MOBILE && m.subscribe === 1)!;
  const NOT_A_MEMBER = '13800000077';

  it('every section shows every label it quotes, and its messages after the actions it describes', { timeout: 180_000 }, async (ctx) => {
    const page = await newPage(browser);
    page.setDefaultTimeout(WAIT);
    const notice = page.getByTestId('dealer-notice').last();
    const noticeText = async () => ((await notice.isVisible()) ? await notice.innerText() : '');
    /** waits for a notice other than the one shown before the action */
    const newNotice = async (before: string) => {
      await expect
        .poll(async () => ((t) => t !== '' && t !== before)(await noticeText()), { timeout: WAIT, message: 'a notice after the action' })
        .toBe(true);
    };
    const sidebar = page.getByTestId('dealer-sidebar');
    const openScreen = async (w: Walk) => {
      const item = sidebar.getByRole('button', { name: w.section.screen, exact: true });
      await item.waitFor({ timeout: WAIT }).catch(() => {
        throw new Error(`${w.where}: 左侧「${w.section.screen}」 is not in the dealer portal's sidebar`);
      });
      await item.click();
    };
    try {
      const problems = await follow(page, FILE, {
        登录: async (w) => {
          await page.goto(`${product.url}${w.section.path}`);
          await page.getByTestId('dealer-login').waitFor();
          await w.look();
          await page.getByLabel('账号').fill(account!.usernames[0]);
          await page.getByLabel('密码', { exact: true }).fill(account!.password);
          const list = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/getDbcUserInfos'));
          await w.press('登 录');
          expect((await list).status()).toBe(200);
          await page.getByTestId('customer-list').waitFor();
          await w.look();
          // the personal centre in the header: its menu
          await w.press('个人中心');
          await page.getByRole('menu').waitFor();
          await w.look();
          await page.keyboard.press('Escape');
          await page.getByRole('menu').waitFor({ state: 'detached' });
        },
        用车客户: async (w) => {
          await openScreen(w);
          const rows = page
            .getByTestId('customer-list')
            .locator('tbody tr')
            .filter({ has: page.locator('button') });
          await expect
            .poll(() => rows.count(), { timeout: WAIT, message: `${w.where}: the demo data has no customer for ${account!.usernames[0]}` })
            .toBeGreaterThan(0);
          await w.look();
          // 新增: a member's mobile; 确定 with no code, then a wrong code, then the code the customer received
          await w.press('新增');
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel('手机号').fill(NEW_MEMBER.mobile);
          await w.press('确定', dialog);
          await dialog.locator('.MuiFormHelperText-root.Mui-error').first().waitFor();
          await w.look();
          await w.press('发送验证码', dialog);
          await dialog.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
          const code = await codeSentTo(NEW_MEMBER.mobile);
          await dialog.getByLabel('验证码').fill(code === '000000' ? '111111' : '000000');
          let before = await noticeText();
          const refused = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/submitDbcUserInfo'));
          await w.press('确定', dialog);
          expect((await refused).status()).toBe(400);
          await newNotice(before);
          await w.look();
          await dialog.getByLabel('验证码').fill(code);
          await w.press('确定', dialog);
          await expect.poll(() => dialog.getByLabel('姓名').inputValue()).toBe(NEW_MEMBER.surname);
          await w.look();
          await w.press('关闭', dialog);
          await dialog.waitFor({ state: 'detached' });
          await page.getByRole('cell', { name: NEW_MEMBER.surname }).waitFor();
          // a mobile that is no member's: the message asking the customer to register first
          await w.press('新增');
          await dialog.getByLabel('手机号').fill(NOT_A_MEMBER);
          await w.press('发送验证码', dialog);
          await dialog.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
          await dialog.getByLabel('验证码').fill(await codeSentTo(NOT_A_MEMBER));
          before = await noticeText();
          await w.press('确定', dialog);
          await newNotice(before);
          await w.look();
          await dialog.getByRole('button', { name: '取消' }).click();
          await dialog.waitFor({ state: 'detached' });
        },
        提交用车需求: async (w) => {
          const row = page.getByRole('row').filter({ hasText: customer.surname });
          await w.press('提交用车需求', row);
          const dialog = page.getByRole('dialog');
          await dialog.getByTestId('demand-ocr').waitFor();
          await w.look();
          await dialog.getByRole('button', { name: '取消' }).click();
          await dialog.waitFor({ state: 'detached' });
        },
        用车需求: async (w) => {
          const list = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/getDbcInfos'));
          await openScreen(w);
          expect((await list).status()).toBe(200);
          await page.getByTestId('request-list').waitFor();
          // an approved demand (用车申请已通过): its view offers the contract; it can no longer be edited
          const approved = page.getByTestId('request-list').locator('tbody tr[data-status="2"]').first();
          await approved.waitFor({ timeout: WAIT }).catch(() => {
            throw new Error(`${w.where}: the demo data has no approved demand for ${account!.usernames[0]}`);
          });
          await w.look();
          expect(await approved.getByRole('button', { name: '编辑' }).isDisabled(), `${w.where}: 编辑 of an approved demand`).toBe(true);
          await w.press('查看', approved);
          const dialog = page.getByRole('dialog');
          await dialog.getByTestId('request-view').waitFor();
          await w.look();
          const download = pending(page.waitForEvent('download'));
          await w.press('下载合同', dialog);
          expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
          await dialog.getByRole('button', { name: '关闭' }).click();
          await dialog.waitFor({ state: 'detached' });
        },
      });
      expect(problems, problems.join('\n')).toEqual([]);
    } catch (err) {
      await shotOnFailure(page, `guide-portals-dealer-${ctx.task.name}`);
      throw err;
    } finally {
      await page.context().close();
    }
  });
});

describe('应聘者.md, followed on a phone without signing in', () => {
  const FILE = '应聘者.md';
  const PHONE = { width: 390, height: 844 };

  /** The form's fields as a reader sees them: each label, whether it is marked required, its error and its shown value. */
  const fieldsOf = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('main .MuiFormControl-root')).map((control) => {
        const label = control.querySelector('.MuiFormLabel-root');
        const own = label
          ? Array.from(label.childNodes).filter((n) => !(n instanceof Element && n.classList.contains('MuiFormLabel-asterisk')))
          : [];
        return {
          label: own
            .map((n) => n.textContent ?? '')
            .join('')
            .trim(),
          required: !!control.querySelector('.MuiFormLabel-asterisk'),
          error: control.querySelector('.MuiFormHelperText-root.Mui-error')?.textContent?.trim() ?? '',
          value: control.querySelector<HTMLElement>('[role="combobox"]')?.innerText.trim() ?? '',
        };
      }),
    );
  type Field = Awaited<ReturnType<typeof fieldsOf>>[number];
  /** a field the guide names: its label, or its label with a unit after it (工作年限 → 工作年限（年）) */
  const named = (fields: Field[], name: string) => fields.find((f) => f.label === name || f.label.startsWith(`${name}（`));

  /** Registers an applicant for a posting as the form would (the applicant token and id), without education entries. */
  async function registerApplicant(zpId: number): Promise<{ id: number; token: string; mobile: string }> {
    const birthday = '1995-05-20';
    const mobile = '13637100099';
    const res = await product.app.inject({
      method: 'POST',
      url: `/${resourceByName.applicant.path}`,
      headers: { submit_id: submitId() },
      payload: {
        staffunZpId: zpId,
        ypqd: '招聘网站',
        ypmx: '招聘网站投递',
        name: '赵一鸣',
        mobile,
        card: demoIdCard(birthday, 1, 77),
        sex: 1,
        birthday,
        email: 'zhaoyiming@example.com',
        cardProvince: '410000',
        cardCity: '410100',
        cardCounty: '410102',
        cardAddress: '河南省郑州市中原区建设路1号',
        nowProvince: '410000',
        nowCity: '410100',
        nowCounty: '410105',
        nowAddress: '郑州市金水区花园路2号',
        edu: 3,
        work: 3,
        syMoney: 5000,
        zsMoney: 6000,
        yjdg: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
        outWork: 1,
      },
    });
    if (res.statusCode !== 201) throw new Error(`registration refused: ${res.statusCode} ${res.body}`);
    return { ...res.json<{ id: number; token: string }>(), mobile };
  }

  it('every section shows every label it quotes; the required fields are the ones it lists', { timeout: 180_000 }, async (ctx) => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'zh-CN', isMobile: true, hasTouch: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    const alert = page.getByRole('alert').last();
    let zpId = 0;
    try {
      const problems = await follow(page, FILE, {
        '1. 查看招聘信息': async (w) => {
          await page.goto(`${product.url}${w.section.path}`);
          const posting = page.locator('a[href^="#/staffun/view"]').first();
          await posting.waitFor();
          await w.look();
          await posting.click();
          await page.locator('main h2').waitFor();
          await w.look();
        },
        '2. 填写登记表': async (w) => {
          const job = await page.locator('main h2').innerText();
          await w.press('我要应聘');
          await page.locator('input[name="ypmx"]').waitFor();
          zpId = Number(new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('zpId'));
          // the posting is chosen already: its name shows in 应聘岗位
          await expect.poll(async () => (await fieldsOf(page)).find((f) => f.label === '应聘岗位')?.value ?? '').toContain(job);
          await w.look();
          const listed = /除((?:「[^」]+」和?)+)外，每一项都必须填写：([^。]+)。/.exec(w.section.text);
          if (!listed) throw new Error(`${w.where}: the reading expects 除「…」外，每一项都必须填写：…。 (the fields the form requires)`);
          const optional = [...listed[1].matchAll(/「([^」]+)」/g)].map((m) => m[1]);
          const required = listed[2].split('、').map((s) => s.trim());
          // 下一步 on the empty form: a message at the top of the page and one under each missing field
          await w.press('下一步');
          await alert.waitFor();
          const box = await alert.boundingBox();
          expect(box && box.y < PHONE.height / 4, `${w.where}: the message is at the top of the page`).toBe(true);
          await w.look();
          const fields = await fieldsOf(page);
          const wrong = w.wrong;
          for (const name of required) {
            const f = named(fields, name);
            if (!f) wrong.push(`「${name}」 is not a field of the form`);
            else if (!f.required) wrong.push(`「${name}」 is not marked required`);
            else if (!f.error && !(name === '应聘岗位' && f.value.includes(job)))
              wrong.push(`「${name}」 shows no message after an empty 下一步`);
          }
          for (const name of optional) {
            const f = named(fields, name);
            if (!f) wrong.push(`「${name}」 is not a field of the form`);
            else if (f.required || f.error) wrong.push(`「${name}」 is required on the form, but the page says it is not`);
          }
          const spare = fields.filter((f) => f.required && ![...required, ...optional].some((n) => named([f], n)));
          for (const f of spare) wrong.push(`「${f.label}」 is required on the form, but the page does not list it`);
        },
        '3. 教育、培训和工作经历': async (w) => {
          // a registration without education entries (the form's own submit is covered by applicant.test.ts)
          const applicant = await registerApplicant(zpId);
          await page.evaluate((token) => localStorage.setItem('applicantToken', token), applicant.token);
          await page.goto(`${product.url}/#/staffun/education?staffunId=${applicant.id}&phoneNum=${applicant.mobile}`);
          await page.locator('[data-entity="staffunEducation"]').waitFor();
          await w.look();
          const refused = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/staffun/staffJoin'));
          await w.press('确认填写完毕');
          expect((await refused).status()).toBe(400);
          await alert.waitFor();
          await w.look();
          // one education entry, then the registration is finished
          const entry = await product.app.inject({
            method: 'POST',
            url: `/${resourceByName.staffunEducation.path}`,
            headers: { authorization: `Bearer ${applicant.token}`, submit_id: submitId() },
            payload: {
              staffunId: applicant.id,
              xl: 3,
              school: '郑州大学',
              specialty: '市场营销',
              startDate: '2013-09-01',
              endDate: '2017-06-30',
              zmr: '王老师',
              zmrPhone: '13712340009',
            },
          });
          expect(entry.statusCode, entry.body).toBe(201);
          await w.press('确认填写完毕');
          await page.waitForURL((u) => u.hash.startsWith('#/staffun/success'));
          await page.locator('main h2').waitFor();
          await w.look();
        },
        中途离开后继续填写: async (w) => {
          // a demo applicant who stopped after the registration (填写中), with an education entry
          const db = product.app.database.db;
          const stopped = await db
            .selectFrom(resourceByName.applicant.table)
            .select(['id', 'card', 'mobile'])
            .where('status', '=', 1)
            .orderBy('id')
            .executeTakeFirst();
          if (!stopped) throw new Error(`${w.where}: the demo data has no applicant who stopped halfway (填写中)`);
          await page.goto(`${product.url}/#/staffun?zpId=${zpId}`);
          await page.locator('input[name="ypmx"]').waitFor();
          await w.look();
          await w.press('已登记过？继续填写');
          const form = page.getByRole('form', { name: '继续填写' });
          await form.waitFor();
          await w.look();
          await form.getByRole('textbox', { name: '身份证号码' }).fill(String(stopped.card));
          await form.getByRole('textbox', { name: '手机号码' }).fill(String(stopped.mobile));
          await w.press('获取验证码', form);
          await form.getByRole('button', { name: /秒后重新获取$/ }).waitFor();
          await form.getByRole('textbox', { name: '验证码' }).fill(await codeSentTo(String(stopped.mobile)));
          await form.getByRole('button', { name: '继续填写', exact: true }).click();
          // back where it stopped: its own education step, with the entry it had saved
          await page.waitForURL((u) => u.hash.startsWith(`#/staffun/education?staffunId=${String(stopped.id)}&`));
          await page.getByTestId('staffunEducation-card').first().waitFor();
          await w.look();
        },
      });
      expect(problems, problems.join('\n')).toEqual([]);
    } catch (err) {
      await shotOnFailure(page, `guide-portals-applicant-${ctx.task.name}`);
      throw err;
    } finally {
      await context.close();
    }
  });
});
