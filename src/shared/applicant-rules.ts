/**
 * Rules of the applicant steps that join several fields, the same on the server (400 with the
 * message) and in the applicant pages. Messages are the specification's own text.
 */
import { parseIdCard } from './validators.ts';
import { plainText } from './text.ts';

export const EDUCATION_SAVE_FAILED = '信息保存失败，毕业日期必须大于开始日期或证明人电话不能是自己本人';
export const REFEREE_IS_SELF = '信息保存失败,证明人电话不能是自己本人';
/** work and training: the end must come after the start (the specification gives no text) */
export const END_BEFORE_START = '信息保存失败,结束日期必须大于开始日期';
export const ID_CARD_WRONG = '身份证号码不正确';
export const EDUCATION_SAVED = '教育信息保存成功';
export const REQUEST_SUCCEEDED = '请求成功';

/** Education levels (xl, edu) in the order the form offers them. */
export const EDUCATION_LEVELS: Array<{ value: number; label: string }> = [
  { value: 0, label: '初中' },
  { value: 99, label: '中专' },
  { value: 1, label: '高中' },
  { value: 2, label: '大专' },
  { value: 3, label: '本科' },
  { value: 4, label: '硕士' },
  { value: 5, label: '博士' },
];

/** Whether start (YYYY-MM-DD) is strictly earlier than end; false when either is missing. */
export function startsBeforeEnd(start: unknown, end: unknown): boolean {
  return typeof start === 'string' && typeof end === 'string' && start !== '' && end !== '' && start < end;
}

export function sameNumber(a: unknown, b: unknown): boolean {
  return (
    a !== undefined &&
    a !== null &&
    b !== undefined &&
    b !== null &&
    plainText(a).trim() !== '' &&
    plainText(a).trim() === plainText(b).trim()
  );
}

/** Education entry: start before end and a referee who is not the applicant (one combined message). */
export function educationProblem(record: Record<string, unknown>, applicantMobile: unknown): string | undefined {
  if (!startsBeforeEnd(record.startDate, record.endDate) || sameNumber(record.zmrPhone, applicantMobile)) return EDUCATION_SAVE_FAILED;
  return undefined;
}

/** Work entry: a referee who is not the applicant, then start before end. */
export function workProblem(record: Record<string, unknown>, applicantMobile: unknown): string | undefined {
  if (sameNumber(record.zmrPhone, applicantMobile)) return REFEREE_IS_SELF;
  if (!startsBeforeEnd(record.startDate, record.endDate)) return END_BEFORE_START;
  return undefined;
}

/** Training entry: start not after end (a one-day course starts and ends the same day). */
export function trainingProblem(record: Record<string, unknown>): string | undefined {
  const { startDate, endDate } = record;
  if (typeof startDate === 'string' && typeof endDate === 'string' && startDate > endDate) return END_BEFORE_START;
  return undefined;
}

/** What an ID number gives the registration form: birthday, sex (0 female, 1 male) and region code. */
export function idCardAutofill(card: string): { birthday: string; sex: 0 | 1; region: string } | null {
  return parseIdCard(card.trim());
}
