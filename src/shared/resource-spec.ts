/**
 * The resource spec: what one entity JSON Schema means to the server and the web app.
 * Codegen turns every `schemas/*.json` into a ResourceSpec (see `specFromSchema`) and writes
 * them to `src/generated/resources.ts`; the server builds tables and routes from it, the web
 * app builds screens from it. Both sides use the same Chinese titles and messages.
 */
import type { OcrFill } from './ocr.ts';

export type FieldType = 'integer' | 'number' | 'string' | 'boolean';
export type FilterKind = 'eq' | 'like' | 'between' | 'in';
export type InputKind =
  'text' | 'textarea' | 'number' | 'select' | 'radio' | 'switch' | 'date' | 'datetime' | 'cascader' | 'region' | 'upload' | 'hidden';
export type AutoKind = 'id' | 'createTime' | 'updateTime' | 'createUser' | 'updateUser';
export type MaskKind = 'phone' | 'name' | 'id' | 'email' | 'bankCard' | 'address' | 'date';
export type ScopeKind = 'dept' | 'org';

export interface Option {
  value: string | number | boolean;
  label: string;
}

export interface FieldSpec {
  /** property name in JSON (camelCase) */
  name: string;
  /** column name in the table (snake_case unless `x-column` says otherwise) */
  column: string;
  title: string;
  type: FieldType;
  /** JSON Schema format: date, date-time, email... */
  format?: string;
  maxLength?: number;
  required: boolean;
  /** set by the server; never accepted from a client */
  auto?: AutoKind;
  readOnly: boolean;
  default?: unknown;
  input: InputKind;
  options?: Option[];
  /** dictionary name the options come from (api/dictDetail?dictName=) */
  dict?: string;
  /** options come from another resource (id -> label), e.g. departments */
  ref?: {
    resource: string;
    path: string;
    label: string;
    /** deleting the referenced record: `cascade` deletes this record too, `restrict` refuses while one exists */
    onDelete?: 'cascade' | 'restrict';
  };
  /** html: the value is HTML; the list shows its text, one line */
  list?: { order: number; width?: number; editable?: 'radio' | 'switch'; html?: boolean };
  /** data scope: the value is a department id (`dept`) or an organisation id (`org`); a user
   * without the 全部 scope lists, edits, deletes and exports only rows inside their scope */
  scope?: ScopeKind;
  filter?: FilterKind;
  mask?: MaskKind;
  /** x-ocr: a 识别 button beside the input that fills properties from a recognised picture */
  ocr?: OcrFill;
  /**
   * `x-pinyin`: the text is searchable by pinyin (shared/pinyin.ts); `name` for people's names
   * (surname readings), `text` for other names and titles. The field is in `search`.
   */
  pinyin?: 'name' | 'text';
  /** `x-money`: an amount in yuan with at most two decimals, stored as integer cents */
  money?: true;
  /**
   * `x-renamedFrom`: the property's name before a rename. `npm run schema:plan` writes a
   * migration that renames the old column, so the rows keep their values (docs/adding-an-entity.md).
   */
  renamedFrom?: string;
  /**
   * `x-unique: true`: no two records hold the same value (empty values aside). A unique index
   * guards it in the database; create, edit, import and restore answer 409 `<title>“<value>”已存在`.
   */
  unique?: true;
  /** shown in the dialog (false for auto fields and `x-form: false`) */
  form: boolean;
  /** placeholder / help text */
  placeholder?: string;
  /** Chinese message per failing JSON Schema keyword (required, pattern, maxLength...) */
  messages: Record<string, string>;
}

export interface ResourceSpec {
  /** entity name, e.g. sysQuestion */
  name: string;
  table: string;
  /** API base path without leading slash, e.g. api/sysQuestion */
  path: string;
  /** permission module: keys are `${permission}:add|edit|del|download|import` */
  permission: string;
  /**
   * `x-entity.renamedFrom`: the entity's name before a rename. `npm run schema:plan` writes a
   * migration that moves its table, history, recycle bin, pinyin keys, menus and permission keys
   * (with the roles holding them) to the new name; kept until every database has applied it.
   */
  renamedFrom?: string;
  title: string;
  /** default sort, e.g. ['id,desc'] */
  sort: string[];
  pageSize: number;
  dialogWidth: number;
  /** fields matched by the free-text `blurry` query parameter */
  search: string[];
  /** which actions the screen and routes offer */
  actions: Array<'add' | 'edit' | 'del' | 'download' | 'import'>;
  fields: FieldSpec[];
  /**
   * `x-entity.enabledToggle`: the boolean property that `PUT {path}/updateEnabled/{id}` switches
   * (body `{enabled: true|false}`, or empty to flip it); needs the `:edit` key.
   */
  enabledToggle?: string;
  /** `x-entity.queryAll`: `GET {path}/queryAll` answers every matching record as an array (options of selects). */
  queryAll?: boolean;
  /** `x-entity.total`: number properties summed by `GET {path}/total` over the list's filters. */
  total?: string[];
  /** the JSON Schema used to validate a create/update body (auto fields removed) */
  schema: Record<string, unknown>;
  /**
   * Records owned by one applicant (x-entity.ownedByApplicant): the property holding the
   * applicant's id. An applicant token may list, create, update and delete only the records
   * carrying its own id; staff use the permission keys as usual.
   */
  ownedByApplicant?: string;
  /**
   * `x-entity.read`: who may read besides holders of `${permission}:list` (the key of the
   * screen's menu): `"signedIn"` for every signed-in staff member (lookups the shell needs),
   * or further permission keys. Without it reading is closed to the `:list` key.
   */
  read?: string[];
  /**
   * `x-entity.indexes`: composite indexes for lists filtered on several properties at once, each
   * a list of 2-4 properties with an `eq` or `in` filter; each becomes an index on their columns
   * followed by the id, so a page filtered on all of them and sorted by id, and its count, read
   * from the index.
   */
  indexes?: string[][];
  /**
   * `x-unique` at the schema root: rules over several properties together, each a list of 2-4
   * property names whose combination no two records share (a record with any of them empty
   * aside). A rule on one property is `x-unique: true` on the property (FieldSpec.unique).
   */
  unique?: string[][];
  /**
   * Personal information processing (`x-purpose`, `x-retention`, `x-erase` at the schema root),
   * present on every schema holding personal fields (`x-mask`): why the data is kept, for how
   * long, and what erasing a person's record means.
   */
  personal?: PersonalProcessing;
}

/** `x-retention`: aged records are erased by `x-erase`; or why no fixed period applies. */
export type Retention =
  | {
      /** days after `after` */
      days: number;
      /** a date or date-time property, e.g. `updateTime` */
      after: string;
      /** only records whose properties have these values (one value or a list) */
      where?: Record<string, Array<string | number | boolean>>;
    }
  | { none: string };

/** `x-erase`: `delete` removes the record; `anonymize` blanks the listed properties (every x-mask one among them). */
export interface EraseRule {
  mode: 'delete' | 'anonymize';
  /** the properties set to null by `anonymize` (empty for `delete`) */
  fields: string[];
}

export interface PersonalProcessing {
  purpose: string;
  retention: Retention;
  erase: EraseRule;
}

/** Who may read a resource's records (list, queryAll, total, reading by id). */
export interface ReadAccess {
  /** any signed-in staff member */
  signedIn: boolean;
  /** any of these keys; the first is the resource's own `:list` */
  keys: string[];
}

/**
 * The read access of `spec` among `all`: its own `:list` key, the keys its `read` names, the
 * `:list` key of every resource whose form picks one of its records (`x-ref`): the picker lists
 * them, and for a resource owned by applicants (`ownedByApplicant`) the `:list` key of the owner's
 * screen, whose 详情 page shows an applicant's entries. Personal data in what these read stays
 * masked to callers without the key that shows it.
 */
export function readAccess(spec: ResourceSpec, all: ResourceSpec[]): ReadAccess {
  const keys = [permissionKey(spec, 'list'), ...(spec.read ?? []).filter((r) => r !== 'signedIn')];
  for (const other of all) {
    if (other === spec) continue;
    if (other.fields.some((f) => f.ref?.resource === spec.name)) keys.push(permissionKey(other, 'list'));
  }
  const owner = spec.ownedByApplicant ? spec.fields.find((f) => f.name === spec.ownedByApplicant)?.ref?.resource : undefined;
  const ownerSpec = owner ? all.find((s) => s.name === owner) : undefined;
  if (ownerSpec) keys.push(permissionKey(ownerSpec, 'list'));
  return { signedIn: !!spec.read?.includes('signedIn'), keys: [...new Set(keys)] };
}

export const PERMISSION_ACTIONS = ['add', 'edit', 'del', 'download', 'import'] as const;

export function permissionKey(spec: Pick<ResourceSpec, 'permission'>, action: string): string {
  return `${spec.permission}:${action}`;
}

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Every unique rule of a resource as lists of property names: single properties first, then the composite ones. */
export function uniqueRules(spec: Pick<ResourceSpec, 'fields' | 'unique'>): string[][] {
  return [...spec.fields.filter((f) => f.unique).map((f) => [f.name]), ...(spec.unique ?? [])];
}

/** The field that carries the data scope (`x-scope`), if any. */
export function scopeField(spec: ResourceSpec): FieldSpec | undefined {
  return spec.fields.find((f) => f.scope !== undefined);
}

export function fieldByName(spec: ResourceSpec, name: string): FieldSpec | undefined {
  return spec.fields.find((f) => f.name === name);
}

/** Columns of the list screen, in order. */
export function listFields(spec: ResourceSpec): FieldSpec[] {
  return spec.fields.filter((f) => f.list).sort((a, b) => a.list!.order - b.list!.order);
}

/** Label of a value for fields with options (enum labels or dictionary seed). */
export function optionLabel(field: FieldSpec, value: unknown): string | undefined {
  const opt = field.options?.find((o) => String(o.value) === String(value));
  return opt?.label;
}
