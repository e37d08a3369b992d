import { describe, expect, it } from 'vitest';
import {
  citiesOf,
  cityName,
  countiesOf,
  countyName,
  DEFAULT_REGION,
  isRegionTriple,
  provinceName,
  provinces,
  regionCode,
  regionText,
  resolveRegion,
} from '../../src/shared/regions.ts';

describe('GB/T 2260 region codes', () => {
  it('has the provinces, ending 0000, with the special administrative regions and Taiwan', () => {
    const list = provinces();
    expect(list.length).toBe(34);
    expect(list.every((p) => /^\d{2}0000$/.test(p.code))).toBe(true);
    expect(provinceName('410000')).toBe('河南省');
    expect(provinceName('810000')).toBe('香港特别行政区');
    expect(provinceName('820000')).toBe('澳门特别行政区');
    expect(provinceName('710000')).toBe('台湾省');
    expect(provinceName('410100')).toBeUndefined();
  });

  it('lists the cities (ending 00) of a province and the counties of a city', () => {
    const cities = citiesOf('410000');
    expect(cities[0]).toEqual({ code: '410100', name: '郑州市' });
    expect(cities.every((c) => c.code.startsWith('41') && c.code.endsWith('00'))).toBe(true);
    expect(citiesOf('810000').map((c) => c.name)).toEqual(['香港岛', '九龙', '新界']);
    expect(countiesOf('410100').map((c) => c.name)).toEqual(expect.arrayContaining(['中原区', '二七区', '金水区']));
    expect(countiesOf('410100').every((c) => c.code.startsWith('4101'))).toBe(true);
    expect(citiesOf('41')).toEqual([]);
    expect(countiesOf('abcdef')).toEqual([]);
    expect(cityName('410100')).toBe('郑州市');
    expect(countyName('410102')).toBe('中原区');
  });

  it('resolves a code (e.g. the first six digits of an ID) to province, city and county, and names back to the code', () => {
    expect(resolveRegion('410102')).toEqual({
      province: { code: '410000', name: '河南省' },
      city: { code: '410100', name: '郑州市' },
      county: { code: '410102', name: '中原区' },
    });
    expect(resolveRegion('410100')).toEqual({ province: { code: '410000', name: '河南省' }, city: { code: '410100', name: '郑州市' } });
    expect(resolveRegion('419999').county).toBeUndefined();
    expect(resolveRegion('4101')).toEqual({});
    expect(regionCode('河南省')).toBe('410000');
    expect(regionCode('河南省', '郑州市')).toBe('410100');
    expect(regionCode('河南省', '郑州市', '金水区')).toBe('410105');
    expect(regionCode('河南省', '杭州市')).toBeUndefined();
    expect(regionCode('火星')).toBeUndefined();
  });

  it('checks that a county lies in the city and the city in the province', () => {
    expect(isRegionTriple('410000', '410100', '410102')).toBe(true);
    expect(isRegionTriple('410000', '420100', '420102')).toBe(false);
    expect(isRegionTriple('410000', '410100', '420102')).toBe(false);
    expect(isRegionTriple('410000', '410100', '999999')).toBe(false);
    expect(isRegionTriple(410000, '410100', '410102')).toBe(false);
    expect(regionText('410000', '410100', '410102')).toBe('河南省/郑州市/中原区');
    expect(regionText(undefined, null, '')).toBe('');
  });

  it('defaults to 河南省 / 郑州市 / 中原区', () => {
    expect(regionText(DEFAULT_REGION.province, DEFAULT_REGION.city, DEFAULT_REGION.county)).toBe('河南省/郑州市/中原区');
  });
});
