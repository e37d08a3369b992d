/**
 * The area tables of the hand-written routes, merged into HAND_WRITTEN_ROUTES and
 * HAND_WRITTEN_COMPONENTS (api-docs-routes.ts). One file per area, beside the module it describes.
 */
import { ACCOUNT_COMPONENTS, ACCOUNT_ROUTES } from './account.ts';
import { BACKUP_COMPONENTS, BACKUP_ROUTES } from './backups.ts';
import { SALES_ROUTES } from './sales.ts';
import { STAFF_ROUTES } from './staff.ts';
import { DEALER_STAFF_ROUTES } from './dealer.ts';
import { UPLOAD_COMPONENTS, UPLOAD_ROUTES } from './uploads.ts';
import { HOME_COMPONENTS, HOME_ROUTES } from './home.ts';
import { PRIVACY_COMPONENTS, PRIVACY_ROUTES } from './privacy.ts';
import { json, object, type Json } from './shapes.ts';

export const AREA_COMPONENTS: Record<string, Json> = {
  ...ACCOUNT_COMPONENTS,
  ...BACKUP_COMPONENTS,
  ...HOME_COMPONENTS,
  ...PRIVACY_COMPONENTS,
  ...UPLOAD_COMPONENTS,
};

/** The document's own route. */
const DOCS_ROUTES: Record<string, Json> = {
  'GET /api/docs/openapi.json': {
    summary: '本文档（OpenAPI 3.1）',
    response: {
      200: json(
        object(
          { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
          ['openapi', 'info', 'paths'],
          {
            additionalProperties: true,
          },
        ),
        'OpenAPI 3.1 文档',
      ),
    },
  },
};

export const AREA_ROUTES: Record<string, Json> = {
  ...ACCOUNT_ROUTES,
  ...BACKUP_ROUTES,
  ...HOME_ROUTES,
  ...PRIVACY_ROUTES,
  ...SALES_ROUTES,
  ...UPLOAD_ROUTES,
  ...STAFF_ROUTES,
  ...DEALER_STAFF_ROUTES,
  ...DOCS_ROUTES,
};
