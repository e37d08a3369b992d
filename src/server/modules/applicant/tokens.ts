/**
 * Applicant tokens: a token kind of its own for the public onboarding steps. Issued when the
 * applicant registers, scoped to that one applicant record, ended when the applicant finishes
 * (确认填写完毕) or after APPLICANT_TOKEN_HOURS. Only the token's sha256 is stored
 * (staffun_session). An applicant token starts with `ap.`, so a staff token is never taken for
 * one and is refused where only an applicant token is accepted, and vice versa (staff tokens
 * live in sys_session and never match here).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { nowText } from '../../db/index.ts';
import { unauthorized } from '../../errors.ts';
import type { ApplicantCaller, Db } from '../../types.ts';
import type { TableDef } from '../../auth/tables.ts';

export const APPLICANT_TOKEN_HOURS = 24;
const PATTERN = /^ap\.[A-Za-z0-9_-]{43}$/;
export const APPLICANT_TOKEN_EXPIRED = '登记信息已失效，请重新填写应聘人员信息登记表';

export const APPLICANT_TABLES: TableDef[] = [
  {
    name: 'staffun_session',
    columns: [
      { name: 'id', type: 'varchar(64)', primaryKey: true },
      { name: 'staffun_id', type: 'bigint', notNull: true },
      { name: 'expires', type: 'bigint', notNull: true },
      { name: 'create_time', type: 'time' },
    ],
    indexes: [{ name: 'staffun_session_staffun_id', columns: ['staffun_id'] }],
  },
];

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The bearer token of a request, or undefined. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export function isApplicantToken(token: string | undefined): boolean {
  return !!token && token.startsWith('ap.');
}

export class ApplicantTokens {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new token for the applicant, written with `db` (a transaction when the applicant is new). */
  async issue(db: Db, staffunId: number): Promise<string> {
    const token = `ap.${randomBytes(32).toString('base64url')}`;
    await db
      .insertInto('staffun_session')
      .values({ id: hash(token), staffun_id: staffunId, expires: this.now() + APPLICANT_TOKEN_HOURS * 3_600_000, create_time: nowText() })
      .execute();
    return token;
  }

  /** The applicant of an applicant token; null when the request carries another kind or none; 401 when dead. */
  async resolve(request: FastifyRequest): Promise<ApplicantCaller | null> {
    const token = bearerOf(request);
    if (!isApplicantToken(token)) return null;
    if (!PATTERN.test(token!)) throw unauthorized(APPLICANT_TOKEN_EXPIRED);
    const row = await this.db
      .selectFrom('staffun_session')
      .select(['staffun_id', 'expires'])
      .where('id', '=', hash(token!))
      .executeTakeFirst();
    if (!row || Number(row.expires) <= this.now()) throw unauthorized(APPLICANT_TOKEN_EXPIRED);
    return { kind: 'applicant', staffunId: Number(row.staffun_id) };
  }

  /** Ends every token of the applicant. */
  async revoke(db: Db, staffunId: number): Promise<void> {
    await db.deleteFrom('staffun_session').where('staffun_id', '=', staffunId).execute();
  }
}
