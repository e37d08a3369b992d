/**
 * The account area: password policy, personal centre, verification codes with their SMS and
 * e-mail providers, WeCom QR sign-in, forgot password, the operation log and the outbox.
 * Other modules use the code service as `app.verificationCodes.sendCode(target, purpose)` /
 * `verifyCode(target, purpose, code)`; the clean-up jobs are exported below.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import '../../decorations.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { ensureTables } from '../../auth/tables.ts';
import { loadOrCreateKeys } from '../../auth/rsa.ts';
import { createMailProvider } from '../../providers/mail.ts';
import { createSmsProvider } from '../../providers/sms.ts';
import { WecomApi, type WecomClient } from '../../providers/wecom.ts';
import { installOperationLog } from '../logs/operation-log.ts';
import { registerLogRoutes } from '../logs/log-routes.ts';
import { registerCodeRoutes } from './code-routes.ts';
import { createCodeService, type CodeService } from './codes.ts';
import { seedAccountMenus } from './menus.ts';
import { registerOutboxRoutes } from './outbox-routes.ts';
import { ACCOUNT_TABLES } from './tables.ts';
import { registerUserCenterRoutes } from './user-center.ts';
import { registerWecomLoginRoutes } from './wecom-login.ts';

export { deleteOldLogs, purgeExpiredCodes } from '../logs/retention.ts';
export type { CodeService } from './codes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** verification codes: sendCode(target, purpose) / verifyCode(target, purpose, code) */
    verificationCodes: CodeService;
  }
}

export interface AccountOptions {
  /** the WeCom API client (tests may pass their own) */
  wecom?: WecomClient;
  now?: () => number;
}

/** The account area; its operation-log hook sees every route of the app (hooks apply app-wide). */
export async function registerAccount(app: FastifyInstance, specs: ResourceSpec[], options: AccountOptions = {}): Promise<void> {
  const { db, dialect } = app.database;
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:account-setup'))`.execute(trx);
    await ensureTables(trx, dialect, ACCOUNT_TABLES);
    await seedAccountMenus(trx);
  });
  const keys = await loadOrCreateKeys(db);
  const sms = createSmsProvider(app.config, db);
  const mail = createMailProvider(app.config, db);
  const codes = createCodeService(db, { sms, mail }, options.now, (err) =>
    app.log.warn({ err: (err as { cause?: unknown }).cause ?? err }, 'verification code not sent'),
  );
  if (!app.hasDecorator('verificationCodes')) app.decorate('verificationCodes', codes);
  // a code being sent when the instance stops still goes out (or frees its slot)
  app.addHook('onClose', () => codes.settled());

  installOperationLog(app, specs);
  registerUserCenterRoutes(app, { keys, codes });
  registerCodeRoutes(app, { keys, codes });
  registerWecomLoginRoutes(app, options.wecom ?? new WecomApi(app.config), options.now);
  registerLogRoutes(app, specs);
  registerOutboxRoutes(app, { sms: sms.kind, mail: mail.kind });
}
