/**
 * Vehicle model cascader (车型选择): columns brand -> series -> model -> configuration (->
 * colour), loaded lazily by pid through `loadChildren`. The pick must reach `level` (default 4,
 * a configuration): closing the panel above that level, or reaching a node without children
 * above it, clears the selection and says so (请选择到车型配置（第4级）). The value carries the
 * ids and names of the path and `userCarType`, the brand/series/model names joined by '/'.
 * Used by the staff console and the dealer portal alike (each passes its own loader).
 * Each column has a 查找 box above it: typing characters or pinyin (dz, dazhong, bmw's 宝马 by
 * bm) narrows that column by the shared pinyin rule, the matched characters marked; Enter picks
 * the first match.
 */
import { useCallback, useId, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ClearIcon from '@mui/icons-material/Clear';
import { levelRequiredMessage, userCarType, type BrandNode } from '../../shared/brand-tree.ts';
import { Highlight } from './pinyin/Highlight.tsx';
import { usePinyinMatcher } from './pinyin/usePinyin.ts';

/** what each column lists (levels 1-5) */
const COLUMN_TITLES = ['品牌', '车系', '车型', '配置', '颜色'];

export interface ModelValue {
  ids: number[];
  names: string[];
  /** brand/series/model names joined by '/' (the request's userCarType) */
  userCarType: string;
  /** the chosen node (its level is at least the required one) */
  node: BrandNode;
}

export interface ModelCascaderProps {
  value: ModelValue | null;
  onChange: (value: ModelValue | null) => void;
  /** children of a node (0 = the brands), e.g. GET api/brandTree/getTreeByPid?pid=&enabled=true */
  loadChildren: (pid: number) => Promise<BrandNode[]>;
  /** the level the pick must reach (default 4, a configuration) */
  level?: number;
  /** deepest level offered (default: `level`) */
  maxLevel?: number;
  label?: string;
  disabled?: boolean;
  /** marks the field required (the form's asterisk) */
  required?: boolean;
  /** called with the level message when a pick is cleared for stopping too high */
  onLevelError?: (message: string) => void;
  /** shown under the field (e.g. a form's own validation message) */
  error?: string;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
}

export function toModelValue(path: BrandNode[]): ModelValue {
  const names = path.map((n) => n.name);
  return { ids: path.map((n) => n.id), names, userCarType: userCarType(names), node: path[path.length - 1] };
}

export function ModelCascader({
  value,
  onChange,
  loadChildren,
  level = 4,
  maxLevel,
  label = '车型',
  disabled,
  required,
  onLevelError,
  error,
  size = 'small',
  fullWidth = true,
}: ModelCascaderProps) {
  const deepest = Math.max(level, maxLevel ?? level);
  const anchor = useRef<HTMLDivElement | null>(null);
  const [open, setOpen] = useState(false);
  /** the nodes of the path being chosen, and the loaded columns (column i lists children of path[i-1]) */
  const [path, setPath] = useState<BrandNode[]>([]);
  const [columns, setColumns] = useState<BrandNode[][]>([]);
  const [loading, setLoading] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const [message, setMessage] = useState('');
  const cache = useRef(new Map<number, BrandNode[]>());
  /** the 查找 text of each column */
  const [queries, setQueries] = useState<string[]>([]);
  const match = usePinyinMatcher('text');
  /** ids of the columns' listboxes, which the field controls while the panel is open */
  const listboxId = useId();
  const columnId = (i: number) => `${listboxId}-${i}`;

  const load = useCallback(
    async (pid: number): Promise<BrandNode[] | null> => {
      const hit = cache.current.get(pid);
      if (hit) return hit;
      setLoading(pid);
      setFailed(false);
      try {
        const nodes = await loadChildren(pid);
        cache.current.set(pid, nodes);
        return nodes;
      } catch {
        setFailed(true);
        return null;
      } finally {
        setLoading(null);
      }
    },
    [loadChildren],
  );

  const refuse = () => {
    const text = levelRequiredMessage(level);
    setMessage(text);
    onLevelError?.(text);
    onChange(null);
  };

  const commit = (chosen: BrandNode[]) => {
    setMessage('');
    onChange(toModelValue(chosen));
    setOpen(false);
  };

  const pick = async (column: number, node: BrandNode) => {
    const chosen = [...path.slice(0, column), node];
    setPath(chosen);
    // the columns after this one list other nodes now: their 查找 texts start empty
    setQueries((qs) => qs.slice(0, column + 1));
    const canGoDeeper = node.level < deepest && node.hasChildren !== false;
    if (!canGoDeeper) {
      if (node.level >= level) commit(chosen);
      else {
        // a dead end above the required level: nothing valid below it
        setColumns((cols) => cols.slice(0, column + 1));
        refuse();
      }
      return;
    }
    const children = await load(node.id);
    if (!children) return;
    if (children.length === 0) {
      setColumns((cols) => cols.slice(0, column + 1));
      if (node.level >= level) commit(chosen);
      else refuse();
      return;
    }
    setColumns((cols) => [...cols.slice(0, column + 1), children]);
    if (node.level >= level && node.level === deepest) commit(chosen);
  };

  const close = () => {
    setOpen(false);
    const last = path[path.length - 1];
    // the panel closed on a path above the required level: the pick is cleared
    if (path.length && last && last.level < level && (!value || value.node.id !== last.id)) refuse();
    else if (path.length && last && last.level >= level && value?.node.id !== last.id) commit(path);
  };

  const openPanel = () => {
    if (disabled) return;
    setPath([]);
    setQueries([]);
    setColumns((cols) => cols.slice(0, 1));
    setOpen(true);
    // the brands (the first column), loaded once and then taken from the cache
    void load(0).then((brands) => {
      if (brands) setColumns((cols) => (cols.length ? cols : [brands]));
    });
  };

  const shown = value ? value.names.join(' / ') : '';
  const helper = message || error || '';
  return (
    <>
      <TextField
        ref={anchor}
        label={label}
        value={shown}
        size={size}
        fullWidth={fullWidth}
        disabled={disabled}
        required={required}
        placeholder={`请选择${label}`}
        error={!!helper}
        helperText={helper || undefined}
        onClick={openPanel}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
            e.preventDefault();
            openPanel();
          }
        }}
        slotProps={{
          // the select-only combobox pattern: a read-only field that opens the columns' listboxes
          htmlInput: {
            readOnly: true,
            role: 'combobox',
            'aria-haspopup': 'listbox',
            'aria-expanded': open,
            'aria-controls': open && columns.length ? columns.map((_, i) => columnId(i)).join(' ') : undefined,
            style: { cursor: 'pointer' },
          },
          input: {
            endAdornment:
              value && !disabled ? (
                <InputAdornment position="end">
                  <IconButton
                    size="small"
                    aria-label="清空"
                    onClick={(e) => {
                      e.stopPropagation();
                      setMessage('');
                      onChange(null);
                    }}
                  >
                    <ClearIcon fontSize="small" />
                  </IconButton>
                </InputAdornment>
              ) : undefined,
          },
        }}
      />
      <Popover
        open={open}
        anchorEl={() => anchor.current}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { display: 'flex', maxWidth: '95vw', overflowX: 'auto' } } }}
      >
        {columns.map((nodes, i) => {
          const query = queries[i] ?? '';
          const shownNodes = query.trim() ? nodes.filter((n) => match(n.name, query)) : nodes;
          const title = COLUMN_TITLES[(nodes[0]?.level ?? i + 1) - 1] ?? `第${i + 1}级`;
          return (
            <Box key={i} sx={{ display: 'flex', flexDirection: 'column', borderRight: 1, borderColor: 'divider', minWidth: 170 }}>
              <TextField
                size="small"
                variant="standard"
                value={query}
                placeholder={`查找${title}`}
                onChange={(e) => {
                  const next = e.target.value;
                  setQueries((qs) => {
                    const out = [...qs];
                    out[i] = next;
                    return out;
                  });
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && shownNodes[0]) {
                    e.preventDefault();
                    void pick(i, shownNodes[0]);
                  }
                }}
                slotProps={{ htmlInput: { 'aria-label': `查找第${i + 1}级` } }}
                sx={{ px: 1, pt: 0.5 }}
              />
              <List dense role="listbox" id={columnId(i)} aria-label={`第${i + 1}级`} sx={{ maxHeight: 320, overflowY: 'auto', py: 0 }}>
                {shownNodes.length === 0 ? (
                  <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
                    {nodes.length === 0 ? '暂无数据' : '没有匹配的选项'}
                  </Typography>
                ) : (
                  shownNodes.map((node) => {
                    const active = path[i]?.id === node.id;
                    const more = node.level < deepest && node.hasChildren !== false;
                    return (
                      <ListItemButton
                        key={node.id}
                        role="option"
                        aria-selected={active}
                        selected={active}
                        onClick={() => void pick(i, node)}
                      >
                        <ListItemText
                          primary={<Highlight text={node.name} range={query.trim() ? match(node.name, query) : null} />}
                          slotProps={{ primary: { noWrap: true } }}
                        />
                        {loading === node.id ? <CircularProgress size={14} /> : more ? <ChevronRightIcon fontSize="small" /> : null}
                      </ListItemButton>
                    );
                  })
                )}
              </List>
            </Box>
          );
        })}
        {columns.length === 0 ? (
          <Box sx={{ p: 2, minWidth: 170 }}>
            {failed ? <Typography color="error">加载失败，请重试</Typography> : <CircularProgress size={20} aria-label="正在加载" />}
          </Box>
        ) : failed ? (
          <Box sx={{ p: 2 }}>
            <Typography color="error" variant="body2">
              加载失败，请重试
            </Typography>
          </Box>
        ) : null}
      </Popover>
    </>
  );
}
