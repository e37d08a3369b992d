/**
 * Every hand-written write of a schema's table keeps the record's history: a module under
 * src/server/modules that inserts, updates or deletes rows of a table a schema drives (named
 * literally, or through a spec's `.table`) must write their revisions (writeRevisions,
 * insertRecorded/updateRecorded, trackChange...) or be listed below with the reason it need not.
 * A new module that writes a schema's table behind the history's back fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';

const ROOT = join(import.meta.dirname, '../../src/server/modules');

/** Files that write a schema's table without revisions, and why that is right. */
const EXEMPT: Record<string, string> = {
  'dealer/members.ts': 'the demo members seeded on an empty table at first start (no person changed anything)',
  'dealer/demo.ts': 'the demo dealer companies seeded on an empty table at first start',
  'privacy/erase.ts':
    "erasing a person (PIPL art. 47): its records, revisions and bin entries are removed or blanked; a new revision would keep what was erased, and the erasure's report and request record say what was done",
};

const REVISION_WRITERS = /\b(writeRevisions|writeImportRevisions|insertRecorded|updateRecorded|updateColumnsRecorded|trackChange)\(/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const schemaTables = new Set(resources.map((r) => r.table));
const WRITE = /\b(insertInto|updateTable|deleteFrom)\(\s*((?:[^()]|\(\))*?)\s*\)/g;

/** The schema tables a file writes (literal names), or `<expr>.table` when it writes through a spec. */
function schemaWrites(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(WRITE)) {
    const target = m[2];
    const literal = /^['"]([a-z0-9_]+)['"]$/.exec(target);
    if (literal && schemaTables.has(literal[1])) found.push(literal[1]);
    else if (/\.table$/.test(target) && !/^(JOB|PASSWORD|REVISION)/.test(target)) found.push(target);
  }
  return found;
}

describe('hand-written writes of schema tables keep their history', () => {
  const files = filesUnder(ROOT).map((path) => ({ name: relative(ROOT, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));
  const writers = files.filter((f) => schemaWrites(f.text).length > 0);

  it('finds the modules that write schema tables (the scan works)', () => {
    // applicants' registration and 入职, the roster's moves, dealer companies and requests, a settlement's date
    expect(writers.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'applicant/index.ts',
        'applicant/staff-join.ts',
        'staff/changes.ts',
        'dealer/requests.ts',
        'sales/reports.ts',
      ]),
    );
  });

  it('each such module writes revisions, or is exempt for a stated reason', () => {
    const missing = writers
      .filter((f) => !EXEMPT[f.name] && !REVISION_WRITERS.test(f.text))
      .map((f) => `${f.name}: ${schemaWrites(f.text).join(', ')}`);
    expect(missing, 'modules writing schema tables without revisions').toEqual([]);
  });

  it('every exemption still names a module that writes a schema table', () => {
    const names = new Set(writers.map((f) => f.name));
    expect(Object.keys(EXEMPT).filter((n) => !names.has(n))).toEqual([]);
  });
});
