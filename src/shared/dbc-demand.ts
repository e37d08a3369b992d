/**
 * The car-use demand form (用车需求): its rules with the spec's Chinese messages, and the total
 * price, shared by the dealer form and the server (which checks every rule again and computes
 * countPrice itself; a price sent by a client is ignored).
 *
 * countPrice (合计费用, what the customer pays when the car is handed over)
 *   = zfts (自费天数) × daily price (DBC_DAILY_PRICE, default 200 元/天) + foregiftPrice (押金).
 * Free days (mfts) cost the customer nothing; the labour fee (wxgsf) is the repair's estimate and
 * is not charged to the customer here.
 */
import { isPlate, isVin } from './validators.ts';

export const FOREGIFT_CHOICES = [2000, 4000] as const;
export const DEFAULT_DAILY_PRICE = 200;
/** the car type is at least brand/series/model */
export const CAR_TYPE_MIN_LEVELS = 3;
export const CAR_TYPE_MAX_LEVELS = 6;
/** the brand-tree level the car-type cascader must reach (4: a configuration); the server checks it */
export const CAR_TYPE_LEVEL = 4;

export const DEMAND_FIELDS = [
  'userCarType',
  'userCph',
  'userVin',
  'bah',
  'wxgsf',
  'wxts',
  'startTime',
  'endTime',
  'mfts',
  'zfts',
  'foregiftPrice',
  'createUser',
] as const;
export type DemandField = (typeof DEMAND_FIELDS)[number];

export const DEMAND_LABELS: Record<DemandField | 'compId' | 'duId', string> = {
  compId: '经销商',
  duId: '客户',
  userCarType: '车型',
  userCph: '车牌号',
  userVin: '底盘号',
  bah: '报案号',
  wxgsf: '预估工时费',
  wxts: '预估维修天数',
  startTime: '开始时间',
  endTime: '结束时间',
  mfts: '免费天数',
  zfts: '自费天数',
  foregiftPrice: '押金',
  createUser: '申请人',
};

export const DEMAND_MESSAGES = {
  plate: '请输入正确的车牌号',
  vin: '请输入正确的底盘号',
  labourFee: '请输入正确的工时费',
  positiveInteger: '请输入正整数',
  foregift: '押金只能是2000或4000',
  endAfterStart: '结束时间必须晚于开始时间',
  dateTime: '时间格式不正确，应为yyyy-MM-dd HH:mm:ss',
  carType: '请选择完整的车型（品牌/车系/车型）',
  notFollowing: '客户还未关注公众号，请先关注公众号',
} as const;

export interface DemandValues {
  userCarType: string;
  userCph: string;
  userVin: string;
  bah: string;
  wxgsf: number;
  wxts: number;
  startTime: string;
  endTime: string;
  mfts: number;
  zfts: number;
  foregiftPrice: number;
  createUser: string;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** 'YYYY-MM-DD HH:mm:ss' from a date or date-time text (a date alone means 00:00:00); null when invalid. */
export function normalizeDemandTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h = '00', mi = '00', s = '00'] = m.slice(1);
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (date.getFullYear() !== Number(y) || date.getMonth() !== Number(mo) - 1 || date.getDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

/** Brand/series/model path joined by '/': at least CAR_TYPE_MIN_LEVELS non-empty parts. */
export function isCarTypePath(value: string): boolean {
  const parts = value.split('/');
  return (
    parts.length >= CAR_TYPE_MIN_LEVELS &&
    parts.length <= CAR_TYPE_MAX_LEVELS &&
    parts.every((p) => p.trim() !== '' && p === p.trim() && [...p].length <= 50)
  );
}

function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

function positiveInt(v: unknown): number | null {
  const n = numberOf(v);
  return n !== null && Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/**
 * Checks a demand form. Answers the clean values, or the message of every failing field
 * (in form order; the server answers the first).
 */
export function checkDemand(
  input: Record<string, unknown>,
): { ok: true; values: DemandValues } | { ok: false; errors: Partial<Record<DemandField, string>> } {
  const errors: Partial<Record<DemandField, string>> = {};
  const out: Partial<DemandValues> = {};
  for (const f of DEMAND_FIELDS) {
    if (isBlank(input[f])) errors[f] = `${DEMAND_LABELS[f]}不能为空`;
  }
  const text = (f: DemandField) =>
    typeof input[f] === 'string' ? input[f].trim() : typeof input[f] === 'number' ? String(input[f]) : null;

  if (!errors.userCarType) {
    const t = text('userCarType');
    if (t === null || !isCarTypePath(t)) errors.userCarType = DEMAND_MESSAGES.carType;
    else out.userCarType = t;
  }
  if (!errors.userCph) {
    const t = text('userCph')?.toUpperCase() ?? '';
    if (!isPlate(t)) errors.userCph = DEMAND_MESSAGES.plate;
    else out.userCph = t;
  }
  if (!errors.userVin) {
    const t = text('userVin')?.toUpperCase() ?? '';
    if (!isVin(t)) errors.userVin = DEMAND_MESSAGES.vin;
    else out.userVin = t;
  }
  if (!errors.bah) {
    const t = text('bah') ?? '';
    if ([...t].length > 64) errors.bah = '报案号长度不能超过64个字符';
    else out.bah = t;
  }
  if (!errors.wxgsf) {
    const n = numberOf(input.wxgsf);
    if (n === null || n < 0 || n > 99_999_999 || !/^\d+(\.\d{1,2})?$/.test(String(n))) errors.wxgsf = DEMAND_MESSAGES.labourFee;
    else out.wxgsf = n;
  }
  for (const f of ['wxts', 'mfts', 'zfts'] as const) {
    if (errors[f]) continue;
    const n = positiveInt(input[f]);
    if (n === null || n > 9999) errors[f] = DEMAND_MESSAGES.positiveInteger;
    else out[f] = n;
  }
  for (const f of ['startTime', 'endTime'] as const) {
    if (errors[f]) continue;
    const t = normalizeDemandTime(input[f]);
    if (t === null) errors[f] = DEMAND_MESSAGES.dateTime;
    else out[f] = t;
  }
  if (out.startTime && out.endTime && out.endTime <= out.startTime) errors.endTime = DEMAND_MESSAGES.endAfterStart;
  if (!errors.foregiftPrice) {
    const n = numberOf(input.foregiftPrice);
    if (n === null || !(FOREGIFT_CHOICES as readonly number[]).includes(n)) errors.foregiftPrice = DEMAND_MESSAGES.foregift;
    else out.foregiftPrice = n;
  }
  if (!errors.createUser) {
    const t = text('createUser') ?? '';
    if ([...t].length > 32) errors.createUser = '申请人长度不能超过32个字符';
    else out.createUser = t;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, values: out as DemandValues };
}

/** The first message of a failed check, in form order. */
export function firstDemandError(errors: Partial<Record<DemandField, string>>): string {
  for (const f of DEMAND_FIELDS) if (errors[f]) return errors[f];
  return '请求参数错误';
}

/** countPrice = zfts × dailyPrice + foregiftPrice, rounded to cents. */
export function countPrice(values: Pick<DemandValues, 'zfts' | 'foregiftPrice'>, dailyPrice = DEFAULT_DAILY_PRICE): number {
  return Math.round((values.zfts * dailyPrice + values.foregiftPrice) * 100) / 100;
}
