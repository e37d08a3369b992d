/**
 * The role-menu editor: the whole menu tree (directories, screens, buttons) with a checkbox per
 * entry. Checking an entry checks everything below it; an entry shows as partly checked when
 * only some of its descendants are. Checking a screen or button also keeps its ancestors, so
 * the sidebar can reach it.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';

export interface MenuTreeNode {
  id: number;
  title: string;
  type: number;
  permission: string | null;
  children?: MenuTreeNode[];
}

const TYPE_LABEL = ['目录', '菜单', '按钮'];

export function descendantIds(node: MenuTreeNode): number[] {
  return [node.id, ...(node.children ?? []).flatMap(descendantIds)];
}

/** The ancestors of every id (walking the tree once). */
export function ancestorsOf(tree: MenuTreeNode[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const walk = (nodes: MenuTreeNode[], path: number[]) => {
    for (const n of nodes) {
      out.set(n.id, path);
      walk(n.children ?? [], [...path, n.id]);
    }
  };
  walk(tree, []);
  return out;
}

/** The new checked set after toggling `node`. */
export function toggleMenu(tree: MenuTreeNode[], checked: Set<number>, node: MenuTreeNode): Set<number> {
  const next = new Set(checked);
  const below = descendantIds(node);
  if (checked.has(node.id)) {
    for (const id of below) next.delete(id);
  } else {
    for (const id of below) next.add(id);
    for (const id of ancestorsOf(tree).get(node.id) ?? []) next.add(id);
  }
  return next;
}

export function MenuTreeChecklist({
  tree,
  checked,
  onChange,
  disabled,
}: {
  tree: MenuTreeNode[];
  checked: Set<number>;
  onChange: (next: Set<number>) => void;
  disabled?: boolean;
}) {
  const [closed, setClosed] = useState<Set<number>>(new Set());
  const render = (nodes: MenuTreeNode[], depth: number) =>
    nodes.map((n) => {
      const below = descendantIds(n).slice(1);
      const some = below.some((id) => checked.has(id));
      const all = below.length > 0 && below.every((id) => checked.has(id));
      const isOpen = !closed.has(n.id);
      return (
        <Box key={n.id}>
          <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 2.5 }}>
            {n.children?.length ? (
              <IconButton
                size="small"
                aria-label={isOpen ? '收起' : '展开'}
                onClick={() =>
                  setClosed((s) => {
                    const x = new Set(s);
                    if (isOpen) x.add(n.id);
                    else x.delete(n.id);
                    return x;
                  })
                }
              >
                {isOpen ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
              </IconButton>
            ) : (
              <Box sx={{ width: 34 }} />
            )}
            <Checkbox
              size="small"
              disabled={disabled}
              checked={checked.has(n.id)}
              indeterminate={!checked.has(n.id) ? some : some && !all}
              onChange={() => onChange(toggleMenu(nodesRoot(tree), checked, n))}
              inputProps={{ 'aria-label': n.title }}
            />
            <Typography variant="body2">{n.title}</Typography>
            <Typography variant="caption" sx={{ ml: 1, color: 'text.secondary' }}>
              {TYPE_LABEL[n.type] ?? ''}
              {n.permission ? ` · ${n.permission}` : ''}
            </Typography>
          </Box>
          {isOpen && n.children?.length ? render(n.children, depth + 1) : null}
        </Box>
      );
    });
  return (
    <Box role="tree" aria-label="菜单分配">
      {render(tree, 0)}
    </Box>
  );
}

const nodesRoot = (tree: MenuTreeNode[]) => tree;
