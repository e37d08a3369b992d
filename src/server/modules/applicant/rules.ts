/**
 * Server-side rules of the applicant steps that a JSON Schema cannot say: the registration's
 * ID number (GB 11643 check digit) agreeing with birthday and sex, real region codes, an open
 * posting; the education / work / training entries' date order and referee phone.
 */
import { resourceByName } from '../../../generated/resources.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { educationProblem, ID_CARD_WRONG, trainingProblem, workProblem } from '../../../shared/applicant-rules.ts';
import { isRegionTriple } from '../../../shared/regions.ts';
import { parseIdCard } from '../../../shared/validators.ts';
import { addRecordRule } from '../../crud/index.ts';
import type { Database } from '../../types.ts';
import { plainText } from '../../../shared/text.ts';

export const APPLICANT_MISSING = '应聘人员不存在';
/** entries of one kind per applicant: enough for any career, a bound for scripted floods */
export const MAX_ENTRIES = 30;
export const TOO_MANY_ENTRIES = `每类信息最多填写${MAX_ENTRIES}条`;
export const POSTING_CLOSED = '所选招聘岗位不存在或已停止招聘';

/** The ID number (check digit, birthday, sex) and the two regions of an applicant record. */
export function identityProblem(values: Record<string, unknown>): string | undefined {
  const id = parseIdCard(plainText(values.card ?? ''));
  if (!id) return ID_CARD_WRONG;
  if (values.birthday !== id.birthday) return '出生日期与身份证号码不符';
  if (Number(values.sex) !== id.sex) return '性别与身份证号码不符';
  if (!isRegionTriple(values.cardProvince, values.cardCity, values.cardCounty)) return '请选择正确的户籍所在省市区';
  if (!isRegionTriple(values.nowProvince, values.nowCity, values.nowCounty)) return '请选择正确的现居住省市区';
  return undefined;
}

/** The problem with a registration that passed its schema, or undefined. */
export async function registrationProblem(
  values: Record<string, unknown>,
  database: Database,
  postingSpec: ResourceSpec | undefined,
): Promise<string | undefined> {
  const identity = identityProblem(values);
  if (identity) return identity;
  if (postingSpec) {
    const posting = await database.db
      .selectFrom(postingSpec.table)
      .select('id')
      .where('id', '=', Number(values.staffunZpId))
      .where('enabled', '=', database.dialect === 'postgres' ? (true as never) : (1 as never))
      .executeTakeFirst();
    if (!posting) return POSTING_CLOSED;
  }
  return undefined;
}

async function applicantMobile(database: Database, table: string, id: unknown): Promise<string | null | undefined> {
  const row = await database.db.selectFrom(table).select('mobile').where('id', '=', Number(id)).executeTakeFirst();
  return row ? (row.mobile as string | null) : undefined;
}

/** A new entry (no id yet) beyond MAX_ENTRIES of its kind for the applicant. */
async function tooMany(database: Database, entity: string, record: Record<string, unknown>): Promise<string | undefined> {
  if (record.id !== undefined) return undefined;
  const spec = resourceByName[entity];
  if (!spec?.ownedByApplicant) return undefined;
  const owner = spec.fields.find((f) => f.name === spec.ownedByApplicant)!.column;
  const row = await database.db
    .selectFrom(spec.table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where(owner, '=', Number(record[spec.ownedByApplicant]))
    .executeTakeFirst();
  return Number(row?.n ?? 0) >= MAX_ENTRIES ? TOO_MANY_ENTRIES : undefined;
}

/**
 * Adds the rules to the generic routes: the three applicant-owned resources, a staff edit of
 * an applicant (the same ID and region checks as the registration) and the roster's ID number.
 */
export function addEntryRules(applicantTable: string): void {
  addRecordRule('applicant', (record) => identityProblem(record));
  addRecordRule('staff', (record) => (record.card && !parseIdCard(plainText(record.card)) ? ID_CARD_WRONG : undefined));
  addRecordRule('staffunEducation', async (record, database) => {
    const mobile = await applicantMobile(database, applicantTable, record.staffunId);
    if (mobile === undefined) return APPLICANT_MISSING;
    return educationProblem(record, mobile) ?? tooMany(database, 'staffunEducation', record);
  });
  addRecordRule('staffunWork', async (record, database) => {
    const mobile = await applicantMobile(database, applicantTable, record.staffunId);
    if (mobile === undefined) return APPLICANT_MISSING;
    return workProblem(record, mobile) ?? tooMany(database, 'staffunWork', record);
  });
  addRecordRule('staffunPx', async (record, database) => {
    const mobile = await applicantMobile(database, applicantTable, record.staffunId);
    if (mobile === undefined) return APPLICANT_MISSING;
    return trainingProblem(record) ?? tooMany(database, 'staffunPx', record);
  });
}
