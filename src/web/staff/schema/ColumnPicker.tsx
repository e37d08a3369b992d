/** 列设置: a toolbar menu of the list's columns with a checkbox each, remembered per screen. */
import { useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { useNotify, useStore } from 'react-admin';
import { listFields, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { AT_LEAST_ONE_COLUMN, hiddenColumnsKey, toggleColumn } from './columnPicker.ts';

/** one empty list for every screen, so that "nothing hidden" is the same value on every render */
const NONE_HIDDEN: string[] = [];

export function useHiddenColumns(spec: ResourceSpec) {
  return useStore<string[]>(hiddenColumnsKey(spec.name), NONE_HIDDEN);
}

export function ColumnPicker({ spec }: { spec: ResourceSpec }) {
  const notify = useNotify();
  const [hidden, setHidden] = useHiddenColumns(spec);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const fields = listFields(spec);
  const all = fields.map((f) => f.name);
  const toggle = (name: string) => {
    const next = toggleColumn(hidden, name, all);
    if (next.refused) notify(AT_LEAST_ONE_COLUMN, { type: 'warning' });
    else setHidden(next.hidden);
  };
  return (
    <>
      <LazyTooltip title="列设置">
        <IconButton size="small" aria-label="列设置" onClick={(e) => setAnchor(e.currentTarget)}>
          <ViewColumnIcon fontSize="small" />
        </IconButton>
      </LazyTooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {fields.map((f) => (
          <MenuItem key={f.name} dense onClick={() => toggle(f.name)}>
            <Checkbox
              size="small"
              checked={!hidden.includes(f.name)}
              sx={{ p: 0.5, mr: 1 }}
              slotProps={{ input: { 'aria-label': f.title } }}
            />
            <ListItemText>{f.title}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
