/**
 * Staff management of dealer companies (api/system/dbcCompany): the schema's generic routes plus
 * the sign-in password. The create and update handlers are replaced so that a password given in
 * the body is checked (6-20 characters), stored only as a bcrypt hash in the same statement as the
 * record, and never answered; user names are unique by the schema's `x-unique`, checked as the
 * engine checks it (409 登录账号“x”已存在, also when a write races past the check). A new password
 * or disabling a company ends its open sessions. A company that still has customers or requests
 * cannot be deleted (disable it instead).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import { permissionKey } from '../../../shared/resource-spec.ts';
import { checkRecord, findById, positiveId, recordToRow, rewritePinyinKeys, rowToRecord, writePinyinKeys } from '../../crud/index.ts';
import { withoutMaskedFields } from '../../crud/access/personal-data.ts';
import { tableChanged } from '../../crud/query/count.ts';
import { diffRecords, revisionActor, snapshotChanges, writeRevisions } from '../../crud/history/revisions.ts';
import { actorOf } from '../../crud/routes.ts';
import { assertUnique, uniqueConflict } from '../../crud/unique.ts';
import { fieldAccess } from '../../crud/access/field-access.ts';
import { badRequest, notFound } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { runPreHandler, takeOverRoute } from './take-over.ts';
import type { DealerSessions } from './sessions.ts';

export const PASSWORD_REQUIRED = '请输入密码';
export const PASSWORD_LENGTH = '长度在 6 到 20 个字符';
export const COMPANY_IN_USE = '该经销商下还有客户或用车需求，不能删除，可改为禁用';

/** The password of a company form: undefined when not given, else the checked text. */
export function companyPassword(body: Record<string, unknown>, required: boolean): string | undefined {
  const raw = body.password;
  if (raw === undefined || raw === null || raw === '') {
    if (required) throw badRequest(PASSWORD_REQUIRED);
    return undefined;
  }
  if (typeof raw !== 'string') throw badRequest(PASSWORD_LENGTH);
  const n = [...raw].length;
  if (n < 6 || n > 20 || /\s/.test(raw)) throw badRequest(PASSWORD_LENGTH);
  return raw;
}

export function registerCompanyWrites(app: FastifyInstance, sessions: DealerSessions): void {
  const spec = resourceByName.dbcCompany;
  const url = `/${spec.path}`;
  const database = app.database;
  const columns = spec.fields.map((f) => f.column);

  const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
    const b = request.body;
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw badRequest('请求内容必须是JSON对象');
    return b as Record<string, unknown>;
  };

  takeOverRoute(app, 'POST', url, async (request, reply) => {
    await runPreHandler(app, app.requirePermission(permissionKey(spec, 'add')), request, reply);
    const { password: _p, ...rest } = bodyOf(request);
    const password = companyPassword(bodyOf(request), true)!;
    const result = checkRecord(spec, rest, 'create');
    if (!result.ok) throw badRequest(result.error.message);
    const unique = { hidden: fieldAccess(request, spec).masked };
    await assertUnique(database, spec, result.values, unique);
    const now = nowText();
    const row = recordToRow(spec, { ...result.values, createTime: now }, database.dialect);
    try {
      const hash = await hashPassword(password);
      // the company, its name's pinyin keys (pickers, blurry) and its create revision (never the
      // password) in one transaction
      const inserted = await database.db.transaction().execute(async (trx) => {
        const r = await trx
          .insertInto('dbc_company')
          .values({ ...row, password: hash, pwd_reset_time: now })
          .returning(columns)
          .executeTakeFirstOrThrow();
        await writePinyinKeys(trx, spec, [r]);
        const record = rowToRecord(spec, r);
        await writeRevisions(trx, database.dialect, spec, revisionActor(actorOf(request)), [
          { recordId: Number(record.id), action: 'create', changes: snapshotChanges(spec, record, 'new') },
        ]);
        return r;
      });
      tableChanged(database, spec.table);
      return reply.status(201).send(rowToRecord(spec, inserted));
    } catch (err) {
      throw uniqueConflict(spec, err, result.values, unique) ?? err;
    }
  });

  takeOverRoute(app, 'PUT', url, async (request, reply) => {
    await runPreHandler(app, app.requirePermission(permissionKey(spec, 'edit')), request, reply);
    const body = bodyOf(request);
    const id = positiveId(body.id);
    if (id === undefined) throw badRequest('ID不能为空');
    // what a caller without the personal-data key holds is the mask: never written back
    const { password: _p, ...rest } = withoutMaskedFields(request, spec, body);
    const password = companyPassword(body, false);
    const existing = await findById(database, spec, id);
    if (!existing) throw notFound('数据不存在');
    // fields left out keep their values (a password reset sends only id and password)
    const result = checkRecord(spec, { ...existing, ...rest }, 'update');
    if (!result.ok) throw badRequest(result.error.message);
    const unique = { exceptId: id, hidden: fieldAccess(request, spec).masked, changed: new Set(Object.keys(rest)) };
    const after = { ...existing, ...result.values };
    await assertUnique(database, spec, after, unique);
    const values: Record<string, unknown> = { ...result.values };
    delete values.id;
    for (const name of result.cleared) values[name] = null;
    const row: Record<string, unknown> = recordToRow(spec, values, database.dialect);
    delete row.id;
    if (password !== undefined) {
      row.password = await hashPassword(password);
      row.pwd_reset_time = nowText();
    }
    let updated: number;
    try {
      updated =
        Object.keys(row).length === 0
          ? (await database.db.selectFrom('dbc_company').select('id').where('id', '=', id).executeTakeFirst())
            ? 1
            : 0
          : await database.db.transaction().execute(async (trx) => {
              // the stored values before, for the revision of the changed fields (never the password)
              const before = await trx.selectFrom('dbc_company').select(columns).where('id', '=', id).executeTakeFirst();
              if (!before) return 0;
              await trx.updateTable('dbc_company').set(row).where('id', '=', id).execute();
              await rewritePinyinKeys(trx, spec, id, row);
              const changes = diffRecords(spec, rowToRecord(spec, before), rowToRecord(spec, row));
              if (Object.keys(changes).length)
                await writeRevisions(trx, database.dialect, spec, revisionActor(actorOf(request)), [
                  { recordId: id, action: 'update', changes },
                ]);
              return 1;
            });
    } catch (err) {
      throw uniqueConflict(spec, err, after, unique) ?? err;
    }
    if (!updated) throw notFound('数据不存在');
    tableChanged(database, spec.table);
    if (password !== undefined || result.values.enabled === false) await sessions.destroyCompany(id);
    return reply.status(204).send();
  });

  // a company with customers or requests is not deleted (the generic delete runs otherwise)
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'DELETE' || request.routeOptions.url !== url || !Array.isArray(request.body)) return;
    const ids = (request.body as unknown[]).map((v) => positiveId(v)).filter((v): v is number => v !== undefined);
    if (!ids.length) return;
    await runPreHandler(app, app.requirePermission(permissionKey(spec, 'del')), request, undefined as never);
    const customers = await database.db
      .selectFrom('dbc_user_info')
      .select('id')
      .where('comp_id', 'in', ids.slice(0, 10_000))
      .limit(1)
      .executeTakeFirst();
    const requests = customers
      ? customers
      : await database.db.selectFrom('dbc_info').select('id').where('comp_id', 'in', ids.slice(0, 10_000)).limit(1).executeTakeFirst();
    if (requests) throw badRequest(COMPANY_IN_USE);
    for (const id of ids) await sessions.destroyCompany(id);
  });
}
