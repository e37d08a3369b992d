/**
 * Imports and exports as the metrics see them: in flight, rows and durations by kind. The
 * spreadsheet code reports through the database it works on (it has no app), so this is a
 * sink per database, set by the metrics (metrics/index.ts) when they are on; without it every
 * call is a no-op.
 */
import type { Database } from '../types.ts';

export type TransferKind = 'import' | 'export';

export interface Transfer {
  /** rows written or stored so far, added */
  rows(n: number): void;
  /** the transfer ended, completed or not */
  end(ok: boolean): void;
}

export interface TransferSink {
  started(kind: TransferKind): Transfer;
}

const NONE: Transfer = { rows: () => undefined, end: () => undefined };
const sinks = new WeakMap<Database, TransferSink>();

export function setTransferSink(database: Database, sink: TransferSink): void {
  sinks.set(database, sink);
}

/** A transfer starting on `database` (a no-op one with metrics off). */
export function transferStarted(database: Database, kind: TransferKind): Transfer {
  return sinks.get(database)?.started(kind) ?? NONE;
}

/** Runs an import (`work` answers the rows stored) as a transfer. */
export async function timedImport(database: Database, work: () => Promise<number>): Promise<number> {
  const t = transferStarted(database, 'import');
  let ok = false;
  try {
    const count = await work();
    t.rows(count);
    ok = true;
    return count;
  } finally {
    t.end(ok);
  }
}
