/**
 * Staff roster area (员工花名册, schema `staff`, `api/staff`): the record rules of every write,
 * the look-ups, 调岗/离职 with their history, the WeCom member calls and the demo data.
 * See docs/reference/staff-roster.md.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { ensureTables } from '../../auth/tables.ts';
import { addRecordRule, setRecordHooks, type RecordHooks } from '../../crud/index.ts';
import { badRequest } from '../../errors.ts';
import type { RecordRule } from '../../crud/record-rules.ts';
import { WecomContactsApi, WecomDirectoryApi, type WecomContacts, type WecomDirectory } from '../../providers/wecom.ts';
import { registerStaffChanges } from './changes.ts';
import { seedStaffDemo } from './demo.ts';
import { registerStaffLookups } from './lookups.ts';
import { staffRecordProblem, statusChangeProblem } from './rules.ts';
import { STAFF_TABLES } from './tables.ts';
import { registerWecomMemberRoutes } from './wecom-members.ts';
import { registerWecomDepartmentRoutes } from './wecom-departments.ts';

export { companyOf, STAFF_MESSAGES } from './rules.ts';

/** one rule per roster spec, however many apps a process builds (rules are kept per resource name) */
const rules = new WeakMap<ResourceSpec, RecordRule>();
const updateHooks = new WeakMap<ResourceSpec, RecordHooks>();

export interface StaffAreaOptions {
  /** WeCom member management (default: the WeCom API of the configuration) */
  wecom?: WecomContacts;
  /** WeCom departments for 部门管理 (default: the WeCom API of the configuration) */
  wecomDirectory?: WecomDirectory;
}

export async function registerStaffArea(app: FastifyInstance, specs: ResourceSpec[], options: StaffAreaOptions = {}): Promise<void> {
  const staff = specs.find((s) => s.name === 'staff');
  if (!staff) return;
  const jpType = specs.find((s) => s.name === 'jpType');
  await ensureTables(app.database.db, app.database.dialect, STAFF_TABLES);
  let rule = rules.get(staff);
  if (!rule) {
    rule = (record, database, shared) => staffRecordProblem(database.db, staff, jpType, record, shared);
    rules.set(staff, rule);
  }
  addRecordRule('staff', rule);
  let hooks = updateHooks.get(staff);
  if (!hooks) {
    hooks = {
      async beforeWrite({ app: current, mode, record }) {
        if (mode !== 'update') return;
        const problem = await statusChangeProblem(current.database.db, staff, record);
        if (problem) throw badRequest(problem);
      },
    };
    updateHooks.set(staff, hooks);
  }
  setRecordHooks('staff', hooks);
  registerStaffLookups(app, staff, jpType);
  registerStaffChanges(app, staff, jpType);
  registerWecomMemberRoutes(app, staff, options.wecom ?? new WecomContactsApi(app.config));
  registerWecomDepartmentRoutes(app, staff, options.wecomDirectory ?? new WecomDirectoryApi(app.config));
  await seedStaffDemo(app, staff, jpType);
}
