/**
 * The password rule for every new password (change, reset): starts with a letter, 6-20
 * characters of letters, digits and . _ ! @ # $ % ^ & *, and not the current one. Setting a
 * password clears the default-password flag, restarts the password age, lifts a sign-in lock
 * and ends the user's sessions on every instance.
 */
import type { Db } from '../../types.ts';
import { badRequest } from '../../errors.ts';
import { messages } from '../../../shared/messages.ts';
import { isNewPassword } from '../../../shared/validators.ts';
import { nowText } from '../../db/index.ts';
import { checkPassword, hashPassword } from '../../auth/passwords.ts';
import { decryptPassword, type RsaKeys } from '../../auth/rsa.ts';

export const PASSWORD_MESSAGES = {
  sameAsOld: '新密码不能与旧密码相同',
  oldWrong: '修改失败，旧密码错误',
  undecryptable: '密码加密方式不正确，请刷新页面后重试',
  passwordWrong: '密码错误',
} as const;

/** The plain text of an RSA-encrypted password field; `emptyMessage` when it is missing. */
export function plainPassword(keys: RsaKeys, value: unknown, emptyMessage: string): string {
  if (typeof value !== 'string' || !value.trim()) throw badRequest(emptyMessage);
  const plain = decryptPassword(keys, value.trim());
  if (plain === null) throw badRequest(PASSWORD_MESSAGES.undecryptable);
  return plain;
}

/** Throws the rule's message when `plain` is not an acceptable new password. */
export function checkNewPasswordRule(plain: string): void {
  if (!plain) throw badRequest(messages.password.newRequired);
  if (!isNewPassword(plain)) throw badRequest(messages.password.newRule);
}

/** Checks the rule and that it differs from the stored hash, then stores it. */
export async function setNewPassword(db: Db, userId: number, plain: string, currentHash: string): Promise<void> {
  checkNewPasswordRule(plain);
  if (await checkPassword(plain, currentHash)) throw badRequest(PASSWORD_MESSAGES.sameAsOld);
  const now = nowText();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('sys_user')
      .set({
        password: await hashPassword(plain),
        is_def_password: 0,
        pwd_reset_time: now,
        update_time: now,
        login_fail_count: 0,
        login_fail_since: null,
        locked_until: null,
      })
      .where('id', '=', userId)
      .execute();
    // every session of the user ends: the new password is needed to sign in again
    await trx.deleteFrom('sys_session').where('user_id', '=', userId).execute();
  });
}
