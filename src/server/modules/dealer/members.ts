/**
 * Official-account members (公众号会员), looked up by mobile when a dealer registers a customer
 * and again when it submits a demand (to read the current subscribe flag).
 * MemberProvider is the seam for the official account's own member service; without one the
 * product answers from the staff-managed table dbc_member (schema dbcMember), which the first
 * start fills with a small demo set when demo data is on.
 */
import type { Database } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { resourceByName } from '../../../generated/resources.ts';
import { writePinyinKeys } from '../../crud/pinyin/pinyin-search.ts';
import { plainText } from '../../../shared/text.ts';

export interface Member {
  mobile: string;
  surname: string;
  /** 0 female, 1 male */
  sex: number;
  mid: string | null;
  idno: string | null;
  birthday: string | null;
  /** 0 未注册, 1 客户, 2 员工, 3 黑卡, 4 天使 */
  status: number;
  /** 1 follows the official account, 0 not */
  subscribe: number;
}

export interface MemberProvider {
  /** The registered member with this mobile, or null (unknown, or status 0 未注册). */
  findByMobile(mobile: string): Promise<Member | null>;
}

export const NOT_REGISTERED = '您好您还未注册公众号账户请注册后再来';

const dateText = (v: unknown): string | null => {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0');
    return `${v.getFullYear()}-${p(v.getMonth() + 1)}-${p(v.getDate())}`;
  }
  return plainText(v).slice(0, 10);
};

export function tableMemberProvider(database: Database): MemberProvider {
  return {
    async findByMobile(mobile) {
      const row = await database.db
        .selectFrom('dbc_member')
        .select(['mobile', 'surname', 'sex', 'mid', 'idno', 'birthday', 'status', 'subscribe'])
        .where('mobile', '=', mobile)
        .orderBy('id', 'desc')
        .$castTo<{
          mobile: string;
          surname: string | null;
          sex: number | null;
          mid: string | null;
          idno: string | null;
          birthday: unknown;
          status: number;
          subscribe: number | null;
        }>()
        .executeTakeFirst();
      if (!row || Number(row.status) === 0) return null;
      return {
        mobile: String(row.mobile),
        surname: String(row.surname ?? ''),
        sex: Number(row.sex ?? 1),
        mid: row.mid ?? null,
        idno: row.idno ?? null,
        birthday: dateText(row.birthday),
        status: Number(row.status),
        subscribe: Number(row.subscribe) === 1 ? 1 : 0,
      };
    },
  };
}

/** Demo members (fictitious numbers and ID numbers with valid check digits). */
export const DEMO_MEMBERS: Array<Omit<Member, 'mid'> & { mid: string }> = [
  {
    mobile: '13800000001',
    surname: '张伟',
    sex: 1,
    mid: 'M0001',
    idno: '410102199003071230',
    birthday: '1990-03-07',
    status: 1,
    subscribe: 1,
  },
  {
    mobile: '13800000002',
    surname: '李娜',
    sex: 0,
    mid: 'M0002',
    idno: '410102199208150020',
    birthday: '1992-08-15',
    status: 1,
    subscribe: 1,
  },
  {
    mobile: '13800000003',
    surname: '王强',
    sex: 1,
    mid: 'M0003',
    idno: '410105198512120015',
    birthday: '1985-12-12',
    status: 2,
    subscribe: 0,
  },
  {
    mobile: '13800000004',
    surname: '赵敏',
    sex: 0,
    mid: 'M0004',
    idno: '410103199507200020',
    birthday: '1995-07-20',
    status: 4,
    subscribe: 1,
  },
];

export async function seedDemoMembers(database: Database): Promise<void> {
  const have = await database.db.selectFrom('dbc_member').select('id').limit(1).executeTakeFirst();
  if (have) return;
  const now = nowText();
  const rows = await database.db
    .insertInto('dbc_member')
    .values(DEMO_MEMBERS.map((m) => ({ ...m, create_time: now })))
    .returning(['id', 'surname'])
    .execute();
  // seeded after the migration filled the keys: the names' pinyin keys come with the rows
  await writePinyinKeys(database.db, resourceByName.dbcMember, rows);
}
