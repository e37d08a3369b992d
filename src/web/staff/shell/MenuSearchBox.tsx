/**
 * The open 查找菜单 box: menu titles by the pinyin rule and fuzzy search (menuSearch.ts), the
 * matched characters highlighted; loaded when the search icon is first clicked.
 */
import { useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useNavigate } from 'react-router-dom';
import { searchMenus } from './menuSearch.ts';
import { menuEntries, type MenuEntry } from './titles.ts';
import { usePinyinMatcher } from '../../components/pinyin/usePinyin.ts';
import { Highlight } from '../../components/pinyin/Highlight.tsx';

export function MenuSearchBox({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const entries = useMemo(() => menuEntries(), []);
  const match = usePinyinMatcher('text');
  const options = useMemo(() => searchMenus(entries, input, 10, match), [entries, input, match]);
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
          <Highlight text={o.title} range={match(o.title, input)} />
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
