/**
 * Applicants who come back (any device, any browser): the ID number and mobile given at
 * registration plus an SMS code (the account area's verification codes: provider / outbox, 5
 * minutes, one send a minute, ten a day, five tries) give a new applicant token for the same
 * record. A registration never makes a second record for an ID number: POST /api/staffun with a
 * known one answers 409 {resume: true} and the page asks for the code instead.
 *   POST /api/staffun/resume/sendCode  public, rate-limited  {card, mobile}
 *   POST /api/staffun/resume           public, rate-limited  {card, mobile, code} -> {id, token, mobile}
 * A submitted application (status 2 已提交 or 3 已入职) cannot be changed: resuming it answers 400
 * APPLICATION_SUBMITTED and gives no token.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { parseIdCard } from '../../../shared/validators.ts';
import { ID_CARD_WRONG } from '../../../shared/applicant-rules.ts';
import { badRequest } from '../../errors.ts';
import type { Dialect, Db } from '../../types.ts';
import { CODE_MESSAGES } from '../account/codes.ts';
import type { ApplicantTokens } from './tokens.ts';

export const RESUME_MESSAGES = {
  /** POST /api/staffun with an ID number already registered */
  registered: '该身份证号码已登记，请输入手机验证码继续填写',
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

/** The applicant registered under an ID number (the newest when an older start left two). */
export async function applicantByCard(
  db: Db,
  table: string,
  card: string,
): Promise<{ id: number; mobile: string; status: number } | undefined> {
  const row = await db
    .selectFrom(table)
    .select(['id', 'mobile', 'status'])
    .where('card', '=', card)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: Number(row.id), mobile: String(row.mobile ?? ''), status: Number(row.status) } : undefined;
}

/** Serialises registrations of one ID number across instances (PostgreSQL; SQLite has one writer). */
export async function lockCard(trx: Db, dialect: Dialect, card: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(72310515, hashtext(${card}))`.execute(trx);
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
    const applicant = await applicantByCard(db, spec.table, card);
    // the same answer whether or not the pair is on file: the code only goes to the registered mobile
    if (applicant && applicant.mobile === mobile) await app.verificationCodes.sendCode(mobile, RESUME_CODE_PURPOSE);
    return { message: CODE_MESSAGES.sent };
  });

  app.post(base, { config: { rateLimit: RESUME_LIMIT } }, async (request) => {
    const { card, mobile } = identityOf(request.body);
    await app.verificationCodes.requireCode(mobile, RESUME_CODE_PURPOSE, (request.body as Record<string, unknown>).code);
    const applicant = await applicantByCard(db, spec.table, card);
    if (!applicant || applicant.mobile !== mobile) throw badRequest(RESUME_MESSAGES.mismatch);
    // 已提交 (2) and 已入职 (3): the application is final
    if (applicant.status >= 2) throw badRequest(RESUME_MESSAGES.submitted);
    const token = await tokens.issue(db, applicant.id);
    return { id: applicant.id, token, mobile };
  });
}
