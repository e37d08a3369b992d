/**
 * WeCom members (企业微信通讯录成员) of roster entries (key staff:edit), through the WecomContacts
 * provider. WeCom is asked first; only when it accepts is the roster (and the linked system
 * user's WeCom id, used by QR sign-in) written, so a refusal (502 企业微信返回错误：<errmsg>)
 * leaves everything as it was.
 *   POST   api/staff/qywx {id, userid?}            creates the member (userid given, else the mobile)
 *   PUT    api/staff/updateQywx {id}               pushes name, mobile, gender, job and e-mail
 *   PUT    api/staff/qywxEmail {id, email}         sets the enterprise mailbox (biz_mail)
 *   PUT    api/staff/updateAvatarMediaId {id, mediaId}   sets the avatar (a WeCom media id)
 *   DELETE api/staff/deleteQywx (id in the query or the body)   deletes the member, clears the fields
 * Without WeCom configured every call answers 400 企业微信未配置…
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { isEmail } from '../../../shared/validators.ts';
import { tableChanged } from '../../crud/index.ts';
import { nowText } from '../../db/index.ts';
import type { Db } from '../../types.ts';
import { updateColumnsRecorded } from '../../crud/history/recorded-writes.ts';
import { revisionActor } from '../../crud/history/revisions.ts';
import { actorOf } from '../../crud/routes.ts';
import { ApiError, badRequest } from '../../errors.ts';
import { WecomRefusal, type WecomContacts, type WecomMember } from '../../providers/wecom.ts';
import { objectBody, requiredId, requiredText, queryValue, type Body } from '../access/input.ts';
import { STAFF_MESSAGES } from './rules.ts';
import { entryToChange, StaffStatus, type Entry } from './store.ts';
import { plainText } from '../../../shared/text.ts';

export const WECOM_NOT_CONFIGURED =
  '企业微信未配置：请设置 WECOM_CORP_ID、WECOM_AGENT_ID、WECOM_SECRET（通讯录管理可另设 WECOM_CONTACT_SECRET）后重启服务';
/** WeCom user ids: letters, digits and _ . @ - (as WeCom allows) */
export const WECOM_USER_ID = /^[A-Za-z0-9_.@-]{1,64}$/;

export function wecomFailure(err: unknown): never {
  if (err instanceof WecomRefusal) throw new ApiError(502, `企业微信返回错误：${err.errmsg}`);
  throw err;
}

/** The member WeCom gets for an entry (gender: WeCom 1 male, 2 female). */
export function memberOf(entry: Entry, userid: string): WecomMember {
  const m: WecomMember = { userid, name: String(entry.name), mobile: String(entry.mobile) };
  if (entry.sex === 1 || entry.sex === 0) m.gender = entry.sex === 1 ? '1' : '2';
  if (entry.job) m.position = plainText(entry.job);
  if (entry.email) m.email = plainText(entry.email);
  return m;
}

export function registerWecomMemberRoutes(app: FastifyInstance, spec: ResourceSpec, wecom: WecomContacts): void {
  const base = `/${spec.path}`;
  const db = () => app.database.db;
  const edit = { preHandler: app.requirePermission(`${spec.permission}:edit`) };

  const configured = () => {
    if (!wecom.configured) throw badRequest(WECOM_NOT_CONFIGURED);
  };
  const call = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      wecomFailure(err);
    }
  };
  const boundEntry = async (request: FastifyRequest, body: Body): Promise<Entry & { qywxUserId: string }> => {
    const entry = await entryToChange(app, spec, request, requiredId(body.id, 'ID不能为空'));
    if (!entry.qywxUserId) throw badRequest(STAFF_MESSAGES.notBound);
    return entry as Entry & { qywxUserId: string };
  };
  /** the entry's WeCom columns, with the entry's revision */
  const setColumns = (trx: Db, request: FastifyRequest, id: number, values: Record<string, unknown>) =>
    updateColumnsRecorded(trx, spec, app.database.dialect, revisionActor(actorOf(request)), [id], {
      ...values,
      update_time: nowText(),
      update_user: request.user!.username,
    });
  const save = async (id: number, values: Record<string, unknown>, request: FastifyRequest) => {
    await db()
      .transaction()
      .execute((trx) => setColumns(trx, request, id, values));
    tableChanged(app.database, spec.table);
  };

  app.post(`${base}/qywx`, edit, async (request) => {
    configured();
    const body = objectBody(request.body);
    const entry = await entryToChange(app, spec, request, requiredId(body.id, 'ID不能为空'));
    if (entry.qywxUserId) throw badRequest(`${STAFF_MESSAGES.bound}（${plainText(entry.qywxUserId)}）`);
    if (Number(entry.status) !== StaffStatus.onStaff) throw badRequest(STAFF_MESSAGES.left);
    const given =
      body.userid === undefined || body.userid === null || body.userid === '' ? null : requiredText(body, 'userid', '企业微信账号', 64);
    const userid = given ?? String(entry.mobile);
    if (!WECOM_USER_ID.test(userid)) throw badRequest('企业微信账号只能包含字母、数字和 _ . @ -');
    if (await db().selectFrom(spec.table).select('id').where('qywx_user_id', '=', userid).where('id', '<>', entry.id).executeTakeFirst()) {
      throw badRequest('该企业微信账号已绑定其他员工');
    }
    const linked = entry.userId === null || entry.userId === undefined ? undefined : Number(entry.userId);
    if (
      linked !== undefined &&
      (await db().selectFrom('sys_user').select('id').where('wecom_user_id', '=', userid).where('id', '<>', linked).executeTakeFirst())
    ) {
      throw badRequest('该企业微信账号已绑定其他用户');
    }
    await call(() => wecom.createMember(memberOf(entry, userid)));
    await db()
      .transaction()
      .execute(async (trx) => {
        await setColumns(trx, request, entry.id, { qywx_user_id: userid });
        // the linked system user signs in by WeCom QR code with the same id
        if (linked !== undefined) await trx.updateTable('sys_user').set({ wecom_user_id: userid }).where('id', '=', linked).execute();
      });
    tableChanged(app.database, spec.table);
    return { id: entry.id, qywxUserId: userid };
  });

  app.put(`${base}/updateQywx`, edit, async (request) => {
    configured();
    const entry = await boundEntry(request, objectBody(request.body));
    await call(() => wecom.updateMember(memberOf(entry, entry.qywxUserId)));
    return { id: entry.id, qywxUserId: entry.qywxUserId };
  });

  app.put(`${base}/qywxEmail`, edit, async (request) => {
    configured();
    const body = objectBody(request.body);
    const entry = await boundEntry(request, body);
    const email = requiredText(body, 'email', '企业邮箱', 100);
    if (!isEmail(email)) throw badRequest('邮箱格式错误');
    await call(() => wecom.updateMember({ userid: entry.qywxUserId, biz_mail: email }));
    await save(entry.id, { qywx_email: email }, request);
    return { id: entry.id, qywxEmail: email };
  });

  app.put(`${base}/updateAvatarMediaId`, edit, async (request) => {
    configured();
    const body = objectBody(request.body);
    const entry = await boundEntry(request, body);
    const mediaId = requiredText(body, 'mediaId', '头像素材', 200);
    if (!/^[A-Za-z0-9_\-.@]+$/.test(mediaId)) throw badRequest('头像素材ID格式不正确');
    await call(() => wecom.updateMember({ userid: entry.qywxUserId, avatar_mediaid: mediaId }));
    await save(entry.id, { avatar_media_id: mediaId }, request);
    return { id: entry.id, avatarMediaId: mediaId };
  });

  app.delete(`${base}/deleteQywx`, edit, async (request) => {
    configured();
    const fromQuery = queryValue(request.query, 'id');
    const body: Body =
      fromQuery !== undefined && fromQuery !== ''
        ? { id: fromQuery }
        : typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
          ? (request.body as Body)
          : Array.isArray(request.body) && request.body.length === 1
            ? { id: request.body[0] }
            : {};
    const entry = await boundEntry(request, body);
    await call(() => wecom.deleteMember(entry.qywxUserId));
    await db()
      .transaction()
      .execute(async (trx) => {
        await setColumns(trx, request, entry.id, { qywx_user_id: null, qywx_email: null, avatar_media_id: null });
        if (entry.userId !== null && entry.userId !== undefined) {
          await trx
            .updateTable('sys_user')
            .set({ wecom_user_id: null })
            .where('id', '=', Number(entry.userId))
            .where('wecom_user_id', '=', entry.qywxUserId)
            .execute();
        }
      });
    tableChanged(app.database, spec.table);
    return { id: entry.id, qywxUserId: null };
  });
}
