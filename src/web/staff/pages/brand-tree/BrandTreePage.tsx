/**
 * 品牌车型 (/brandTree): the brand tree loaded lazily by pid, one row per node with its level,
 * enumerations and the actions the user's keys allow (brandTree:add / edit / del): add the next
 * level (a configuration offers colour and option pack), edit in the level's dialog, delete after
 * a confirm (the server refuses a node with children). A name search lists matches with their
 * path; a cascader preview shows how forms pick a configuration.
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import SearchIcon from '@mui/icons-material/Search';
import { Confirm, Title, useNotify, usePermissions } from 'react-admin';
import { ENUM_FIELDS, KIND_TITLES, priceTitle, type BrandNode, type NodeKind } from '../../../../shared/brand-tree.ts';
import { messages } from '../../../../shared/messages.ts';
import { ModelCascader, type ModelValue } from '../../../components/ModelCascader.tsx';
import { hasPermission } from '../../../common/session.ts';
import { SUCCESS_NOTICE_MS } from '../../schema/notices.ts';
import { deleteNode, findNodes, loadChildren, loadEnabledChildren, type FoundNode } from './api.ts';
import { BrandNodeDialog, type NodeDialogState } from './BrandNodeDialog.tsx';
import { textOf } from '../../../common/text.ts';

/** The kinds a node's add buttons create. */
export function childKinds(node: BrandNode | null): NodeKind[] {
  if (!node) return ['brand'];
  switch (node.kind) {
    case 'brand':
      return ['series'];
    case 'series':
      return ['model'];
    case 'model':
      return ['config'];
    case 'config':
      return ['colour', 'pack'];
    default:
      return [];
  }
}

/** A short line of the node's enumerations, e.g. 合资 · 中端合资 · 德国. */
export function summary(node: BrandNode): string {
  const rec = node as unknown as Record<string, unknown>;
  const parts: string[] = [];
  for (const f of ENUM_FIELDS) {
    if (!f.kinds.includes(node.kind)) continue;
    const v = rec[f.name];
    if (v === null || v === undefined || v === '') continue;
    parts.push(
      f.name === 'price' ? `${priceTitle(node.kind).replace(/（.*/, '')} ${textOf(v)}${node.kind === 'config' ? '万' : '元'}` : textOf(v),
    );
  }
  return parts.join(' · ');
}

export function BrandTreePage() {
  const notify = useNotify();
  const { permissions } = usePermissions<string[]>();
  const can = (action: 'add' | 'edit' | 'del') => hasPermission(permissions, `brandTree:${action}`);
  const [children, setChildren] = useState<Map<number, BrandNode[]>>(new Map());
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [loading, setLoading] = useState<Set<number>>(new Set([0]));
  const [failed, setFailed] = useState(false);
  const [dialog, setDialog] = useState<NodeDialogState | null>(null);
  const [pendingDelete, setPendingDelete] = useState<BrandNode | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<FoundNode[] | null>(null);
  const [picked, setPicked] = useState<ModelValue | null>(null);

  // the children of `pid` into the tree; the caller has marked `pid` as loading
  const fetchChildren = useCallback(
    (pid: number) =>
      loadChildren(pid)
        .then(
          (nodes) => {
            setChildren((m) => new Map(m).set(pid, nodes));
            setFailed(false);
          },
          () => {
            if (pid === 0) setFailed(true);
          },
        )
        .finally(() =>
          setLoading((s) => {
            const n = new Set(s);
            n.delete(pid);
            return n;
          }),
        ),
    [],
  );
  const load = useCallback(
    (pid: number) => {
      setLoading((s) => new Set(s).add(pid));
      return fetchChildren(pid);
    },
    [fetchChildren],
  );

  // the brands (the root's children): loading from the first render on
  useEffect(() => {
    void fetchChildren(0);
  }, [fetchChildren]);

  const toggle = (node: BrandNode) => {
    setExpanded((s) => {
      const n = new Set(s);
      if (n.has(node.id)) n.delete(node.id);
      else {
        n.add(node.id);
        if (!children.has(node.id)) void load(node.id);
      }
      return n;
    });
  };

  /** After a write under `pid`: its list again, and the list holding pid (its hasChildren changed). */
  const reloadAround = async (pid: number, grandPid?: number) => {
    await load(pid);
    if (pid !== 0) {
      setExpanded((s) => new Set(s).add(pid));
      if (grandPid !== undefined) await load(grandPid);
    }
  };

  const parentOf = (node: BrandNode): BrandNode | null => {
    for (const list of children.values()) {
      const hit = list.find((n) => n.id === node.pid);
      if (hit) return hit;
    }
    return null;
  };

  const runDelete = async () => {
    if (!pendingDelete) return;
    setDeleting(true);
    try {
      await deleteNode(pendingDelete.id);
      notify(messages.notice.deleted, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      const parent = parentOf(pendingDelete);
      setPendingDelete(null);
      await reloadAround(pendingDelete.pid, parent?.pid);
    } catch {
      /* the server's message (e.g. children exist) has been shown; the confirm stays */
    } finally {
      setDeleting(false);
    }
  };

  const runSearch = async () => {
    const text = search.trim();
    if (!text) {
      setFound(null);
      return;
    }
    try {
      setFound(await findNodes(text));
    } catch {
      /* shown by the HTTP client */
    }
  };

  const renderNodes = (pid: number, depth: number) => {
    const nodes = children.get(pid);
    if (!nodes) return loading.has(pid) ? <LinearProgress key={`l${pid}`} sx={{ ml: depth * 3 }} aria-label="正在加载" /> : null;
    if (pid === 0 && nodes.length === 0) return <Alert severity="info">暂无品牌，请点击“新增品牌”添加</Alert>;
    return nodes.map((node) => (
      <Box key={node.id}>
        <Box
          data-testid={`node-${node.id}`}
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            columnGap: 1,
            pl: depth * 3,
            py: 0.25,
            borderBottom: 1,
            borderColor: 'divider',
            '&:hover': { bgcolor: 'action.hover' },
          }}
        >
          <IconButton
            size="small"
            aria-label={expanded.has(node.id) ? `收起${node.name}` : `展开${node.name}`}
            disabled={!node.hasChildren}
            onClick={() => toggle(node)}
            sx={{ visibility: node.hasChildren ? 'visible' : 'hidden' }}
          >
            {loading.has(node.id) ? (
              <CircularProgress size={16} />
            ) : expanded.has(node.id) ? (
              <ExpandMoreIcon fontSize="small" />
            ) : (
              <ChevronRightIcon fontSize="small" />
            )}
          </IconButton>
          <Chip
            size="small"
            variant="outlined"
            color={node.kind === 'pack' ? 'secondary' : 'primary'}
            label={KIND_TITLES[node.kind]}
            sx={{ minWidth: 56 }}
          />
          <Typography
            sx={{ minWidth: '4em', fontWeight: node.level === 1 ? 600 : 400, color: node.enabled ? 'text.primary' : 'text.disabled' }}
          >
            {node.name}
          </Typography>
          {!node.enabled ? <Chip size="small" label="禁用" /> : null}
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {summary(node)}
          </Typography>
          {can('add')
            ? childKinds(node).map((kind) => (
                <Button
                  key={kind}
                  size="small"
                  startIcon={<AddIcon />}
                  sx={{ whiteSpace: 'nowrap' }}
                  onClick={() => setDialog({ parent: node, kind })}
                >
                  {`新增${KIND_TITLES[kind]}`}
                </Button>
              ))
            : null}
          {can('edit') ? (
            <Tooltip title="编辑">
              <IconButton
                size="small"
                color="primary"
                aria-label={`编辑${node.name}`}
                onClick={() => setDialog({ node, parent: parentOf(node), kind: node.kind })}
              >
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
          {can('del') ? (
            <Tooltip title="删除">
              <IconButton size="small" color="error" aria-label={`删除${node.name}`} onClick={() => setPendingDelete(node)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
        </Box>
        {expanded.has(node.id) ? renderNodes(node.id, depth + 1) : null}
      </Box>
    ));
  };

  return (
    <Box sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: { xs: 'wrap', lg: 'nowrap' } }}>
      <Title title="品牌车型" />
      <Card sx={{ flex: 1, minWidth: 0 }}>
        <CardContent>
          <Box sx={{ display: 'flex', gap: 1, mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <TextField
              size="small"
              label="查找名称"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void runSearch();
              }}
            />
            <Button variant="outlined" startIcon={<SearchIcon />} onClick={() => void runSearch()}>
              搜索
            </Button>
            <Box sx={{ flex: 1 }} />
            {can('add') ? (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ parent: null, kind: 'brand' })}>
                新增品牌
              </Button>
            ) : null}
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            层级：品牌 → 车系 → 车型 → 配置 → 颜色；选装包挂在配置下。存在下级节点的节点不能删除。
          </Typography>
          {found ? (
            <Box sx={{ mb: 2 }}>
              <Typography variant="subtitle2">查找结果（{found.length}）</Typography>
              {found.length === 0 ? (
                <Alert severity="info">没有名称包含“{search.trim()}”的节点</Alert>
              ) : (
                <List dense component="div">
                  {found.map((n) => (
                    <ListItemButton key={n.id} onClick={() => setDialog(can('edit') ? { node: n, parent: null, kind: n.kind } : null)}>
                      <ListItemText
                        primary={n.path.join(' / ')}
                        secondary={`${KIND_TITLES[n.kind]}${summary(n) ? ` · ${summary(n)}` : ''}`}
                      />
                    </ListItemButton>
                  ))}
                </List>
              )}
            </Box>
          ) : null}
          {failed ? <Alert severity="error">品牌树加载失败，请刷新重试</Alert> : renderNodes(0, 0)}
        </CardContent>
      </Card>
      <Card sx={{ width: { xs: '100%', lg: 380 }, flexShrink: 0 }}>
        <CardContent>
          <Typography variant="subtitle1" sx={{ mb: 2 }}>
            车型选择预览
          </Typography>
          <ModelCascader label="车型" value={picked} onChange={setPicked} loadChildren={loadEnabledChildren} level={4} />
          <Box sx={{ mt: 2 }} data-testid="cascader-result">
            {picked ? (
              <>
                <Typography variant="body2">userCarType：{picked.userCarType}</Typography>
                <Typography variant="body2">配置：{picked.node.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  节点ID：{picked.ids.join(' / ')}
                </Typography>
              </>
            ) : (
              <Typography variant="body2" color="text.secondary">
                需选择到车型配置（第4级）
              </Typography>
            )}
          </Box>
        </CardContent>
      </Card>
      <BrandNodeDialog
        state={dialog}
        onClose={() => setDialog(null)}
        onSaved={() => {
          const state = dialog;
          setDialog(null);
          setFound(null);
          if (!state) return;
          const pid = state.node ? state.node.pid : (state.parent?.id ?? 0);
          void reloadAround(pid, state.node ? undefined : state.parent?.pid);
        }}
      />
      <Confirm
        isOpen={!!pendingDelete}
        loading={deleting}
        title={messages.confirm.title}
        content={messages.confirm.deleteOne}
        confirm={messages.confirm.ok}
        cancel={messages.confirm.cancel}
        onConfirm={() => void runDelete()}
        onClose={() => setPendingDelete(null)}
      />
    </Box>
  );
}
