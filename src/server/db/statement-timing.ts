/**
 * Statement timing for the metrics and the traces: a Kysely dialect whose connections report each
 * statement's duration, or its failure, to one function. Kysely's own `log` option does the same
 * through several awaited async functions per statement (its wrapper, its logger, ours), which on a
 * list page of two statements was a measurable share of what metrics cost (bench:guard's pair).
 * Here a statement's promise is handed back as it is and the report rides on one `then` of it, in
 * the caller's async context (the traces find their request there).
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, LogEvent, QueryResult, TransactionSettings } from 'kysely';

export type StatementReport = (event: LogEvent) => void;

function timeConnection(connection: DatabaseConnection, reportTo: StatementReport): void {
  // a report runs beside the statement (on its promise, or after a stream): one that throws must
  // neither fail the statement nor become an unhandled rejection that would end the process
  const report = (event: LogEvent) => {
    try {
      reportTo(event);
    } catch {
      // the metrics or a trace miss one statement; the statement itself is unaffected
    }
  };
  const executeQuery = connection.executeQuery.bind(connection);
  const streamQuery = connection.streamQuery.bind(connection);
  connection.executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    const start = performance.now();
    let running: Promise<QueryResult<R>>;
    try {
      running = executeQuery<R>(query);
    } catch (error) {
      // SQLite's connection throws at once (better-sqlite3 runs the statement synchronously)
      report({ level: 'error', error, query, queryDurationMillis: performance.now() - start });
      throw error;
    }
    running.then(
      () => report({ level: 'query', query, queryDurationMillis: performance.now() - start }),
      (error: unknown) => report({ level: 'error', error, query, queryDurationMillis: performance.now() - start }),
    );
    return running;
  };
  connection.streamQuery = async function* <R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const start = performance.now();
    let failed = false;
    try {
      yield* streamQuery<R>(query, chunkSize);
    } catch (error) {
      failed = true;
      report({ level: 'error', error, query, queryDurationMillis: performance.now() - start });
      throw error;
    } finally {
      // also when the reader stops early (an export cut off): the stream ends here all the same
      if (!failed) report({ level: 'query', isStream: true, query, queryDurationMillis: performance.now() - start });
    }
  };
}

/** The driver with each connection it hands out timed (once: connections are reused). */
class TimedDriver implements Driver {
  private readonly timed = new WeakSet<DatabaseConnection>();
  constructor(
    private readonly driver: Driver,
    private readonly report: StatementReport,
  ) {
    // the optional savepoint methods only where the driver has them (Kysely tests for them)
    if (driver.savepoint) this.savepoint = (c, name, compile) => driver.savepoint!(c, name, compile);
    if (driver.rollbackToSavepoint) this.rollbackToSavepoint = (c, name, compile) => driver.rollbackToSavepoint!(c, name, compile);
    if (driver.releaseSavepoint) this.releaseSavepoint = (c, name, compile) => driver.releaseSavepoint!(c, name, compile);
  }
  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];
  init() {
    return this.driver.init();
  }
  async acquireConnection() {
    const connection = await this.driver.acquireConnection();
    if (!this.timed.has(connection)) {
      timeConnection(connection, this.report);
      this.timed.add(connection);
    }
    return connection;
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.driver.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.driver.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.driver.rollbackTransaction(connection);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.driver.releaseConnection(connection);
  }
  destroy() {
    return this.driver.destroy();
  }
}

/** `dialect` with every statement of its connections reported to `report` (after it settles). */
export function timedDialect(dialect: Dialect, report: StatementReport): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TimedDriver(dialect.createDriver(), report),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
