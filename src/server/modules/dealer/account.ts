/**
 * The dealer's own account: change the password, bind or change the phone, each confirmed by an
 * SMS verification code.
 *   POST comp/dbcCompany/sendMessage   form data or JSON {mobile, type}: 2 password, 3 bind phone, 4 change phone,
 *                                      5 客户授权 (to a customer's mobile: consent to look up their membership)
 *                                      -> {Code: "OK"} once sent
 *   PUT  comp/dbcCompany/updatePass    {code, oldPass, newPass, confirmPass} (the code goes to the bound phone)
 *   PUT  comp/dbcCompany/updateDbcCompany  {mobile, code} bind (no phone yet) or change (code sent to the new phone)
 *   PUT  comp/dbcCompany/lockTime      {lockTime} minutes of inactivity before the portal locks (0 never, at most 999)
 * Codes are sent and checked by the SMS code service (app.dealerServices.sms): the account area's
 * verification codes (sms-codes.ts); without that area both answer 503 短信服务未配置.
 * A new password ends every session of the company.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { checkPassword, hashPassword } from '../../auth/passwords.ts';
import { isMobile } from '../../../shared/validators.ts';
import { DEALER_BASE, dealerAnswer } from './auth.ts';
import { lockTimeOf } from '../access/users.ts';
import { MOBILE_EMPTY, MOBILE_INVALID } from './customers.ts';
import type { DealerSessions } from './sessions.ts';
import { resourceByName } from '../../../generated/resources.ts';
import { PASSWORD_CHANGED, writeRevisions, type Changes } from '../../crud/history/revisions.ts';
import type { Db } from '../../types.ts';

export const SMS_TYPES = { password: 2, bindPhone: 3, changePhone: 4, customerConsent: 5 } as const;
export type SmsType = 2 | 3 | 4 | 5;
/** codes one dealer company may send per minute (all types together) */
export const SEND_PER_MINUTE = 10;
export const SMS_NOT_CONFIGURED = '短信服务未配置，暂时无法发送或校验验证码';

/** Sends and checks verification codes (valid 5 minutes) through the SMS provider. */
export interface SmsCodeService {
  send(mobile: string, type: SmsType): Promise<void>;
  /** true when the code is the live one for this mobile and type (and uses it up) */
  verify(mobile: string, type: SmsType, code: string): Promise<boolean>;
}

export const notConfiguredSms: SmsCodeService = {
  send() {
    return Promise.reject(new ApiError(503, SMS_NOT_CONFIGURED));
  },
  verify() {
    return Promise.reject(new ApiError(503, SMS_NOT_CONFIGURED));
  },
};

export const PASSWORD_MESSAGES = {
  oldEmpty: '请输入旧密码',
  newEmpty: '请输入新密码',
  length: '长度在 6 到 20 个字符',
  confirmEmpty: '请再次输入密码',
  mismatch: '两次输入的密码不一致',
  codeEmpty: '请输入验证码',
  codeWrong: '验证码错误或已过期',
  oldWrong: '旧密码错误',
  noPhone: '请先绑定手机号',
  samePhone: '新手机号不能与原手机号相同',
  phoneCodeEmpty: '验证码不能为空',
  phoneTaken: '该手机号已被其他经销商绑定',
} as const;

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Body fields from JSON or form data (multipart, the spec's sendMessage). */
async function fieldsOf(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (request.isMultipart()) {
    const out: Record<string, unknown> = {};
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        part.file.resume();
        throw badRequest('不支持上传文件');
      }
      out[part.fieldname] = part.value;
    }
    return out;
  }
  const b = request.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('请求内容必须是JSON对象');
  return b as Record<string, unknown>;
}

export function checkNewPassword(body: Record<string, unknown>): string {
  const oldPass = str(body.oldPass);
  const newPass = str(body.newPass);
  const confirm = str(body.confirmPass);
  if (!oldPass) throw badRequest(PASSWORD_MESSAGES.oldEmpty);
  if (!newPass) throw badRequest(PASSWORD_MESSAGES.newEmpty);
  const n = [...newPass].length;
  if (n < 6 || n > 20 || /\s/.test(newPass)) throw badRequest(PASSWORD_MESSAGES.length);
  if (!confirm) throw badRequest(PASSWORD_MESSAGES.confirmEmpty);
  if (confirm !== newPass) throw badRequest(PASSWORD_MESSAGES.mismatch);
  return newPass;
}

export function registerDealerAccountRoutes(app: FastifyInstance, sessions: DealerSessions, sms: () => SmsCodeService): void {
  const db = app.database.db;
  const pre = { preHandler: app.authenticateDealer };
  const mobileOf = (v: unknown) => {
    const t = str(v).trim();
    if (!t) throw badRequest(MOBILE_EMPTY);
    if (!isMobile(t)) throw badRequest(MOBILE_INVALID);
    return t;
  };
  /** The company's revision of the dealer's own change (by the dealer), in the change's transaction. */
  const ownRevision = (trx: Db, request: FastifyRequest, compId: number, changes: Changes) =>
    writeRevisions(trx, app.database.dialect, resourceByName.dbcCompany, { kind: 'dealer', name: request.dealer!.username.slice(0, 64) }, [
      { recordId: compId, action: 'update', changes },
    ]);

  const companyRow = (id: number) =>
    db
      .selectFrom('dbc_company')
      .select(['id', 'password', 'mobile'])
      .where('id', '=', id)
      .$castTo<{ id: number; password: string | null; mobile: string | null }>()
      .executeTakeFirstOrThrow();

  // 10 a minute per dealer company, from any address (the route is for signed-in dealers only)
  const perDealer = app.rateLimit({
    max: SEND_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `dealer:${request.dealer?.compId ?? request.ip}`,
  });
  const sendLimits = { preHandler: [app.authenticateDealer, perDealer] };
  app.post(`${DEALER_BASE}/sendMessage`, sendLimits, async (request) => {
    const body = await fieldsOf(request);
    const type = Number(body.type);
    if (type !== 2 && type !== 3 && type !== 4 && type !== 5) throw badRequest('验证码类型不正确');
    const own = await companyRow(request.dealer!.compId);
    // a password code goes to the bound phone only; a phone code to the number being bound
    let mobile: string;
    if (type === 2) {
      if (!own.mobile) throw badRequest(PASSWORD_MESSAGES.noPhone);
      mobile = String(own.mobile);
    } else {
      mobile = mobileOf(body.mobile);
    }
    await sms().send(mobile, type);
    return { Code: 'OK' };
  });

  app.put(`${DEALER_BASE}/updatePass`, pre, async (request) => {
    const body = await fieldsOf(request);
    const code = str(body.code).trim();
    const newPass = checkNewPassword(body);
    if (!code) throw badRequest(PASSWORD_MESSAGES.codeEmpty);
    const own = await companyRow(request.dealer!.compId);
    if (!own.mobile) throw badRequest(PASSWORD_MESSAGES.noPhone);
    if (!(await checkPassword(str(body.oldPass), own.password))) throw badRequest(PASSWORD_MESSAGES.oldWrong);
    if (!(await sms().verify(String(own.mobile), 2, code))) throw badRequest(PASSWORD_MESSAGES.codeWrong);
    const hash = await hashPassword(newPass);
    // the revision says that the password changed, never a value
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('dbc_company').set({ password: hash, pwd_reset_time: nowText() }).where('id', '=', Number(own.id)).execute();
      await ownRevision(trx, request, Number(own.id), PASSWORD_CHANGED);
    });
    await sessions.destroyCompany(Number(own.id));
    return {};
  });

  app.put(`${DEALER_BASE}/updateDbcCompany`, pre, async (request) => {
    const body = await fieldsOf(request);
    const mobile = mobileOf(body.mobile);
    const code = str(body.code).trim();
    if (!code) throw badRequest(PASSWORD_MESSAGES.phoneCodeEmpty);
    const d = request.dealer!;
    const own = await companyRow(d.compId);
    if (own.mobile && own.mobile === mobile) throw badRequest(PASSWORD_MESSAGES.samePhone);
    // the code first: only the holder of the number learns whether another dealer uses it
    const type: SmsType = own.mobile ? 4 : 3;
    if (!(await sms().verify(mobile, type, code))) throw badRequest(PASSWORD_MESSAGES.codeWrong);
    const taken = await db
      .selectFrom('dbc_company')
      .select('id')
      .where('mobile', '=', mobile)
      .where('id', '<>', d.compId)
      .executeTakeFirst();
    if (taken) throw badRequest(PASSWORD_MESSAGES.phoneTaken);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('dbc_company').set({ mobile }).where('id', '=', d.compId).execute();
      await ownRevision(trx, request, d.compId, { mobile: [own.mobile ?? null, mobile] });
    });
    return dealerAnswer({ ...d, mobile });
  });

  // 锁屏时间: the portal's idle lock, the same choices (0 never, 1-999 minutes) as the staff's own
  app.put(`${DEALER_BASE}/lockTime`, pre, async (request) => {
    const body = await fieldsOf(request);
    const lockTime = lockTimeOf(body);
    const d = request.dealer!;
    await db.updateTable('dbc_company').set({ lock_time: lockTime }).where('id', '=', d.compId).execute();
    return dealerAnswer({ ...d, lockTime });
  });
}
