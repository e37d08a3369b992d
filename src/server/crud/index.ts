/**
 * The schema-driven CRUD core: routes per resource spec and the services behind them, for
 * hand-written modules that need the same reads and writes.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { registerCrudRoutes } from './routes.ts';
import { registerCapabilityRoutes } from './capabilities.ts';
import { readAccess } from '../../shared/resource-spec.ts';
import { dependentsOf } from './repository.ts';
import { registerTemplateRoute } from './sheets/import-template.ts';
import { registerHistoryRoutes } from './history/history-routes.ts';

export { registerCrudRoutes, positiveId, crudWriteHandlers } from './routes.ts';
export { parseListQuery, MAX_PAGE_SIZE, type ListParams } from './query/query.ts';
export {
  fieldAccess,
  dealerFieldAccess,
  staffFieldAccess,
  assertQueryable,
  maskedFieldRefused,
  FULL_ACCESS,
  type FieldAccess,
} from './access/field-access.ts';
export {
  listPage,
  pageQuery,
  filteredQuery,
  findById,
  createRecord,
  updateRecord,
  deleteRecords,
  insertAll,
  dependentsOf,
  type Dependent,
} from './repository.ts';
export { countMatching, countsSettled, tableChanged, COUNT_CAP, COUNT_TTL_MS, MAX_STALE_MS, SQLITE_COUNT_TTL_MS } from './query/count.ts';
export { checkRecord } from './validation.ts';
export {
  assertReadable,
  assertRecordsInScope,
  oneIdRead,
  scopedParams,
  storedScopeValues,
  OUT_OF_SCOPE,
  RECORD_NOT_FOUND,
} from './access/scope.ts';
export { sheetFields, exportFileName } from './sheets/spreadsheet.ts';
export { rowToRecord, recordToRow } from './values.ts';
export { writePinyinKeys, rewritePinyinKeys } from './pinyin/pinyin-search.ts';
export { setRecordHooks, recordHooks, type RecordHooks } from './hooks.ts';

/** Routes for every spec. */
export function registerResources(app: FastifyInstance, specs: ResourceSpec[]): void {
  for (const spec of specs) {
    const read = readAccess(spec, specs);
    registerCrudRoutes(app, spec, dependentsOf(spec, specs), read);
    registerCapabilityRoutes(app, spec, read);
    registerTemplateRoute(app, spec, specs);
    registerHistoryRoutes(app, spec, specs, read);
  }
}
export { addRecordRule } from './record-rules.ts';
