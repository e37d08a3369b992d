/** Calls of the personal centre. Passwords are RSA-encrypted like at sign-in. */
import { request, type TransferProgress } from '../../../common/http.ts';
import { encryptPassword } from '../../../common/rsa.ts';
import { fetchPublicKey } from '../../../common/session.ts';

const quiet = { quiet: true } as const;

async function encrypt(plain: string): Promise<string> {
  return encryptPassword(plain, await fetchPublicKey());
}

export async function updatePassword(oldPass: string, newPass: string): Promise<void> {
  const publicKey = await fetchPublicKey();
  const [a, b] = await Promise.all([encryptPassword(oldPass, publicKey), encryptPassword(newPass, publicKey)]);
  await request('/api/users/updatePass/', { method: 'POST', body: { oldPass: a, newPass: b }, ...quiet });
}

export async function sendEmailCode(email: string): Promise<string> {
  const { data } = await request<{ message?: string }>('/api/code/resetEmail', { method: 'POST', body: { value: email }, ...quiet });
  return data?.message ?? '发送成功，验证码有效期5分钟';
}

export async function updateEmail(code: string, password: string, email: string): Promise<void> {
  await request(`/api/users/updateEmail/${encodeURIComponent(code)}`, {
    method: 'POST',
    body: { password: await encrypt(password), email },
    ...quiet,
  });
}

export async function sendPhoneCode(phone: string): Promise<string> {
  const { data } = await request<{ message?: string }>('/api/code/resetPhone', { method: 'POST', body: { value: phone }, ...quiet });
  return data?.message ?? '发送成功，验证码有效期5分钟';
}

export async function updatePhone(id: number, phone: string, code: string): Promise<void> {
  await request('/api/users/updateUserPhone', { method: 'PUT', body: { id, phone, code }, ...quiet });
}

export async function updateCenter(body: { id: number; nickName: string; sex: number; phone?: string | null }): Promise<void> {
  await request('/api/users/center', { method: 'PUT', body, ...quiet });
}

/** The idle-lock minutes are saved as an edit of the user (id, lockTime, orgId, deptId). */
export async function saveLockTime(body: { id: number; lockTime: number; orgId: number | null; deptId: number | null }): Promise<void> {
  await request('/api/users', { method: 'PUT', body, ...quiet });
}

export async function uploadAvatar(
  file: File,
  transfer: { onProgress?: (progress: TransferProgress) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const form = new FormData();
  form.append('avatar', file);
  const { data } = await request<{ avatar: string }>('/api/users/updateAvatar', { method: 'POST', body: form, ...quiet, ...transfer });
  return data.avatar;
}

export interface UserLog {
  id: number;
  description: string;
  requestIp: string;
  address: string;
  browser: string;
  time: number;
  logType: string;
  exceptionDetail: string;
  createTime: string;
}

export async function fetchUserLogs(page: number, size: number): Promise<{ content: UserLog[]; totalElements: number }> {
  const { data } = await request<{ content: UserLog[]; totalElements: number }>('/api/logs/user', {
    query: { page, size, sort: 'id,desc' },
    ...quiet,
  });
  return data;
}

/** Chip colour of a request time: <=300 ms success, <=1000 default, <=3000 warning, <=8000 danger, above info. */
export function timeColour(ms: number): 'success' | 'default' | 'warning' | 'error' | 'info' {
  if (ms <= 300) return 'success';
  if (ms <= 1000) return 'default';
  if (ms <= 3000) return 'warning';
  if (ms <= 8000) return 'error';
  return 'info';
}
