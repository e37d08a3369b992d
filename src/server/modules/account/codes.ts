/**
 * Verification codes, the service other modules use:
 *   sendCode(target, purpose)        a phone number gets an SMS, an e-mail address a mail;
 *   verifyCode(target, purpose, code) true once for the right code, then never again.
 * Rules: 6 digits, valid CODE_TTL_MS (5 minutes), one send per target and purpose every
 * RESEND_MS (60 s) and at most MAX_SENDS_PER_DAY a day, MAX_ATTEMPTS wrong tries spoil the code. Codes live in a table (only a
 * hash of each), so every instance sees the same codes; the resend rule and the single use
 * are single statements, so two instances cannot both pass them.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../types.ts';
import { ApiError, badRequest } from '../../errors.ts';
import type { MailProvider } from '../../providers/mail.ts';
import type { SmsProvider } from '../../providers/sms.ts';

export const CODE_TTL_MS = 5 * 60_000;
export const RESEND_MS = 60_000;
export const MAX_ATTEMPTS = 5;
/** sends per target and purpose within DAY_MS (against SMS bombing of one number) */
export const MAX_SENDS_PER_DAY = 10;
export const DAY_MS = 86_400_000;

export const CODE_MESSAGES = {
  sent: '发送成功，验证码有效期5分钟',
  missing: '验证码不存在或已过期，请重新获取',
  wrong: '验证码错误',
  tooManyAttempts: '验证码错误次数过多，请重新获取',
  required: '验证码不能为空',
  sendFailed: '验证码发送失败，请稍后再试',
  tooSoon: (seconds: number) => `验证码已发送，请${seconds}秒后再试`,
  dailyLimit: '今日验证码发送次数已达上限，请明天再试',
} as const;

const PURPOSE = /^[A-Za-z0-9_:-]{1,32}$/;

export interface CodeService {
  sendCode(target: string, purpose: string): Promise<void>;
  /**
   * Everything sendCode does except the sending: the same resend and daily limits, the same
   * errors, and a stored code that no answer can match. A public route calls it where the
   * target is not on file, so that its answers (and its limits) are the same as for one that is.
   */
  holdCode(target: string, purpose: string): Promise<void>;
  /**
   * sendCode with the sending off the request path: the send slot is taken (the same limits and
   * errors) and the answer does not wait for the provider. A public route that calls holdCode for
   * a target not on file sends this way for one that is, so neither the provider's time nor its
   * failure tells the two apart. A failed send frees the slot, as sendCode does, and is logged.
   */
  sendCodeAside(target: string, purpose: string): Promise<void>;
  /** resolves once every send started by sendCodeAside has ended (shutdown; tests reading the outbox) */
  settled(): Promise<void>;
  verifyCode(target: string, purpose: string, code: string): Promise<boolean>;
  /** like verifyCode, but throws the Chinese message (400) instead of answering false */
  requireCode(target: string, purpose: string, code: unknown): Promise<void>;
  /**
   * requireCode without using the code up (a wrong code still counts as a try): for checks that
   * should come after the code but may still refuse, so that the same code can be sent again.
   */
  peekCode(target: string, purpose: string, code: unknown): Promise<void>;
}

const hashOf = (target: string, purpose: string, code: string) =>
  createHash('sha256').update(`${purpose}\n${target}\n${code}`).digest('hex');

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

type Outcome = 'ok' | 'missing' | 'wrong' | 'tooManyAttempts';

export function createCodeService(
  db: Db,
  providers: { sms: SmsProvider; mail: MailProvider },
  now: () => number = Date.now,
  onAsideFailure: (err: unknown) => void = () => {},
): CodeService {
  const aside = new Set<Promise<void>>();
  async function check(target: string, purpose: string, code: string, consume = true): Promise<Outcome> {
    if (!/^\d{6}$/.test(code) || !PURPOSE.test(purpose)) {
      // a malformed code is a wrong try as well (counts towards the attempts)
      code = '';
    }
    const t = now();
    const row = await db
      .selectFrom('sys_verify_code')
      .select(['code_hash', 'expires', 'attempts', 'used'])
      .where('target', '=', target)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || Boolean(row.used) || Number(row.expires) <= t) return 'missing';
    if (Number(row.attempts) >= MAX_ATTEMPTS) return 'tooManyAttempts';
    const given = Buffer.from(hashOf(target, purpose, code));
    const right = code !== '' && timingSafeEqual(given, Buffer.from(String(row.code_hash)));
    if (!right) {
      await db
        .updateTable('sys_verify_code')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('target', '=', target)
        .where('purpose', '=', purpose)
        .execute();
      return Number(row.attempts) + 1 >= MAX_ATTEMPTS ? 'tooManyAttempts' : 'wrong';
    }
    if (!consume) return 'ok';
    // single use: only one request can flip `used`
    const r = await db
      .updateTable('sys_verify_code')
      .set({ used: 1 })
      .where('target', '=', target)
      .where('purpose', '=', purpose)
      .where('code_hash', '=', String(row.code_hash))
      .where('used', '=', 0)
      .where('expires', '>', t)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? 'ok' : 'missing';
  }

  /** Takes the send slot of a target (resend and daily limits) and stores the code's hash; answers the time. */
  async function reserve(target: string, purpose: string, codeHash: string): Promise<number> {
    if (!PURPOSE.test(purpose)) throw new Error(`bad verification purpose: ${purpose}`);
    const t = now();
    const values = {
      target,
      purpose,
      code_hash: codeHash,
      sent_at: t,
      expires: t + CODE_TTL_MS,
      attempts: 0,
      used: 0,
      day_start: t,
      day_count: 1,
    };
    const dayOver = sql<boolean>`${sql.ref('sys_verify_code.day_start')} <= ${t - DAY_MS}`;
    const r = await db
      .insertInto('sys_verify_code')
      .values(values)
      .onConflict((oc) =>
        oc
          .columns(['target', 'purpose'])
          .doUpdateSet({
            code_hash: values.code_hash,
            sent_at: t,
            expires: values.expires,
            attempts: 0,
            used: 0,
            day_start: sql`case when ${dayOver} then ${t} else ${sql.ref('sys_verify_code.day_start')} end`,
            day_count: sql`case when ${dayOver} then 1 else ${sql.ref('sys_verify_code.day_count')} + 1 end`,
          })
          .where('sys_verify_code.sent_at', '<=', t - RESEND_MS)
          .where((eb) =>
            eb.or([eb('sys_verify_code.day_start', '<=', t - DAY_MS), eb('sys_verify_code.day_count', '<', MAX_SENDS_PER_DAY)]),
          ),
      )
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) {
      const row = await db
        .selectFrom('sys_verify_code')
        .select(['sent_at', 'day_start', 'day_count'])
        .where('target', '=', target)
        .where('purpose', '=', purpose)
        .executeTakeFirst();
      if (row && Number(row.day_count) >= MAX_SENDS_PER_DAY && Number(row.day_start) > t - DAY_MS && Number(row.sent_at) <= t - RESEND_MS) {
        throw new ApiError(429, CODE_MESSAGES.dailyLimit);
      }
      const wait = row ? Math.max(1, Math.ceil((Number(row.sent_at) + RESEND_MS - t) / 1000)) : 60;
      throw new ApiError(429, CODE_MESSAGES.tooSoon(wait));
    }
    return t;
  }

  async function insist(target: string, purpose: string, code: unknown, consume: boolean): Promise<void> {
    const text = typeof code === 'string' ? code.trim() : typeof code === 'number' ? String(code) : '';
    if (!text) throw badRequest(CODE_MESSAGES.required);
    const outcome = await check(target, purpose, text, consume);
    if (outcome !== 'ok') throw badRequest(CODE_MESSAGES[outcome]);
  }

  /** Sends a reserved code; a failure frees the slot (the user may ask again at once; the try still counts towards the daily cap). */
  async function deliver(target: string, purpose: string, code: string, t: number): Promise<void> {
    try {
      if (target.includes('@')) {
        await providers.mail.send(target, '验证码', `您的验证码为：${code}，有效期5分钟，请勿泄露给他人。`);
      } else {
        await providers.sms.sendCode(target, code);
      }
    } catch (err) {
      await db
        .updateTable('sys_verify_code')
        .set({ sent_at: 0, used: 1 })
        .where('target', '=', target)
        .where('purpose', '=', purpose)
        .where('sent_at', '=', t)
        .execute();
      const failure = new ApiError(502, CODE_MESSAGES.sendFailed);
      failure.cause = err;
      throw failure;
    }
  }

  return {
    async sendCode(target, purpose) {
      const code = newCode();
      const t = await reserve(target, purpose, hashOf(target, purpose, code));
      await deliver(target, purpose, code, t);
    },
    async sendCodeAside(target, purpose) {
      const code = newCode();
      const t = await reserve(target, purpose, hashOf(target, purpose, code));
      const sending: Promise<void> = deliver(target, purpose, code, t)
        .catch((err: unknown) => onAsideFailure(err))
        .finally(() => aside.delete(sending));
      aside.add(sending);
    },
    async settled() {
      while (aside.size > 0) await Promise.allSettled([...aside]);
    },
    async holdCode(target, purpose) {
      // random bytes in the shape of a hash: no code a caller can type matches them
      await reserve(target, purpose, randomBytes(32).toString('hex'));
    },
    async verifyCode(target, purpose, code) {
      return (await check(target, purpose, code)) === 'ok';
    },
    async requireCode(target, purpose, code) {
      await insist(target, purpose, code, true);
    },
    async peekCode(target, purpose, code) {
      await insist(target, purpose, code, false);
    },
  };
}

/**
 * Deletes codes that neither the resend rule nor the daily cap needs any more: expired, and
 * their day started more than DAY_MS ago. Answers how many.
 */
export async function purgeExpiredCodes(db: Db, now: number = Date.now()): Promise<number> {
  const r = await db
    .deleteFrom('sys_verify_code')
    .where('expires', '<', now - RESEND_MS)
    .where('day_start', '<=', now - DAY_MS)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
