/**
 * 查找地区, above the area picker's wheels: typing characters or pinyin (bj, beijing, 重庆 by cq
 * and zq) lists the provinces, cities and districts found by the shared pinyin rule, each with
 * its path and the matched characters marked; choosing one turns the wheels to it.
 */
import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { citiesOf, countiesOf, provinces, type Region } from '../../shared/regions.ts';
import { Highlight } from '../components/pinyin/Highlight.tsx';
import { usePinyinMatcher, type TextMatcher } from '../components/pinyin/usePinyin.ts';
import { MUTED_TEXT } from '../common/palette.ts';
import type { AreaValue } from './areaValue.ts';

/** A region with the names of the levels above it (a city under a same-named province has none shown). */
export interface RegionEntry {
  region: Region;
  /** province, city, county codes the wheels turn to */
  value: AreaValue;
  /** the names above it, e.g. ['河南省', '郑州市'] for 中原区 */
  above: string[];
}

const MAX_FOUND = 50;

/** Every province, city and county, in code order by level (provinces first), optionally of one province. */
export function regionEntries(onlyProvince?: string): RegionEntry[] {
  const provinceEntries: RegionEntry[] = [];
  const cityEntries: RegionEntry[] = [];
  const countyEntries: RegionEntry[] = [];
  for (const p of provinces()) {
    if (onlyProvince && p.code !== onlyProvince) continue;
    const cities = citiesOf(p.code);
    const firstCity = cities[0]?.code ?? '';
    provinceEntries.push({
      region: p,
      value: { province: p.code, city: firstCity, county: countiesOf(firstCity)[0]?.code ?? '' },
      above: [],
    });
    for (const c of cities) {
      const counties = countiesOf(c.code);
      // 北京市 / 北京市: the city of a municipality is the province again
      if (c.name !== p.name)
        cityEntries.push({ region: c, value: { province: p.code, city: c.code, county: counties[0]?.code ?? '' }, above: [p.name] });
      const cityAbove = c.name === p.name ? [p.name] : [p.name, c.name];
      for (const d of counties)
        countyEntries.push({ region: d, value: { province: p.code, city: c.code, county: d.code }, above: cityAbove });
    }
  }
  return [...provinceEntries, ...cityEntries, ...countyEntries];
}

/** The entries whose name the query finds by the rule, at most MAX_FOUND. */
export function findRegions(entries: RegionEntry[], query: string, match: TextMatcher): RegionEntry[] {
  if (!query.trim()) return [];
  const out: RegionEntry[] = [];
  for (const e of entries) {
    if (match(e.region.name, query)) out.push(e);
    if (out.length >= MAX_FOUND) break;
  }
  return out;
}

export function AreaSearch({ onlyProvince, onPick }: { onlyProvince?: string; onPick: (value: AreaValue) => void }) {
  const [query, setQuery] = useState('');
  const match = usePinyinMatcher('text');
  const entries = useMemo(() => regionEntries(onlyProvince), [onlyProvince]);
  const found = useMemo(() => findRegions(entries, query, match), [entries, query, match]);
  const pick = (e: RegionEntry) => {
    setQuery('');
    onPick(e.value);
  };
  return (
    <Box sx={{ px: 2, pb: 1 }}>
      <TextField
        size="small"
        fullWidth
        value={query}
        placeholder="输入地名或拼音查找，如 bj、beijing"
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && found[0]) {
            e.preventDefault();
            pick(found[0]);
          }
        }}
        slotProps={{ htmlInput: { 'aria-label': '查找地区' } }}
      />
      {query.trim() ? (
        <Box role="listbox" aria-label="查找结果" sx={{ maxHeight: 200, overflowY: 'auto', mt: 0.5 }}>
          {found.length === 0 ? (
            <Box sx={{ p: 1, color: MUTED_TEXT, fontSize: 14 }}>没有匹配的地区</Box>
          ) : (
            found.map((e) => (
              <Box
                key={e.region.code}
                role="option"
                aria-label={[...e.above, e.region.name].join(' / ')}
                aria-selected={false}
                tabIndex={0}
                onClick={() => pick(e)}
                onKeyDown={(k) => {
                  if (k.key === 'Enter' || k.key === ' ') {
                    k.preventDefault();
                    pick(e);
                  }
                }}
                sx={{ py: 1, px: 1, fontSize: 15, cursor: 'pointer', borderBottom: '1px solid #ebedf0', '&:hover': { bgcolor: '#f7f8fa' } }}
              >
                {e.above.length ? <span style={{ color: MUTED_TEXT }}>{`${e.above.join(' / ')} / `}</span> : null}
                <Highlight text={e.region.name} range={match(e.region.name, query)} />
              </Box>
            ))
          )}
        </Box>
      ) : null}
    </Box>
  );
}
