import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import RegisterPage from '../../src/web/applicant/RegisterPage.tsx';
import EducationPage from '../../src/web/applicant/EducationPage.tsx';
import { idCardCheckDigit } from '../../src/shared/validators.ts';
import { mockFetch } from './fetchMock.ts';

const POSTINGS = {
  content: [{ id: 7, job: '销售顾问', money: '6000元', address: '郑州', jobNum: 2, jobZz: 'a', jobYq: 'b' }],
  totalElements: 1,
};
const first17 = '41010519960815224';
const CARD = first17 + idCardCheckDigit(first17);

describe('registration page', () => {
  it('fills birthday, sex and household region from a valid ID number and refuses a wrong check digit', async () => {
    mockFetch({ 'GET /api/staffunZp/public': { body: POSTINGS } });
    render(<RegisterPage query={new URLSearchParams('zpId=7')} />);
    const card = screen.getByRole('textbox', { name: /身份证号码/ });
    fireEvent.change(card, { target: { value: CARD.slice(0, 17) + (CARD[17] === '1' ? '2' : '1') } });
    expect(await screen.findByText('身份证号码不正确')).toBeTruthy();
    fireEvent.change(card, { target: { value: CARD } });
    expect(screen.queryByText('身份证号码不正确')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>(/出生日期/).value).toBe('1996-08-15');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: '女' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /户籍所在地/ }).value).toBe('河南省/郑州市/金水区');
  });

  it('an empty submit shows the first message and sends nothing', async () => {
    const { calls } = mockFetch({ 'GET /api/staffunZp/public': { body: POSTINGS } });
    render(<RegisterPage query={new URLSearchParams('zpId=7')} />);
    // the postings for the 应聘岗位 select, and the posting the link names (is it still open?)
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/staffunZp/public')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: '下一步' }));
    expect(within(await screen.findByRole('alert')).getByText('应聘渠道不能为空')).toBeTruthy();
    expect(screen.getAllByText('请输入邮箱地址').length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

describe('education step', { timeout: 60000 }, () => {
  it('without the applicant token it says the registration has ended', () => {
    mockFetch({});
    render(<EducationPage query={new URLSearchParams('staffunId=3&phoneNum=13912345678')} />);
    expect(screen.getByText('登记信息已失效，请重新填写应聘人员信息登记表')).toBeTruthy();
    expect(screen.getByRole('link', { name: '重新登记' }).getAttribute('href')).toBe('#/staffun');
  });

  it('loads the entries with the applicant token and checks the referee phone before sending', async () => {
    localStorage.setItem('applicantToken', 'ap.token');
    const { calls } = mockFetch({
      'GET /api/staffunEducation': {
        body: {
          content: [
            {
              id: 1,
              xl: 3,
              school: '郑州大学',
              specialty: '营销',
              startDate: '2014-09-01',
              endDate: '2018-07-01',
              zmr: '张',
              zmrPhone: '13800001111',
              staffunId: 3,
            },
          ],
          totalElements: 1,
        },
      },
      'GET /api/staffunPx': { body: { content: [], totalElements: 0 } },
      'GET /api/staffunWork': { body: { content: [], totalElements: 0 } },
    });
    render(<EducationPage query={new URLSearchParams('staffunId=3&phoneNum=13912345678')} />);
    expect(await screen.findByText('郑州大学（本科）')).toBeTruthy();
    const eduCall = calls.find((c) => c.url.pathname === '/api/staffunEducation')!;
    expect(eduCall.headers.Authorization).toBe('Bearer ap.token');
    expect(eduCall.url.searchParams.get('staffunId')).toBe('3');
    const section = document.querySelector('[data-entity="staffunEducation"]') as HTMLElement;
    const box = (name: RegExp) => within(section).getByRole('textbox', { name });
    fireEvent.change(box(/毕业学院/), { target: { value: '河南大学' } });
    fireEvent.change(box(/所学专业/), { target: { value: '会计' } });
    // the date pickers arrive lazily (until then read-only boxes stand in)
    await waitFor(() => expect(within(section).getByRole<HTMLInputElement>('textbox', { name: /毕业日期/ }).readOnly).toBe(false), {
      timeout: 15000,
    });
    fireEvent.change(within(section).getByRole('textbox', { name: /开始日期/ }), { target: { value: '2010-09-01' } });
    fireEvent.change(within(section).getByRole('textbox', { name: /毕业日期/ }), { target: { value: '2014-07-01' } });
    fireEvent.change(box(/^证明人\s*\*?$/), { target: { value: '李' } });
    fireEvent.change(box(/证明人电话/), { target: { value: '13912345678' } });
    fireEvent.mouseDown(within(section).getByRole('combobox', { name: /学历/ }));
    fireEvent.click(await screen.findByRole('option', { name: '本科' }));
    fireEvent.click(within(section).getByRole('button', { name: '保存教育信息' }));
    expect(await screen.findByText('信息保存失败，毕业日期必须大于开始日期或证明人电话不能是自己本人')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});
