/**
 * How a resource folder (src/web/staff/resources/<name>/) changes pieces of the generated
 * screen. Every member is optional; a plain CRUD entity needs none.
 */
import type { ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';

export interface RecordFormProps {
  spec: ResourceSpec;
  /** the record being edited, undefined when creating */
  record?: RaRecord;
  readOnly: boolean;
  /** shows the stored record after an action outside the form changed it (a WeCom approval sync): the form's values follow */
  replaceRecord?: (record: RaRecord) => void;
}

export interface ResourceOverrides {
  /** replaces the fields inside the create/edit dialog */
  Form?: ComponentType<RecordFormProps>;
  /** form values from a record (or from the create defaults when record is undefined) */
  toForm?: (values: Record<string, unknown>, record?: RaRecord) => Record<string, unknown>;
  /** request body from dialog values, after the generic clean-up */
  toRequest?: (body: Record<string, unknown>, values: Record<string, unknown>, record?: RaRecord) => Record<string, unknown>;
  /** an existing record opens read-only (no save button) */
  readOnlyExisting?: boolean;
  /**
   * A route `#/{name}:{param}` opens the list with this permanent filter; the same values
   * are the defaults of a new record.
   */
  routeParam?: (param: string) => Record<string, unknown>;
  /** extra buttons in each row's action column (inside the row's record context) */
  RowButtons?: ComponentType<{ spec: ResourceSpec }>;
  /** a 详情 link in each row to the record's own page (a console route, e.g. `/applicant/7/show`) */
  detailPath?: (record: RaRecord) => string;
}
