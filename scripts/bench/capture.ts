/**
 * Records the SQL the app runs while `fn` runs, exactly as Kysely compiled it (text and
 * parameters), so a benchmark can replay the very queries of a route straight on the database.
 * Works by wrapping Kysely's query executor for the duration of `fn`; nothing else may run
 * queries meanwhile.
 */
import { DefaultQueryExecutor, type CompiledQuery } from 'kysely';

export async function captureQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: CompiledQuery[] }> {
  const proto = DefaultQueryExecutor.prototype as unknown as {
    executeQuery: (this: unknown, q: CompiledQuery, ...rest: unknown[]) => Promise<unknown>;
  };
  const own = Object.prototype.hasOwnProperty.call(proto, 'executeQuery');
  const original = proto.executeQuery;
  const queries: CompiledQuery[] = [];
  proto.executeQuery = function (this: unknown, q: CompiledQuery, ...rest: unknown[]) {
    queries.push(q);
    return original.call(this, q, ...rest);
  };
  try {
    const result = await fn();
    return { result, queries };
  } finally {
    if (own) proto.executeQuery = original;
    else delete (proto as { executeQuery?: unknown }).executeQuery;
  }
}
