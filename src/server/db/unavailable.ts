/**
 * Whether an error means the database cannot be reached right now (PostgreSQL restarting,
 * failing over, refusing connections, the pool's connect timing out; SQLite's file locked
 * beyond its busy timeout; a PostgreSQL query cut by the statement timeout), as opposed to a
 * fault in the request or the code. Such errors answer 503 数据库暂时不可用，请稍后再试 instead of a 500, and never end the process.
 */
export const DATABASE_UNAVAILABLE = '数据库暂时不可用，请稍后再试';

/** SQLSTATE classes and codes of a database that is going away or not there yet. */
const PG_CODES = new Set([
  '57P01', // admin_shutdown (terminating connection due to administrator command)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007', // connection exceptions
  '40001', // serialization failure under failover
  '57014', // query_canceled: cut by statement_timeout (DB_STATEMENT_TIMEOUT_SECONDS) while the database is stalled
]);
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);
const MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection/i,
  /server closed the connection unexpectedly/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (PG_CODES.has(e.code) || NODE_CODES.has(e.code))) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return MESSAGES.some((m) => m.test(message));
}
