/**
 * Duplicate-submit guard. The web client sends a random `submit_id` header (16-64 letters or
 * digits) with every write. A write (POST, PUT, PATCH, DELETE) whose submit_id was already seen
 * from the same sign-in within the last 10 minutes is not applied again: it answers
 * 409 请勿重复提交.
 *
 * The ids live in a table with a unique key (owner, submit_id), so the guard holds across
 * several instances on one PostgreSQL database. The owner is the signed-in session (a hash of
 * the bearer token, the same key sessions use) or, for anonymous writes, the client address.
 * A claim is taken before the request runs and given back when the request fails (any 4xx or
 * 5xx, which by the API's rules changed nothing), so correcting a rejected form and sending it
 * again works. Rows older than the window are pruned lazily.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from './errors.ts';
import type { Database } from './types.ts';

export const SUBMIT_ID_TABLE = 'sys_submit_id';
export const SUBMIT_ID_HEADER = 'submit_id';
export const SUBMIT_ID_WINDOW_MS = 10 * 60_000;
export const DUPLICATE_SUBMIT = '请勿重复提交';
const PRUNE_EVERY_MS = 60_000;
const SUBMIT_ID_RE = /^[0-9a-zA-Z]{16,64}$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function ensureSubmitIdTable(database: Database): Promise<void> {
  await database.db.schema
    .createTable(SUBMIT_ID_TABLE)
    .ifNotExists()
    .addColumn('owner', 'varchar(100)', (c) => c.notNull())
    .addColumn('submit_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${SUBMIT_ID_TABLE}_pkey`, ['owner', 'submit_id'])
    .execute();
  await database.db.schema
    .createIndex(`idx_${SUBMIT_ID_TABLE}_created_at`)
    .ifNotExists()
    .on(SUBMIT_ID_TABLE)
    .column('created_at')
    .execute();
}

function ownerOf(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  const token = typeof auth === 'string' ? auth.replace(/^Bearer\s+/i, '').trim() : '';
  if (token) return `t:${createHash('sha256').update(token).digest('hex').slice(0, 48)}`;
  return `ip:${request.ip}`.slice(0, 100);
}

export class SubmitIdGuard {
  private lastPrune = 0;
  constructor(
    private database: Database,
    private windowMs = SUBMIT_ID_WINDOW_MS,
  ) {}

  /** Takes the claim; false when the same owner already used this id within the window. */
  async claim(owner: string, submitId: string, now = Date.now()): Promise<boolean> {
    const db = this.database.db;
    const cutoff = now - this.windowMs;
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await db.deleteFrom(SUBMIT_ID_TABLE).where('created_at', '<', cutoff).execute();
    } else {
      await db
        .deleteFrom(SUBMIT_ID_TABLE)
        .where('owner', '=', owner)
        .where('submit_id', '=', submitId)
        .where('created_at', '<', cutoff)
        .execute();
    }
    const result = await db
      .insertInto(SUBMIT_ID_TABLE)
      .values({ owner, submit_id: submitId, created_at: now })
      .onConflict((oc) => oc.columns(['owner', 'submit_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async release(owner: string, submitId: string): Promise<void> {
    await this.database.db.deleteFrom(SUBMIT_ID_TABLE).where('owner', '=', owner).where('submit_id', '=', submitId).execute();
  }
}

const CLAIM = Symbol('submitIdClaim');
type Claimed = FastifyRequest & { [CLAIM]?: { owner: string; submitId: string } };

/** Adds the guard to every write route of the app (register before the routes). */
export async function registerSubmitIdGuard(app: FastifyInstance): Promise<SubmitIdGuard> {
  await ensureSubmitIdTable(app.database);
  const guard = new SubmitIdGuard(app.database);
  app.addHook('onRequest', async (request: Claimed) => {
    if (!WRITE_METHODS.has(request.method)) return;
    const raw = request.headers[SUBMIT_ID_HEADER];
    if (raw === undefined) return;
    const submitId = Array.isArray(raw) ? raw[0] : raw;
    if (!SUBMIT_ID_RE.test(submitId)) throw badRequest('submit_id格式不正确');
    const owner = ownerOf(request);
    if (!(await guard.claim(owner, submitId))) throw new ApiError(409, DUPLICATE_SUBMIT);
    request[CLAIM] = { owner, submitId };
  });
  // given back before the answer goes out, so a client that corrects its form and sends again at
  // once finds the id free; onResponse covers answers that skip onSend (a hijacked reply)
  const giveBack = async (request: Claimed, statusCode: number) => {
    const claim = request[CLAIM];
    if (!claim || statusCode < 400) return;
    request[CLAIM] = undefined;
    await guard.release(claim.owner, claim.submitId).catch((err) => request.log.warn({ err }, 'submit_id release failed'));
  };
  app.addHook('onSend', async (request: Claimed, reply, payload) => {
    await giveBack(request, reply.statusCode);
    return payload;
  });
  app.addHook('onResponse', async (request: Claimed, reply) => giveBack(request, reply.statusCode));
  return guard;
}
