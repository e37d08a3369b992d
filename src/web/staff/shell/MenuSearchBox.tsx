/** The open 查找菜单 box (fuse.js search over the menu entries); loaded when the search icon is first clicked. */
import { useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useNavigate } from 'react-router-dom';
import { searchMenus } from './menuSearch.ts';
import { menuEntries, type MenuEntry } from './titles.ts';

export function MenuSearchBox({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const entries = useMemo(() => menuEntries(), []);
  const options = useMemo(() => searchMenus(entries, input), [entries, input]);
  return (
    <Autocomplete<MenuEntry>
      openOnFocus
      autoHighlight
      size="small"
      options={options}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.title}
      isOptionEqualToValue={(a, b) => a.path === b.path}
      noOptionsText={input.trim() ? '没有匹配的菜单' : '请输入菜单名称'}
      inputValue={input}
      onInputChange={(_, v) => setInput(v)}
      onChange={(_, v) => {
        if (v) void navigate(v.path);
        onClose();
      }}
      onBlur={onClose}
      renderOption={(props, o) => (
        <li {...props} key={o.path}>
          {o.title}
        </li>
      )}
      sx={{ width: 220, mx: 1, '& .MuiOutlinedInput-root': { bgcolor: 'background.paper' } }}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus
          placeholder="查找菜单"
          slotProps={{ htmlInput: { ...params.inputProps, 'aria-label': '查找菜单' } }}
        />
      )}
    />
  );
}
