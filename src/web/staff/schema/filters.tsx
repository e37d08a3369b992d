/** Filter inputs of a generated list, from FieldSpec.filter plus the blurry search box. */
import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import EventIcon from '@mui/icons-material/Event';
import { Offline, ReferenceInputBase, SearchInput, SelectInput, TextInput, useInput, type InputProps } from 'react-admin';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { FULL_LIST_SIZE } from '../providers/dataProvider.ts';
import { choicesOf } from './records.ts';
import { PinyinSelectInput } from './PinyinSelectInput.tsx';
import { MANY_CHOICES, PEOPLE_RESOURCES } from './inputs.tsx';
import { DateTextField } from './DateTextField.tsx';
import { DATE_SHORTCUTS, shortcutRange } from './dateShortcuts.ts';
import { FILTER_FIELD_WIDTH } from './filterWidths.ts';

/** 快捷: the range picker's shortcuts (today to 今天 / 明天 / 3天后 / 1周后 / 半个月后 / 1个月后). */
function DateShortcutsButton({ label, onPick }: { label: string; onPick: (range: [string, string]) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <LazyTooltip title="快捷选择">
        <IconButton size="small" aria-label={`${label}快捷选择`} onClick={(e) => setAnchor(e.currentTarget)}>
          <EventIcon fontSize="small" />
        </IconButton>
      </LazyTooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {DATE_SHORTCUTS.map((s) => (
          <MenuItem
            key={s}
            dense
            onClick={() => {
              setAnchor(null);
              onPick(shortcutRange(s));
            }}
          >
            {s}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** 'YYYY-MM-DD' pair -> [from 00:00:00, to 23:59:59]; set only when both ends are chosen. */
export function dateRangeValue(from: string, to: string): string[] | undefined {
  if (!from || !to) return undefined;
  const [a, b] = from <= to ? [from, to] : [to, from];
  return [`${a} 00:00:00`, `${b} 23:59:59`];
}

/** A date range filter (a between filter sends the key twice). */
export function DateRangeInput(props: InputProps) {
  const { field } = useInput({ ...props, defaultValue: undefined });
  const value = Array.isArray(field.value) ? (field.value as string[]) : [];
  const [from, setFrom] = useState(value[0]?.slice(0, 10) ?? '');
  const [to, setTo] = useState(value[1]?.slice(0, 10) ?? '');
  // a cleared filter (reset, removed) empties both boxes
  const [valueSeen, setValueSeen] = useState<unknown>(field.value);
  if (!Object.is(valueSeen, field.value)) {
    setValueSeen(field.value);
    if (!Array.isArray(field.value)) {
      setFrom('');
      setTo('');
    }
  }
  const change = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom);
    setTo(nextTo);
    const next = dateRangeValue(nextFrom, nextTo);
    if (next) field.onChange(next);
    else if (!nextFrom && !nextTo) field.onChange(undefined);
  };
  const label = typeof props.label === 'string' ? props.label : '';
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', rowGap: 1, columnGap: 0.5, alignItems: 'center', maxWidth: '100%' }}>
      <DateTextField label={`${label}(开始)`} value={from} onChange={(v) => change(v, to)} />
      <span>至</span>
      <DateTextField label={`${label}(结束)`} value={to} onChange={(v) => change(from, v)} />
      <DateShortcutsButton label={label} onPick={([a, b]) => change(a, b)} />
    </Box>
  );
}

/** selects get dense margins (4 px below); the text filters none: line them up */
const FILTER_SELECT_SX = { mb: 0 };

/** What kind of input a filter of a generated list is; the list's filter bar and its placeholder (FilterBarSkeleton.tsx) follow it. */
export type FilterKind = 'search' | 'text' | 'select' | 'picker' | 'range';

/** A filter: the search box (no field of its own), or a field's filter; `source` is its key in the filter values. */
export type FilterItem =
  | { kind: 'search'; source: string; label: string }
  | { kind: Exclude<FilterKind, 'search'>; source: string; label: string; field: FieldSpec };

/** The filters of a list in order: the blurry search box first, then each filter field not fixed by the route. */
export function filterItems(spec: ResourceSpec, hidden: string[] = []): FilterItem[] {
  const items: FilterItem[] = [];
  if (spec.search.length) items.push({ source: 'blurry', label: '请输入搜索内容', kind: 'search' });
  for (const field of spec.fields) {
    if (!field.filter || hidden.includes(field.name)) continue;
    const kind: Exclude<FilterKind, 'search'> = field.ref
      ? 'picker'
      : field.filter === 'between'
        ? 'range'
        : field.options && field.options.length >= MANY_CHOICES
          ? 'picker'
          : field.options?.length
            ? 'select'
            : 'text';
    items.push({ source: field.name, label: field.title, kind, field });
  }
  return items;
}

function filterInput(item: FilterItem) {
  const { source, label } = item;
  if (item.kind === 'search') return <SearchInput key={source} source={source} alwaysOn placeholder={label} />;
  const { kind, field } = item;
  const key = source;
  const common = { source, label, alwaysOn: true } as const;
  if (field.ref) {
    return (
      // ReferenceInputBase: react-admin's ReferenceInput would bring its default autocomplete into the console's download
      <ReferenceInputBase
        key={key}
        {...common}
        reference={field.ref.resource}
        perPage={FULL_LIST_SIZE}
        sort={{ field: 'id', order: 'ASC' }}
        offline={<Offline variant="inline" />}
      >
        {/* the filter form sizes its direct inputs only: size the wrapped picker the same;
            typing finds a department, company or person by characters or pinyin */}
        <PinyinSelectInput
          source={source}
          label={label}
          optionText={field.ref.label}
          kind={PEOPLE_RESOURCES.has(field.ref.resource) ? 'name' : 'text'}
          size="small"
          helperText={false}
          emptyText="全部"
          sx={{ minWidth: FILTER_FIELD_WIDTH.picker, ...FILTER_SELECT_SX }}
          deferred
        />
      </ReferenceInputBase>
    );
  }
  if (kind === 'range') return <DateRangeInput key={key} {...common} />;
  if (kind === 'picker') {
    // many values (a dictionary): typing finds them by characters or pinyin
    return (
      <PinyinSelectInput
        key={key}
        {...common}
        optionText="name"
        choices={choicesOf(field)}
        emptyText="全部"
        size="small"
        helperText={false}
        sx={{ minWidth: FILTER_FIELD_WIDTH.picker, ...FILTER_SELECT_SX }}
        deferred
      />
    );
  }
  if (kind === 'select') return <SelectInput key={key} {...common} choices={choicesOf(field)} emptyText="全部" sx={FILTER_SELECT_SX} />;
  return <TextInput key={key} {...common} resettable />;
}

export function filterInputs(items: FilterItem[]) {
  return items.map(filterInput);
}
