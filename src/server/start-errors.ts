/**
 * A start that fails on the database says so in one line naming DATABASE_URL and what is wrong,
 * instead of a driver's stack: the database is missing, the server cannot be reached, or it
 * refuses the user or password. Other errors are not described here (undefined).
 */
export function databaseStartError(error: unknown, databaseUrl: string): string | undefined {
  if (!databaseUrl) return undefined;
  const e = (error ?? {}) as { code?: string; message?: string };
  let where = 'the database';
  try {
    const u = new URL(databaseUrl);
    where = `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    /* shown as is */
  }
  switch (e.code) {
    case '3D000':
      return `DATABASE_URL: the database does not exist at ${where} (create it first: createdb)`;
    case '28P01':
    case '28000':
      return `DATABASE_URL: the server at ${where} refused the user or password`;
    case 'ECONNREFUSED':
      return `DATABASE_URL: no PostgreSQL server answers at ${where} (connection refused)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DATABASE_URL: the host of ${where} cannot be found`;
    case 'ETIMEDOUT':
      return `DATABASE_URL: the server at ${where} did not answer in time`;
    case '57P03':
      return `DATABASE_URL: the server at ${where} is starting up or shutting down; try again`;
  }
  if (/timeout exceeded when trying to connect/i.test(e.message ?? ''))
    return `DATABASE_URL: the server at ${where} did not answer in time`;
  return undefined;
}
