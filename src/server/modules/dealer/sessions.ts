/**
 * Dealer sessions: rows of sys_session with kind 'dealer' whose user_id is the company's id.
 * The staff look-up only reads kind 'staff' and this one only kind 'dealer', so a token of one
 * kind is never accepted where the other is expected. Tokens are random; only their sha256 is
 * stored; a session lives SESSION_IDLE_MINUTES after its last use; deleting the row (logout, a
 * disabled company, a new password) ends it at once on every instance.
 */
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { newToken, tokenHash, TOKEN_PATTERN } from '../../auth/sessions.ts';
import type { DealerUser } from './types.ts';

export const DEALER_SESSION_KIND = 'dealer';
const TOUCH_EVERY_MS = 60_000;

export class DealerSessions {
  constructor(
    private readonly db: Db,
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async create(compId: number, info: { ip?: string; browser?: string }): Promise<string> {
    const now = this.now();
    await this.db.deleteFrom('sys_session').where('kind', '=', DEALER_SESSION_KIND).where('expires', '<=', now).execute();
    const token = newToken();
    await this.db
      .insertInto('sys_session')
      .values({
        id: tokenHash(token),
        user_id: compId,
        kind: DEALER_SESSION_KIND,
        remember: 0,
        created: nowText(new Date(now)),
        last_seen: nowText(new Date(now)),
        expires: now + this.lifetimeMs,
        ip: info.ip?.slice(0, 64) ?? null,
        browser: info.browser?.slice(0, 255) ?? null,
      })
      .execute();
    return token;
  }

  /** The live dealer session of a token with its enabled company, or null; slides the expiry. */
  async lookup(token: string): Promise<DealerUser | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const id = tokenHash(token);
    const row = await this.db
      .selectFrom('sys_session as s')
      .innerJoin('dbc_company as c', 'c.id', 's.user_id')
      .select(['s.expires', 'c.id as comp_id', 'c.comp_name', 'c.comp_code', 'c.username', 'c.mobile', 'c.enabled', 'c.lock_time'])
      .where('s.id', '=', id)
      .where('s.kind', '=', DEALER_SESSION_KIND)
      .$castTo<{
        expires: number;
        comp_id: number;
        comp_name: string | null;
        comp_code: string | null;
        username: string | null;
        mobile: string | null;
        enabled: number | boolean;
        lock_time: number | null;
      }>()
      .executeTakeFirst();
    if (!row) return null;
    const now = this.now();
    const expires = Number(row.expires);
    if (expires <= now) {
      await this.db.deleteFrom('sys_session').where('id', '=', id).execute();
      return null;
    }
    if (!row.enabled) return null;
    if (now - (expires - this.lifetimeMs) >= TOUCH_EVERY_MS) {
      await this.db
        .updateTable('sys_session')
        .set({ last_seen: nowText(new Date(now)), expires: now + this.lifetimeMs })
        .where('id', '=', id)
        .execute();
    }
    return {
      kind: 'dealer',
      compId: Number(row.comp_id),
      compName: String(row.comp_name ?? ''),
      compCode: String(row.comp_code ?? ''),
      username: String(row.username ?? ''),
      mobile: row.mobile ?? null,
      lockTime: Number(row.lock_time ?? 0),
      sessionId: id,
    };
  }

  /** Whether a token is a live staff token (to tell a staff member signed in at the wrong door). */
  async isStaffToken(token: string): Promise<boolean> {
    if (!TOKEN_PATTERN.test(token)) return false;
    const row = await this.db.selectFrom('sys_session').select('kind').where('id', '=', tokenHash(token)).executeTakeFirst();
    return row?.kind === 'staff';
  }

  async destroy(sessionId: string): Promise<void> {
    await this.db.deleteFrom('sys_session').where('id', '=', sessionId).where('kind', '=', DEALER_SESSION_KIND).execute();
  }

  async destroyCompany(compId: number): Promise<void> {
    await this.db.deleteFrom('sys_session').where('user_id', '=', compId).where('kind', '=', DEALER_SESSION_KIND).execute();
  }
}
