/**
 * Tells listeners when a query changes (UPDATE or DELETE) rows of a watched table, whatever code
 * runs it: a Kysely plugin installed on the app's database. The session cache uses it so that any
 * change to `sys_session` or `sys_user` (logout, password change or reset, disable, leave, delete,
 * a moved department...) drops what it remembered, without every such place having to say so.
 * Listeners are called as the statement is sent (before a surrounding transaction commits) and
 * again when it has run.
 */
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** A write seen: the table, for an UPDATE the columns it sets, and its WHERE when that is a plain AND of `column op value`. */
export interface WatchedWrite {
  table: string;
  kind: 'update' | 'delete';
  columns: string[];
  /** [column, operator] of each condition; undefined when the WHERE is anything else (or absent) */
  conditions?: Array<[string, string]>;
}

/** The [column, operator] pairs of a WHERE made of `column op value` terms joined by AND, else undefined. */
function conditionsOf(node: OperationNode | undefined): Array<[string, string]> | undefined {
  if (!node) return undefined;
  const n = node as {
    kind: string;
    where?: OperationNode;
    left?: OperationNode;
    right?: OperationNode;
    leftOperand?: { kind: string; column?: { column?: { name?: string } } };
    operator?: { operator?: string };
  };
  if (n.kind === 'WhereNode') return conditionsOf(n.where);
  if (n.kind === 'AndNode') {
    const l = conditionsOf(n.left);
    const r = conditionsOf(n.right);
    return l && r ? [...l, ...r] : undefined;
  }
  if (n.kind === 'BinaryOperationNode' && n.leftOperand?.kind === 'ReferenceNode') {
    const column = n.leftOperand.column?.column?.name;
    const op = n.operator?.operator;
    return column && op ? [[column, op]] : undefined;
  }
  return undefined;
}

type Listener = (write: WatchedWrite) => void;

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  const n = node as { kind: string; node?: OperationNode; table?: { identifier?: { name?: string } } };
  if (n.kind === 'AliasNode') return tableName(n.node);
  if (n.kind === 'TableNode') return n.table?.identifier?.name;
  return undefined;
}

function columnName(node: OperationNode): string {
  const n = node as { column?: { name?: string } };
  return n.column?.name ?? '';
}

/** What a query node writes to, if it is an UPDATE or DELETE of a named table. */
export function writeOf(node: RootOperationNode): WatchedWrite | undefined {
  if (node.kind === 'UpdateQueryNode') {
    const table = tableName(node.table);
    return table
      ? { table, kind: 'update', columns: (node.updates ?? []).map((u) => columnName(u.column)), conditions: conditionsOf(node.where) }
      : undefined;
  }
  if (node.kind === 'DeleteQueryNode') {
    const table = tableName(node.from.froms[0]);
    return table ? { table, kind: 'delete', columns: [], conditions: conditionsOf(node.where) } : undefined;
  }
  return undefined;
}

export class WriteWatch implements KyselyPlugin {
  private readonly listeners = new Map<string, Listener[]>();
  private readonly inFlight = new WeakMap<object, WatchedWrite>();

  /** Calls `listener` for every UPDATE or DELETE of one of `tables`. */
  on(tables: string[], listener: Listener): void {
    for (const t of tables) this.listeners.set(t, [...(this.listeners.get(t) ?? []), listener]);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.listeners.size) {
      const write = writeOf(args.node);
      if (write && this.listeners.has(write.table)) {
        this.inFlight.set(args.queryId, write);
        this.tell(write);
      }
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const write = this.inFlight.get(args.queryId);
    if (write) {
      this.inFlight.delete(args.queryId);
      this.tell(write);
    }
    return Promise.resolve(args.result);
  }

  private tell(write: WatchedWrite): void {
    for (const listener of this.listeners.get(write.table) ?? []) {
      try {
        listener(write);
      } catch {
        // a listener's failure must not fail the write
      }
    }
  }
}

const watches = new WeakMap<object, WriteWatch>();

/** The write watch of a database handle (one per opened database). */
export function writeWatchOf(db: object): WriteWatch | undefined {
  return watches.get(db);
}

/** Creates the plugin for a database about to be opened, and files it under the handle once made. */
export function attachWriteWatch<T extends object>(make: (plugin: WriteWatch) => T): T {
  const watch = new WriteWatch();
  const db = make(watch);
  watches.set(db, watch);
  return db;
}
