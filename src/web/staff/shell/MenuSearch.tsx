/** Header menu search: a search icon that opens the 查找菜单 box; choosing an entry opens the screen. */
import { useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import SearchIcon from '@mui/icons-material/Search';
import { useNavigate } from 'react-router-dom';
import { searchMenus } from './menuSearch.ts';
import { menuEntries, type MenuEntry } from './titles.ts';

export function MenuSearch() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const entries = useMemo(menuEntries, [open]);
  const options = useMemo(() => searchMenus(entries, input), [entries, input]);
  if (!open) {
    return (
      <Tooltip title="查找菜单">
        <IconButton color="inherit" aria-label="查找菜单" onClick={() => setOpen(true)}>
          <SearchIcon />
        </IconButton>
      </Tooltip>
    );
  }
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
        if (v) navigate(v.path);
        setOpen(false);
        setInput('');
      }}
      onBlur={() => {
        setOpen(false);
        setInput('');
      }}
      renderOption={(props, o) => (
        <li {...props} key={o.path}>
          {o.title}
        </li>
      )}
      sx={{ width: 220, mx: 1, '& .MuiOutlinedInput-root': { bgcolor: 'background.paper' } }}
      renderInput={(params) => <TextField {...params} autoFocus placeholder="查找菜单" slotProps={{ htmlInput: { ...params.inputProps, 'aria-label': '查找菜单' } }} />}
    />
  );
}
