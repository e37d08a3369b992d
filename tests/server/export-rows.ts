/**
 * Shared set-up of the export tests that read the feedback table through `exportStream`: an app
 * whose pool has two connections (a connection kept by a stopped export would leave it short at
 * once), `rows` feedback rows titled `prefix` + a four-digit number, and the list parameters of an
 * unpaged export as admin.
 */
import { afterAll, beforeAll } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { FULL_ACCESS } from '../../src/server/crud/access/field-access.ts';
import { parseListQuery } from '../../src/server/crud/query/query.ts';
import type { StartApp, TestApp } from './helpers.ts';

export const spec = resourceByName.sysQuestion;

export const exportParams = (query: Record<string, string> = {}) => parseListQuery(spec, query, FULL_ACCESS, { paging: false });

/** Starts the app before the file's tests and closes it after them; `app()` is the running one. */
export function withExportRows(start: StartApp, rows: number, prefix: string): () => TestApp {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await start({ databasePoolSize: 2 });
    await insertAll(
      t.app.database,
      spec,
      Array.from({ length: rows }, (_, i) => ({
        userType: '员工',
        model: '其他',
        title: `${prefix}${String(i).padStart(4, '0')}`,
        content: `row ${i}`,
        status: i % 3 === 0,
        enabled: true,
      })),
    );
  });
  afterAll(async () => t?.close());
  return () => {
    if (!t) throw new Error('the app has not started');
    return t;
  };
}
