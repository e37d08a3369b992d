/**
 * Sending verification codes, and the password reset of the sign-in page (忘记密码):
 *   POST /api/code/resetEmail   {value | email}   code to a new e-mail address (signed in)
 *   GET  /api/sendEmailCode?email=                 the same, as a GET
 *   POST /api/code/resetPhone   {value | phone}   SMS code to a new phone number (signed in)
 *   GET  /api/sendMsg?phone=                       public: SMS code to a phone on file
 *   POST /api/userWeb/getMsg?mobile=               public: the same for the web user's flows (the
 *                                                  spec's POST with `mobile`): same checks, provider,
 *                                                  outbox, per-address and per-number limits
 *   GET  /api/findByPhone?phone=&code=             public: the account of the number (masked user
 *                                                  name), once the code sent to it is given
 *   POST /api/resetPassword     {phone, code, password (encrypted)}  public
 * The public routes are rate-limited per address; codes to one target at most once a minute.
 * None of them tells whether a number is on file before its code is given: a number that is not
 * gets the same answer and the same limits (its send slot is held with a code that is never
 * sent and that nothing matches), and every check that needs the account comes after the code.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import '../../decorations.ts';
import { badRequest } from '../../errors.ts';
import { maskName } from '../../../shared/masks.ts';
import { messages } from '../../../shared/messages.ts';
import type { RsaKeys } from '../../auth/rsa.ts';
import { setLogUser } from '../logs/identity.ts';
import { CODE_MESSAGES, type CodeService } from './codes.ts';
import { checkPassword } from '../../auth/passwords.ts';
import { checkNewPasswordRule, PASSWORD_MESSAGES, plainPassword, setNewPassword } from './password-policy.ts';
import { checkEmail, checkPhone, CODE_PURPOSE } from './user-center.ts';

export const RESET_MESSAGES = {
  phoneUnknown: '该手机号未绑定任何账号',
  accountDisabled: '账号未激活，请联系管理员',
} as const;

const fields = (request: FastifyRequest): Record<string, unknown> => ({
  ...((request.query && typeof request.query === 'object' ? request.query : {}) as Record<string, unknown>),
  ...((request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {}) as Record<string, unknown>),
});
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

export function registerCodeRoutes(app: FastifyInstance, deps: { keys: RsaKeys; codes: CodeService }): void {
  const { db } = app.database;
  const signedIn = { preHandler: app.authenticate, config: { rateLimit: { max: 10, timeWindow: 60_000 } } };
  const open = (max: number) => ({ config: { rateLimit: { max, timeWindow: 60_000 } } });

  const sendEmail = async (request: FastifyRequest) => {
    const f = fields(request);
    const email = text(f.value ?? f.email);
    checkEmail(email);
    await deps.codes.sendCode(email, CODE_PURPOSE.email);
    return { message: CODE_MESSAGES.sent };
  };
  app.post('/api/code/resetEmail', signedIn, sendEmail);
  app.get('/api/sendEmailCode', signedIn, sendEmail);

  app.post('/api/code/resetPhone', signedIn, async (request) => {
    const f = fields(request);
    const phone = text(f.value ?? f.phone);
    checkPhone(phone);
    await deps.codes.sendCode(phone, CODE_PURPOSE.phone);
    return { message: CODE_MESSAGES.sent };
  });

  /** The account of a number, or undefined; only asked once the number's code has been given (or to send one). */
  const userByPhone = (phone: string) =>
    db.selectFrom('sys_user').select(['id', 'username', 'password', 'enabled']).where('phone', '=', phone).executeTakeFirst();
  /** After a right code: the account (a held code never passes, so a number not on file stops before). */
  const accountOf = async (phone: string) => {
    const row = await userByPhone(phone);
    if (!row) throw badRequest(RESET_MESSAGES.phoneUnknown);
    return row;
  };
  /** A code to a number on file; a number that is not gets the same answer and limits, and no SMS (the send is off the request path, so its time and failure tell nothing). */
  const sendResetCode = async (phone: string) => {
    checkPhone(phone);
    if (await userByPhone(phone)) await deps.codes.sendCodeAside(phone, CODE_PURPOSE.password);
    else await deps.codes.holdCode(phone, CODE_PURPOSE.password);
    return { message: CODE_MESSAGES.sent };
  };

  app.get('/api/findByPhone', open(20), async (request) => {
    const f = fields(request);
    const phone = text(f.phone);
    checkPhone(phone);
    await deps.codes.peekCode(phone, CODE_PURPOSE.password, f.code);
    const row = await accountOf(phone);
    return { phone, username: maskName(String(row.username)) };
  });

  app.get('/api/sendMsg', open(10), async (request) => sendResetCode(text(fields(request).phone)));

  app.post('/api/userWeb/getMsg', open(10), async (request) => {
    const f = fields(request);
    return sendResetCode(text(f.mobile ?? f.phone ?? f.value));
  });

  app.post('/api/resetPassword', open(10), async (request) => {
    const f = fields(request);
    const phone = text(f.phone);
    checkPhone(phone);
    const password = plainPassword(deps.keys, f.password ?? f.newPass, messages.password.newRequired);
    // the rules first, so that a refused password does not use up the code
    checkNewPasswordRule(password);
    // the code before anything that needs the account; not used up until the last check passed
    await deps.codes.peekCode(phone, CODE_PURPOSE.password, f.code);
    const row = await accountOf(phone);
    setLogUser(request, String(row.username), Number(row.id));
    if (await checkPassword(password, String(row.password))) throw badRequest(PASSWORD_MESSAGES.sameAsOld);
    await deps.codes.requireCode(phone, CODE_PURPOSE.password, f.code);
    if (!row.enabled) throw badRequest(RESET_MESSAGES.accountDisabled);
    await setNewPassword(db, Number(row.id), password, String(row.password));
    return { message: messages.notice.passwordReset };
  });
}
