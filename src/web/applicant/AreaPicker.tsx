/**
 * Area picker: province / city / district wheels in a bottom sheet with 取消 and 完成.
 * Defaults to 河南省 / 郑州市 / 中原区; mode 3 fixes the province to 河南省 (its wheel shows
 * only Henan and does not move). A wheel selects the row that stops in its middle after a
 * scroll, or the row tapped; from the keyboard, a focused wheel moves by the arrow keys
 * (Home and End to its ends). Above the wheels, 查找地区 finds a region by characters or pinyin
 * (AreaSearch.tsx) and turns the wheels to it.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Typography from '@mui/material/Typography';
import { citiesOf, countiesOf, DEFAULT_REGION, provinces, type Region } from '../../shared/regions.ts';
import { MUTED_TEXT } from '../common/palette.ts';
import { AreaSearch } from './AreaSearch.tsx';

import type { AreaValue } from './areaValue.ts';

export type { AreaValue };

const ITEM = 40;
const VISIBLE = 5;
export const HENAN = '410000';

function Wheel({
  label,
  items,
  value,
  onChange,
  fixed,
}: {
  label: string;
  items: Region[];
  value: string;
  onChange: (code: string) => void;
  fixed?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** when the user last moved the wheel: scrolls the page makes itself (opening, snapping) pick nothing */
  const touched = useRef(0);
  const byUser = () => {
    touched.current = Date.now();
  };
  const index = Math.max(
    0,
    items.findIndex((r) => r.code === value),
  );
  useEffect(() => {
    const el = ref.current;
    if (el && Math.abs(el.scrollTop - index * ITEM) > 2) el.scrollTop = index * ITEM;
  }, [index, items]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const idBase = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (fixed || items.length === 0) return;
    const step: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: VISIBLE,
      PageUp: -VISIBLE,
      Home: -items.length,
      End: items.length,
    };
    const by = step[event.key];
    if (by === undefined) return;
    event.preventDefault();
    const next = items[Math.min(items.length - 1, Math.max(0, index + by))];
    if (next && next.code !== value) onChange(next.code);
  };
  const onScroll = () => {
    if (fixed || Date.now() - touched.current > 1500) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const el = ref.current;
      if (!el) return;
      const picked = items[Math.min(items.length - 1, Math.max(0, Math.round(el.scrollTop / ITEM)))];
      if (picked && picked.code !== value) onChange(picked.code);
    }, 150);
  };
  return (
    <Box sx={{ flex: 1, position: 'relative', minWidth: 0 }}>
      <Box
        aria-hidden
        sx={{
          position: 'absolute',
          left: 4,
          right: 4,
          top: ITEM * 2,
          height: ITEM,
          borderTop: '1px solid #ebedf0',
          borderBottom: '1px solid #ebedf0',
          pointerEvents: 'none',
        }}
      />
      <Box
        ref={ref}
        role="listbox"
        aria-label={label}
        aria-disabled={fixed || undefined}
        aria-activedescendant={items[index] ? `${idBase}-${items[index].code}` : undefined}
        tabIndex={fixed ? undefined : 0}
        onKeyDown={onKeyDown}
        onScroll={onScroll}
        onWheel={byUser}
        onTouchMove={byUser}
        onPointerDown={byUser}
        sx={{
          height: ITEM * VISIBLE,
          overflowY: fixed ? 'hidden' : 'auto',
          scrollSnapType: 'y mandatory',
          scrollbarWidth: 'none',
          '&::-webkit-scrollbar': { display: 'none' },
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        <Box sx={{ height: ITEM * 2 }} />
        {items.map((r) => {
          const selected = r.code === value;
          return (
            <Box
              key={r.code}
              id={`${idBase}-${r.code}`}
              role="option"
              aria-selected={selected}
              onClick={() => !fixed && onChange(r.code)}
              sx={{
                height: ITEM,
                lineHeight: `${ITEM}px`,
                textAlign: 'center',
                // the middle row is the choice: row i sits there when scrollTop is i rows
                scrollSnapAlign: 'center',
                fontSize: 15,
                px: 0.5,
                whiteSpace: 'nowrap',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                color: selected ? '#323233' : MUTED_TEXT,
                fontWeight: selected ? 600 : 400,
                cursor: fixed ? 'default' : 'pointer',
              }}
            >
              {r.name}
            </Box>
          );
        })}
        <Box sx={{ height: ITEM * 2 }} />
      </Box>
    </Box>
  );
}

/** A complete value starting from `value` (or the default), province fixed in mode 3. */
export function initialArea(value: Partial<AreaValue> | undefined, mode?: number): AreaValue {
  const province = mode === 3 ? HENAN : value?.province || DEFAULT_REGION.province;
  const cities = citiesOf(province);
  const city = cities.some((c) => c.code === value?.city)
    ? value!.city!
    : province === DEFAULT_REGION.province
      ? DEFAULT_REGION.city
      : (cities[0]?.code ?? '');
  const counties = countiesOf(city);
  const county = counties.some((c) => c.code === value?.county)
    ? value!.county!
    : city === DEFAULT_REGION.city
      ? DEFAULT_REGION.county
      : (counties[0]?.code ?? '');
  return { province, city, county };
}

export interface AreaPickerProps {
  open: boolean;
  title?: string;
  value?: Partial<AreaValue>;
  /** 3: the province is fixed to 河南省 */
  mode?: number;
  onConfirm: (value: AreaValue) => void;
  onCancel: () => void;
}

export function AreaPicker({ open, title = '请选择地区', value, mode, onConfirm, onCancel }: AreaPickerProps) {
  const [draft, setDraft] = useState<AreaValue>(() => initialArea(value, mode));
  // each opening starts from the current value
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (open) setDraft(initialArea(value, mode));
  }
  const allProvinces = useMemo(() => (mode === 3 ? provinces().filter((p) => p.code === HENAN) : provinces()), [mode]);
  const cities = useMemo(() => citiesOf(draft.province), [draft.province]);
  const counties = useMemo(() => countiesOf(draft.city), [draft.city]);
  const pickProvince = (province: string) => {
    const city = citiesOf(province)[0]?.code ?? '';
    setDraft({ province, city, county: countiesOf(city)[0]?.code ?? '' });
  };
  const pickCity = (city: string) => setDraft((d) => ({ ...d, city, county: countiesOf(city)[0]?.code ?? '' }));
  return (
    <Drawer
      anchor="bottom"
      open={open}
      onClose={onCancel}
      slotProps={{ paper: { sx: { borderTopLeftRadius: 12, borderTopRightRadius: 12 } } }}
    >
      <Box role="dialog" aria-label={title} sx={{ pb: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 1, height: 48 }}>
          <Button onClick={onCancel} sx={{ color: MUTED_TEXT }}>
            取消
          </Button>
          <Typography sx={{ fontWeight: 600, fontSize: 16 }}>{title}</Typography>
          <Button onClick={() => onConfirm(draft)} disabled={!draft.county}>
            完成
          </Button>
        </Box>
        <AreaSearch onlyProvince={mode === 3 ? HENAN : undefined} onPick={setDraft} />
        <Box sx={{ display: 'flex' }}>
          <Wheel label="省份" items={allProvinces} value={draft.province} onChange={pickProvince} fixed={mode === 3} />
          <Wheel label="城市" items={cities} value={draft.city} onChange={pickCity} />
          <Wheel label="区县" items={counties} value={draft.county} onChange={(county) => setDraft((d) => ({ ...d, county }))} />
        </Box>
      </Box>
    </Drawer>
  );
}
