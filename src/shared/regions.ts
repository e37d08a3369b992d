/**
 * GB/T 2260 administrative region codes (six digits) from the maintained `@vant/area-data`
 * package: provinces end in 0000 (台湾省 710000, 香港 810000, 澳门 820000 included), cities
 * end in 00, counties are the rest. Used by the server to check submitted regions and by the
 * applicant pages (loaded on demand there, never by the sign-in page or the console shell).
 */
import { areaList } from '@vant/area-data';

export interface Region {
  code: string;
  name: string;
}

export interface RegionPath {
  province?: Region;
  city?: Region;
  county?: Region;
}

const PROVINCES = areaList.province_list;
const CITIES = areaList.city_list;
const COUNTIES = areaList.county_list;

const CODE = /^\d{6}$/;

const toRegions = (table: Record<string, string>, prefix: string): Region[] =>
  Object.keys(table)
    .filter((code) => code.startsWith(prefix))
    .sort()
    .map((code) => ({ code, name: table[code] }));

export function provinces(): Region[] {
  return toRegions(PROVINCES, '');
}

/** Cities of a province code (its first two digits). */
export function citiesOf(provinceCode: string): Region[] {
  return CODE.test(provinceCode) ? toRegions(CITIES, provinceCode.slice(0, 2)) : [];
}

/** Counties (districts) of a city code (its first four digits). */
export function countiesOf(cityCode: string): Region[] {
  return CODE.test(cityCode) ? toRegions(COUNTIES, cityCode.slice(0, 4)) : [];
}

export function provinceName(code: string): string | undefined {
  return PROVINCES[code];
}
export function cityName(code: string): string | undefined {
  return CITIES[code];
}
export function countyName(code: string): string | undefined {
  return COUNTIES[code];
}

/**
 * Province, city and county of a six-digit code (e.g. the first six digits of an ID number).
 * A county code answers all three; a city code the province and city; unknown parts are left out.
 */
export function resolveRegion(code: string): RegionPath {
  if (!CODE.test(code)) return {};
  const p = `${code.slice(0, 2)}0000`;
  const c = `${code.slice(0, 4)}00`;
  const out: RegionPath = {};
  if (PROVINCES[p]) out.province = { code: p, name: PROVINCES[p] };
  if (CITIES[c]) out.city = { code: c, name: CITIES[c] };
  if (COUNTIES[code]) out.county = { code, name: COUNTIES[code] };
  return out;
}

/** The code of a province / city / county by names (the county's code when all three are given). */
export function regionCode(province: string, city?: string, county?: string): string | undefined {
  const p = Object.keys(PROVINCES).find((k) => PROVINCES[k] === province);
  if (!p || city === undefined) return p;
  const c = citiesOf(p).find((r) => r.name === city)?.code;
  if (!c || county === undefined) return c;
  return countiesOf(c).find((r) => r.name === county)?.code;
}

/** Whether the three codes name a county inside that city inside that province. */
export function isRegionTriple(province: unknown, city: unknown, county: unknown): boolean {
  if (typeof province !== 'string' || typeof city !== 'string' || typeof county !== 'string') return false;
  if (!PROVINCES[province] || !CITIES[city] || !COUNTIES[county]) return false;
  return city.slice(0, 2) === province.slice(0, 2) && county.slice(0, 4) === city.slice(0, 4);
}

/** "河南省/郑州市/中原区" for three codes; unknown codes are left out. */
export function regionText(province?: unknown, city?: unknown, county?: unknown): string {
  const parts = [
    typeof province === 'string' ? PROVINCES[province] : undefined,
    typeof city === 'string' ? CITIES[city] : undefined,
    typeof county === 'string' ? COUNTIES[county] : undefined,
  ];
  return parts.filter(Boolean).join('/');
}

/** The area picker's default: 河南省 / 郑州市 / 中原区. */
export const DEFAULT_REGION = { province: '410000', city: '410100', county: '410102' } as const;
