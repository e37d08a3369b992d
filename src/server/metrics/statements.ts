/**
 * The labels of a database statement: its operation (select, insert, update, delete, other)
 * and its first table. Both come from the statement's operation tree, or for raw SQL from its
 * text, never from values (values are parameters). Table names are bounded by the product's
 * schema; past MAX_TABLES distinct names the rest count as `other`, so a label set cannot grow
 * without bound whatever runs.
 */
import type { RootOperationNode } from 'kysely';

export type Operation = 'select' | 'insert' | 'update' | 'delete' | 'other';
export const MAX_TABLES = 400;
const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

interface Named {
  kind?: string;
  table?: { identifier?: { name?: string } };
  froms?: Named[];
  from?: Named;
  into?: Named;
  node?: Named;
}

function tableOfNode(n: Named | undefined): string | undefined {
  if (!n) return undefined;
  if (n.kind === 'TableNode') return n.table?.identifier?.name;
  if (n.kind === 'AliasNode') return tableOfNode(n.node);
  if (n.kind === 'FromNode') return tableOfNode(n.froms?.[0]);
  return undefined;
}

const RAW_OPERATION = /^\s*(?:with\b[\s\S]*?\)\s*)?(select|insert|update|delete)\b/i;
const RAW_TABLE = /\b(?:from|into|update|join)\s+"?([a-z_][a-z0-9_]*)"?/i;

export function statementLabels(node: RootOperationNode, sqlText: string): { operation: Operation; table: string } {
  const n = node as unknown as Named & { kind: string };
  switch (n.kind) {
    case 'SelectQueryNode':
      return { operation: 'select', table: tableOfNode(n.from) ?? 'none' };
    case 'InsertQueryNode':
      return { operation: 'insert', table: tableOfNode(n.into) ?? 'other' };
    case 'UpdateQueryNode':
      return { operation: 'update', table: tableOfNode(n.table as Named) ?? 'other' };
    case 'DeleteQueryNode':
      return { operation: 'delete', table: tableOfNode(n.from) ?? 'other' };
    default: {
      const op = RAW_OPERATION.exec(sqlText)?.[1]?.toLowerCase() as Operation | undefined;
      const table = RAW_TABLE.exec(sqlText)?.[1]?.toLowerCase();
      return { operation: op ?? 'other', table: table ?? 'none' };
    }
  }
}

/** Keeps table labels bounded: a name seen among the first MAX_TABLES, else `other`. */
export class TableNames {
  private readonly seen = new Set<string>();
  label(name: string): string {
    if (!NAME.test(name)) return 'other';
    if (this.seen.has(name)) return name;
    if (this.seen.size >= MAX_TABLES) return 'other';
    this.seen.add(name);
    return name;
  }
}

/** Error codes as labels: SQLSTATE (5 characters) or a SQLite/Node code; anything else `other`. */
export function errorCodeLabel(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(?:[0-9A-Z]{5}|SQLITE_[A-Z_]{1,40}|E[A-Z]{2,20})$/.test(code)) return code;
  return 'other';
}
