/**
 * Applicants who come back (any device, any browser): the ID number and mobile given at
 * registration plus an SMS code (the account area's verification codes: provider / outbox, 5
 * minutes, one send a minute, ten a day, five tries) give a new applicant token for the same
 * record. Nothing here tells whether an ID number or a mobile is on file: sendCode answers and
 * limits alike for a pair on file and one that is not (a held code, never sent, for the latter),
 * and a registration is a new application whatever ID number it carries (see index.ts).
 *   POST /api/staffun/resume/sendCode  public, rate-limited  {card, mobile}
 *   POST /api/staffun/resume           public, rate-limited  {card, mobile, code} -> {id, token, mobile}
 * A submitted application (status 2 已提交 or 3 已入职) cannot be changed: resuming it answers 400
 * APPLICATION_SUBMITTED and gives no token.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { parseIdCard } from '../../../shared/validators.ts';
import { ID_CARD_WRONG } from '../../../shared/applicant-rules.ts';
import { badRequest } from '../../errors.ts';
import type { Db } from '../../types.ts';
import { CODE_MESSAGES } from '../account/codes.ts';
import type { ApplicantTokens } from './tokens.ts';

export const RESUME_MESSAGES = {
  mismatch: '身份证号码或手机号码与登记信息不一致',
  submitted: '您的应聘登记已提交，不能再修改',
  mobileWrong: '请输入正确的手机号码',
} as const;

export const RESUME_CODE_PURPOSE = 'applicantResume';
const RESUME_LIMIT = { max: 10, timeWindow: 60_000 };
const MOBILE = /^1[3-9]\d{9}$/;

/** The ID number as stored: trimmed, capital X. */
export function normalCard(value: unknown): string {
  return typeof value === 'string' ? value.trim().toUpperCase() : '';
}

/**
 * The application registered under an ID number and mobile (the newest when the person applied
 * more than once). Someone else's registration under the same ID number with another mobile
 * never stands in the way of the holder's own.
 */
export async function applicantByCard(
  db: Db,
  table: string,
  card: string,
  mobile: string,
): Promise<{ id: number; mobile: string; status: number } | undefined> {
  const row = await db
    .selectFrom(table)
    .select(['id', 'mobile', 'status'])
    .where('card', '=', card)
    .where('mobile', '=', mobile)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: Number(row.id), mobile: String(row.mobile ?? ''), status: Number(row.status) } : undefined;
}

function identityOf(body: unknown): { card: string; mobile: string } {
  const b = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const card = normalCard(b.card);
  const mobile = typeof b.mobile === 'string' ? b.mobile.trim() : '';
  if (!card || !parseIdCard(card)) throw badRequest(ID_CARD_WRONG);
  if (!MOBILE.test(mobile)) throw badRequest(RESUME_MESSAGES.mobileWrong);
  return { card, mobile };
}

export function registerResumeRoutes(app: FastifyInstance, spec: ResourceSpec, tokens: ApplicantTokens): void {
  const { db } = app.database;
  const base = `/${spec.path}/resume`;

  app.post(`${base}/sendCode`, { config: { rateLimit: RESUME_LIMIT } }, async (request) => {
    const { card, mobile } = identityOf(request.body);
    const applicant = await applicantByCard(db, spec.table, card, mobile);
    // the same answer and the same limits whether or not the pair is on file: the code only goes
    // to the registered mobile, sent off the request path (neither its time nor a failure shows);
    // a pair not on file holds the number's send slot as a send would
    if (applicant) await app.verificationCodes.sendCodeAside(mobile, RESUME_CODE_PURPOSE);
    else await app.verificationCodes.holdCode(mobile, RESUME_CODE_PURPOSE);
    return { message: CODE_MESSAGES.sent };
  });

  app.post(base, { config: { rateLimit: RESUME_LIMIT } }, async (request) => {
    const { card, mobile } = identityOf(request.body);
    await app.verificationCodes.requireCode(mobile, RESUME_CODE_PURPOSE, (request.body as Record<string, unknown>).code);
    const applicant = await applicantByCard(db, spec.table, card, mobile);
    if (!applicant) throw badRequest(RESUME_MESSAGES.mismatch);
    // 已提交 (2) and 已入职 (3): the application is final
    if (applicant.status >= 2) throw badRequest(RESUME_MESSAGES.submitted);
    const token = await tokens.issue(db, applicant.id);
    return { id: applicant.id, token, mobile };
  });
}
