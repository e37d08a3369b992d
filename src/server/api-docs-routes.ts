/**
 * What the hand-written routes take and answer, for the OpenAPI document only: the routes
 * themselves check their input in code and send what they build, and these schemas are not
 * given to Fastify (a response schema there would become its serialiser and drop any property
 * it does not list). api-docs.ts merges an entry into the documented route of the same
 * `METHOD /path` (OpenAPI form). `tests/server/api-docs-client.test.ts` checks the routes'
 * real answers against these schemas and type-checks a client generated from them.
 *
 * The tables themselves are in src/server/openapi/, one file per area; this file joins them.
 */
import { AREA_COMPONENTS, AREA_ROUTES } from './openapi/areas.ts';
import { APPLICANT_COMPONENTS, APPLICANT_ROUTES } from './openapi/applicants.ts';
import { DEALER_PORTAL_COMPONENTS, DEALER_PORTAL_ROUTES } from './openapi/dealer-portal.ts';
import { OFFICE_COMPONENTS, OFFICE_ROUTES } from './openapi/office.ts';
import { SESSION_COMPONENTS, SESSION_ROUTES } from './openapi/session.ts';
import { SYSTEM_TABLE_COMPONENTS, SYSTEM_TABLE_ROUTES } from './openapi/system-tables.ts';
import { TABLE_BIN_ROUTES, TABLE_HISTORY_ROUTES } from './openapi/table-history.ts';
import { TREE_COMPONENTS, TREE_ROUTES } from './openapi/trees.ts';
import type { Json } from './openapi/shapes.ts';

/** Schemas the routes refer to (`#/components/schemas/<name>`). */
export const HAND_WRITTEN_COMPONENTS: Record<string, Json> = {
  ...SESSION_COMPONENTS,
  ...SYSTEM_TABLE_COMPONENTS,
  ...DEALER_PORTAL_COMPONENTS,
  ...OFFICE_COMPONENTS,
  ...TREE_COMPONENTS,
  ...APPLICANT_COMPONENTS,
  ...AREA_COMPONENTS,
};

/** Per route (`METHOD /openapi/path`): summary, querystring, body and answers by status. */
export const HAND_WRITTEN_ROUTES: Record<string, Json> = {
  ...TABLE_HISTORY_ROUTES,
  ...TABLE_BIN_ROUTES,
  ...SESSION_ROUTES,
  ...SYSTEM_TABLE_ROUTES,
  ...DEALER_PORTAL_ROUTES,
  ...OFFICE_ROUTES,
  ...TREE_ROUTES,
  ...APPLICANT_ROUTES,
  ...AREA_ROUTES,
};
