/** Password reset calls (public), used by the sign-in pages' 忘记密码 and the console's reset by SMS: phone look-up, SMS code, reset with an encrypted password. */
import { request } from './http.ts';
import { encryptPassword } from './rsa.ts';
import { fetchPublicKey } from './session.ts';

/** The masked account name of a number, once the code sent to it is given (the code is not used up). */
export async function findByPhone(phone: string, code: string): Promise<{ phone: string; username: string }> {
  const { data } = await request<{ phone: string; username: string }>('/api/findByPhone', { query: { phone, code }, quiet: true });
  return data;
}

export async function sendResetCode(phone: string): Promise<string> {
  const { data } = await request<{ message?: string }>('/api/sendMsg', { query: { phone }, quiet: true });
  return data?.message ?? '发送成功，验证码有效期5分钟';
}

export async function resetPassword(phone: string, code: string, password: string): Promise<void> {
  const encrypted = await encryptPassword(password, await fetchPublicKey());
  await request('/api/resetPassword', { method: 'POST', body: { phone, code, password: encrypted }, quiet: true });
}
