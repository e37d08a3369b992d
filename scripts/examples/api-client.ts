/**
 * A complete API client in one file, with nothing but Node 20: signs in the way the console does
 * (captcha, RSA-OAEP password, POST /api/login), reads the signed-in user (GET /api/info), one
 * page of a generated list (GET /api/sysQuestion) and a hand-written area (GET /api/dept/lazy), then
 * signs out. docs/api.md explains each step.
 *
 *   npx tsx scripts/examples/api-client.ts [base URL] [user] [password]
 *
 * Defaults: http://localhost:8000, admin, Admin@123456 (the demo install). When the server's
 * captcha is on, the image is written to captcha.svg and the answer is read from the terminal
 * (or from API_CAPTCHA); a server started with CAPTCHA_ENABLED=false asks for none.
 */
import { constants, publicEncrypt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';

/** Every error answer of the API: the HTTP status again and a Chinese message. */
export interface ApiErrorBody {
  status: number;
  message: string;
  timestamp: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Captcha {
  img: string;
  uuid: string;
  enabled: boolean;
}

/** What POST /api/login answers (GET /api/info answers the same without `token`). */
export interface SignedIn {
  token: string;
  rememberMeDays?: number;
  user: { id: number; username: string; nickName: string; deptId: number | null; roles: Array<{ id: number; name: string }> };
  permissions: string[];
  sys: Record<string, unknown>;
}

export interface Page<T> {
  content: T[];
  totalElements: number;
}

async function call<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(path, base), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, (data as Partial<ApiErrorBody> | undefined)?.message ?? res.statusText);
  return data as T;
}

/** The password as the server takes it: RSA-OAEP with SHA-256 under the key of GET /api/publicKey, in base64. */
export function encryptPassword(plain: string, publicKeyBase64: string): string {
  const pem = `-----BEGIN PUBLIC KEY-----\n${publicKeyBase64.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plain, 'utf8')).toString(
    'base64',
  );
}

/**
 * Signs in. `answerCaptcha` is asked only when the server's captcha is on; it gets the captcha
 * (`img`, an SVG image as a data: URL) and returns what the image asks (the result of a small sum).
 */
export async function signIn(
  base: string,
  username: string,
  password: string,
  answerCaptcha: (captcha: Captcha) => Promise<string> = () => Promise.reject(new Error('the server asks for a captcha')),
): Promise<SignedIn> {
  const captcha = await call<Captcha>(base, 'GET', '/api/code');
  const code = captcha.enabled ? await answerCaptcha(captcha) : '';
  const { publicKey } = await call<{ publicKey: string }>(base, 'GET', '/api/publicKey');
  return call<SignedIn>(base, 'POST', '/api/login', undefined, {
    username,
    password: encryptPassword(password, publicKey),
    code,
    uuid: captcha.uuid,
    rememberMe: false,
  });
}

export interface Feedback {
  id: number;
  title?: string;
  status?: number;
  createTime?: string;
}

/** One department of the tree (GET /api/dept/lazy?pid=: the children of pid, 0 for the companies). */
export interface Department {
  id: number;
  pid: number;
  name: string;
  enabled: boolean;
  hasChildren: boolean;
}

/** What the example reads once signed in. */
export async function tour(base: string, token: string) {
  const info = await call<Omit<SignedIn, 'token'>>(base, 'GET', '/api/info', token);
  const feedback = await call<Page<Feedback>>(base, 'GET', '/api/sysQuestion?page=0&size=5&sort=id,desc', token);
  const departments = await call<Department[]>(base, 'GET', '/api/dept/lazy?pid=0', token);
  return { info, feedback, departments };
}

export async function signOut(base: string, token: string): Promise<void> {
  await call<unknown>(base, 'DELETE', '/api/logout', token);
}

async function askInTerminal({ img }: Captcha): Promise<string> {
  if (process.env.API_CAPTCHA) return process.env.API_CAPTCHA;
  writeFileSync('captcha.svg', Buffer.from(img.slice(img.indexOf(',') + 1), 'base64'));
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question('captcha.svg written: what does it say? ')).trim();
  } finally {
    rl.close();
  }
}

async function main(): Promise<void> {
  const [base = 'http://localhost:8000', username = 'admin', password = 'Admin@123456'] = process.argv.slice(2);
  const session = await signIn(base, username, password, askInTerminal);
  console.log(`signed in as ${session.user.username}, ${session.permissions.length} permission keys`);
  const { feedback, departments } = await tour(base, session.token);
  console.log(
    `问题反馈: ${feedback.totalElements} records; first page: ${feedback.content.map((r) => `#${r.id} ${r.title ?? ''}`).join(', ')}`,
  );
  console.log(`公司: ${departments.map((d) => d.name).join(', ')}`);
  await signOut(base, session.token);
  console.log('signed out');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err instanceof ApiError ? `${err.status} ${err.message}` : err);
    process.exit(1);
  });
}
