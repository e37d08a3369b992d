/**
 * 个人中心 routes of the signed-in staff member (their own record only):
 *   PUT  /api/users/center             nickName, sex (phone only unchanged: a new phone needs a code)
 *   POST /api/users/updatePass/        {oldPass, newPass} RSA-encrypted
 *   POST /api/users/updateEmail/:code  {password (encrypted), email}, code sent by POST api/code/resetEmail
 *   PUT  /api/users/updateUserPhone    {id, phone, code}, code sent by POST api/code/resetPhone
 *   POST /api/users/updateAvatar       one image (jpeg, png, gif, webp) up to AVATAR_MAX_BYTES
 *   GET  /api/users/avatar/:id         the stored avatar (public: <img> tags carry no token)
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import '../../decorations.ts';
import { ApiError, badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { checkPassword } from '../../auth/passwords.ts';
import type { RsaKeys } from '../../auth/rsa.ts';
import { messages } from '../../../shared/messages.ts';
import { isEmail, isMobile } from '../../../shared/validators.ts';
import type { CodeService } from './codes.ts';
import { PASSWORD_MESSAGES, plainPassword, setNewPassword } from './password-policy.ts';

export const CENTER_MESSAGES = {
  ownOnly: '只能修改自己的信息',
  nickNameTooLong: '昵称不能超过64个字符',
  sexInvalid: '性别不正确',
  phoneViaCode: '修改手机号请通过验证码验证',
  phoneTaken: '该手机号已被其他账号使用',
  samePhone: '新手机号与当前手机号相同',
  avatarRequired: '请选择头像图片',
  avatarType: '头像只能是 JPG、PNG、GIF 或 WEBP 格式的图片',
  avatarTooLarge: (mb: string) => `头像大小不能超过 ${mb}MB`,
} as const;

export const CODE_PURPOSE = { email: 'resetEmail', phone: 'resetPhone', password: 'resetPassword' } as const;

const body = (request: FastifyRequest): Record<string, unknown> =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

/** The user's id in a body must be their own (when given). */
function ownId(request: FastifyRequest, id: unknown): number {
  const user = request.user;
  if (!user) throw unauthorized();
  if (id !== undefined && id !== null && id !== '' && Number(id) !== user.id) throw forbidden(CENTER_MESSAGES.ownOnly);
  return user.id;
}

export function checkPhone(phone: string): void {
  if (!phone) throw badRequest(messages.contact.phonePrompt);
  if (!isMobile(phone)) throw badRequest(messages.contact.mobileInvalid);
}

export function checkEmail(email: string): void {
  if (!email) throw badRequest(messages.contact.emailRequired);
  if (email.length > 100 || !isEmail(email)) throw badRequest(messages.contact.emailInvalid);
}

/** The image kind from the file's first bytes (the declared type is not trusted). */
export function imageKind(bytes: Buffer): string | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

export function registerUserCenterRoutes(app: FastifyInstance, deps: { keys: RsaKeys; codes: CodeService }): void {
  const { db } = app.database;
  const auth = { preHandler: app.authenticate };
  const limited = (max: number) => ({ preHandler: app.authenticate, config: { rateLimit: { max, timeWindow: 60_000 } } });

  const userRow = async (id: number) => {
    const row = await db
      .selectFrom('sys_user')
      .select(['id', 'password', 'phone', 'email'])
      .where('id', '=', id)
      .$castTo<{ id: number; password: string; phone: string | null; email: string | null }>()
      .executeTakeFirst();
    if (!row) throw unauthorized();
    return row;
  };

  app.put('/api/users/center', auth, async (request, reply) => {
    const b = body(request);
    const id = ownId(request, b.id);
    const nickName = text(b.nickName);
    if (!nickName) throw badRequest(messages.contact.nickNameRequired);
    if (nickName.length > 64) throw badRequest(CENTER_MESSAGES.nickNameTooLong);
    const changes: Record<string, unknown> = { nick_name: nickName, update_time: nowText() };
    if (b.sex !== undefined && b.sex !== null && b.sex !== '') {
      const sex = Number(b.sex);
      if (![0, 1, 2].includes(sex)) throw badRequest(CENTER_MESSAGES.sexInvalid);
      changes.sex = sex;
    }
    const phone = text(b.phone);
    if (phone) {
      const row = await userRow(id);
      if (phone !== (row.phone ?? '')) throw badRequest(CENTER_MESSAGES.phoneViaCode);
    }
    await db.updateTable('sys_user').set(changes).where('id', '=', id).execute();
    reply.status(204);
  });

  app.post('/api/users/updatePass/', limited(20), async (request) => {
    const b = body(request);
    const id = ownId(request, undefined);
    const oldPass = plainPassword(deps.keys, b.oldPass, messages.password.oldPrompt);
    const newPass = plainPassword(deps.keys, b.newPass, messages.password.newPrompt);
    const row = await userRow(id);
    if (!(await checkPassword(oldPass, row.password))) throw badRequest(PASSWORD_MESSAGES.oldWrong);
    await setNewPassword(db, id, newPass, row.password);
    return { message: messages.notice.passwordChanged };
  });

  app.post<{ Params: { code: string } }>('/api/users/updateEmail/:code', limited(20), async (request) => {
    const b = body(request);
    const id = ownId(request, b.id);
    const email = text(b.email);
    checkEmail(email);
    const password = plainPassword(deps.keys, b.password, messages.login.passwordRequired);
    const row = await userRow(id);
    if (!(await checkPassword(password, row.password))) throw badRequest(PASSWORD_MESSAGES.passwordWrong);
    await deps.codes.requireCode(email, CODE_PURPOSE.email, request.params.code);
    await db.updateTable('sys_user').set({ email, update_time: nowText() }).where('id', '=', id).execute();
    return { message: messages.notice.emailChanged };
  });

  app.put('/api/users/updateUserPhone', limited(20), async (request) => {
    const b = body(request);
    const id = ownId(request, b.id);
    const phone = text(b.phone);
    checkPhone(phone);
    const row = await userRow(id);
    if (phone === row.phone) throw badRequest(CENTER_MESSAGES.samePhone);
    // the code first: only the holder of the number learns whether another account uses it
    await deps.codes.requireCode(phone, CODE_PURPOSE.phone, b.code);
    const taken = await db.selectFrom('sys_user').select('id').where('phone', '=', phone).where('id', '<>', id).executeTakeFirst();
    if (taken) throw badRequest(CENTER_MESSAGES.phoneTaken);
    try {
      await db.updateTable('sys_user').set({ phone, update_time: nowText() }).where('id', '=', id).execute();
    } catch {
      // another account took the number at the same moment (unique index)
      throw badRequest(CENTER_MESSAGES.phoneTaken);
    }
    return { message: messages.notice.modified };
  });

  app.post('/api/users/updateAvatar', limited(20), async (request) => {
    const id = ownId(request, undefined);
    if (!request.isMultipart()) throw badRequest(CENTER_MESSAGES.avatarRequired);
    const max = app.config.avatarMaxBytes;
    const tooLarge = CENTER_MESSAGES.avatarTooLarge(String(Math.round((max / 1048576) * 10) / 10));
    let data: Buffer;
    try {
      const file = await request.file({ limits: { fileSize: max } });
      if (!file) throw badRequest(CENTER_MESSAGES.avatarRequired);
      data = await file.toBuffer();
      if (file.file.truncated) throw badRequest(tooLarge);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(tooLarge);
      throw err;
    }
    if (!data.length) throw badRequest(CENTER_MESSAGES.avatarRequired);
    const mime = imageKind(data);
    if (!mime) throw badRequest(CENTER_MESSAGES.avatarType);
    const version = createHash('sha256').update(data).digest('hex').slice(0, 16);
    const img = `/api/users/avatar/${id}?v=${version}`;
    const now = nowText();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_avatar').where('user_id', '=', id).execute();
      await trx
        .insertInto('sys_avatar')
        .values({ user_id: id, mime, data: data.toString('base64'), version, update_time: now })
        .execute();
      await trx.updateTable('sys_user').set({ img, update_time: now }).where('id', '=', id).execute();
    });
    return { avatar: img, img, message: messages.notice.avatarChanged };
  });

  app.get<{ Params: { id: string } }>('/api/users/avatar/:id', async (request, reply) => {
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound('头像不存在');
    const row = await db.selectFrom('sys_avatar').select(['mime', 'data', 'version']).where('user_id', '=', id).executeTakeFirst();
    if (!row) throw notFound('头像不存在');
    reply
      .header('content-type', row.mime)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'");
    return reply.send(Buffer.from(String(row.data), 'base64'));
  });
}
