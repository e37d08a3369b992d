import { describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import {
  EDUCATION_SAVE_FAILED,
  END_BEFORE_START,
  educationProblem,
  idCardAutofill,
  REFEREE_IS_SELF,
  trainingProblem,
  workProblem,
} from '../../src/shared/applicant-rules.ts';
import { hasNoSpecialCharacters, idCardCheckDigit } from '../../src/shared/validators.ts';

const REJECTED = [
  '`',
  '~',
  '!',
  '@',
  '#',
  '$',
  '^',
  '&',
  '*',
  '=',
  '|',
  '{',
  '}',
  "'",
  ':',
  ';',
  ',',
  '[',
  ']',
  '<',
  '>',
  '/',
  '?',
  '～',
  '！',
  '＠',
  '＃',
  '￥',
  '…',
  '＆',
  '＊',
  '＝',
  '｜',
  '｛',
  '｝',
  '【',
  '】',
  '‘',
  '’',
  '“',
  '”',
  '"',
  '：',
  '；',
  '，',
  '、',
  '《',
  '》',
  '／',
  '？',
  ' ',
  '\u3000',
];
const ALLOWED = ['郑州大学', 'Henan-University(2)', '张三.李四', '（有限公司）', '8000元', '市场营销_1'];

/** the text fields the spec puts under the special-character rule */
const SPECIAL_FIELDS: Record<string, string[]> = {
  staffunEducation: ['school', 'specialty', 'zmr'],
  staffunWork: ['company', 'job', 'money', 'cause', 'zmr', 'remark'],
};

describe('the special-character rule', () => {
  it('rejects exactly the set of the specification (shared validator)', () => {
    for (const c of REJECTED) expect(hasNoSpecialCharacters(`公司${c}名`), JSON.stringify(c)).toBe(false);
    for (const t of ALLOWED) expect(hasNoSpecialCharacters(t), t).toBe(true);
  });

  it('is the pattern of every text field that the schemas put under it, with its message', () => {
    for (const [entity, names] of Object.entries(SPECIAL_FIELDS)) {
      const spec = resourceByName[entity];
      const props = (spec.schema as { properties: Record<string, { pattern?: string }> }).properties;
      for (const name of names) {
        const pattern = props[name].pattern;
        expect(pattern, `${entity}.${name}`).toBeDefined();
        const re = new RegExp(pattern!, 'u');
        for (const c of REJECTED) expect(re.test(`公司${c}名`), `${entity}.${name} ${JSON.stringify(c)}`).toBe(false);
        for (const t of ALLOWED) expect(re.test(t), `${entity}.${name} ${t}`).toBe(true);
        expect(spec.fields.find((f) => f.name === name)!.messages.pattern).toBe('请认真填写,不支持特殊字符');
      }
    }
  });
});

describe('rules across fields of the applicant steps', () => {
  const edu = { startDate: '2014-09-01', endDate: '2018-07-01', zmrPhone: '13800001111' };
  it('education: start before end and a referee who is not the applicant, one combined message', () => {
    expect(educationProblem(edu, '13912345678')).toBeUndefined();
    expect(educationProblem(edu, '13800001111')).toBe(EDUCATION_SAVE_FAILED);
    expect(educationProblem({ ...edu, endDate: '2014-09-01' }, '13912345678')).toBe(EDUCATION_SAVE_FAILED);
    expect(educationProblem({ ...edu, endDate: '2013-01-01' }, '13912345678')).toBe(EDUCATION_SAVE_FAILED);
    expect(EDUCATION_SAVE_FAILED).toBe('信息保存失败，毕业日期必须大于开始日期或证明人电话不能是自己本人');
  });
  it('work: the referee first, then the dates', () => {
    expect(workProblem(edu, '13912345678')).toBeUndefined();
    expect(workProblem(edu, ' 13800001111 ')).toBe(REFEREE_IS_SELF);
    expect(REFEREE_IS_SELF).toBe('信息保存失败,证明人电话不能是自己本人');
    expect(workProblem({ ...edu, startDate: '2019-01-01' }, '13912345678')).toBe(END_BEFORE_START);
  });
  it('training: a one-day course is fine, an end before the start is not', () => {
    expect(trainingProblem({ startDate: '2019-03-01', endDate: '2019-03-01' })).toBeUndefined();
    expect(trainingProblem({ startDate: '2019-03-02', endDate: '2019-03-01' })).toBe(END_BEFORE_START);
  });
});

describe('ID number autofill (GB 11643)', () => {
  it('gives birthday, sex from the second-to-last digit and the region', () => {
    const female = '41010519960815224';
    expect(idCardAutofill(female + idCardCheckDigit(female))).toEqual({ birthday: '1996-08-15', sex: 0, region: '410105' });
    const male = '41010219950312123';
    expect(idCardAutofill(male + idCardCheckDigit(male))).toEqual({ birthday: '1995-03-12', sex: 1, region: '410102' });
    expect(idCardAutofill('410102950312123')).toEqual({ birthday: '1995-03-12', sex: 1, region: '410102' });
    expect(idCardAutofill('11010519491231002x')).toEqual({ birthday: '1949-12-31', sex: 0, region: '110105' });
  });
  it('refuses a wrong check digit, a wrong length and an impossible date', () => {
    const base = '41010219950312123';
    const wrong = idCardCheckDigit(base) === '1' ? '2' : '1';
    expect(idCardAutofill(base + wrong)).toBeNull();
    expect(idCardAutofill(base)).toBeNull();
    expect(idCardAutofill('410102950231123')).toBeNull();
  });
});
