/**
 * Types shared by every area of the server. Imports no area: what the app decorates Fastify
 * with (which names the session store, the hub and the long tasks) is in decorations.ts.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The tables as the query builder sees them. Most tables are made at run time from
 * schemas/*.json (and a deployment may add more), so there is no static list of tables and
 * columns to give Kysely: queries are untyped here, and code reading rows names their shape
 * (an interface per row, `$castTo<Row>()`) where it uses them. This is the one place the
 * server spells `any`: Kysely's table map must be an object type whose every key is a table of
 * columns, and no narrower type accepts a table name known only at run time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Tables = any;

/** The query builder over the database. */
export type Db = Kysely<Tables>;

/** A SELECT over one or more run-time tables, its row shape `O` (by default columns of any value). */
export type TableQuery<O = Record<string, unknown>> = SelectQueryBuilder<Tables, string, O>;

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** The signed-in staff member of a request (set by app.authenticate). */
export interface SessionUser {
  kind: 'staff';
  id: number;
  username: string;
  nickName: string;
  deptId: number | null;
  orgId: number | null;
  /** username === 'admin': passes every permission check except the decision centre */
  isAdmin: boolean;
  /** permission keys from the user's roles' menus, e.g. sysQuestion:add */
  permissions: Set<string>;
  roles: Array<{ id: number; name: string; dataScope: string; level: number }>;
  /** hash of the bearer token; the session row's key */
  sessionId: string;
}

/** The applicant behind an applicant token (public onboarding). */
export interface ApplicantCaller {
  kind: 'applicant';
  staffunId: number;
}
