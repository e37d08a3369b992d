/**
 * Toolbar of a generated list: 新增 / 修改 / 删除 / 导出 / 导入, each shown only when the
 * spec offers it and the user holds its permission key. 修改 needs exactly one selected row,
 * 删除 at least one.
 */
import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { TopToolbar, useListContext, type RaRecord } from 'react-admin';
import { useEditor } from './editor.tsx';
import { useClickGuard } from '../shell/clickGuard.ts';
import type { ResourceAction } from './permissions.ts';

export interface ListToolbarProps {
  can: (action: ResourceAction) => boolean;
  viewOnly: boolean;
  exporting: boolean;
  onExport: () => void;
  /** controls after the buttons (the column picker) */
  extra?: ReactNode;
}

/** Selection rules of the spec. */
export function selectionRules(selected: number) {
  return { canEdit: selected === 1, canDelete: selected >= 1 };
}

export function ListToolbar({ can, viewOnly, exporting, onExport, extra }: ListToolbarProps) {
  const { selectedIds, data } = useListContext<RaRecord>();
  const editor = useEditor();
  const rules = selectionRules(selectedIds.length);
  // a double click opens one dialog, starts one export
  const openCreate = useClickGuard(editor.openCreate);
  const openImport = useClickGuard(editor.openImport);
  const exportOnce = useClickGuard(onExport);
  const openSelected = () => {
    const record = data?.find((r) => r.id === selectedIds[0]);
    if (record) editor.openEdit(record);
  };
  return (
    <TopToolbar sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'flex-end' }} data-testid="list-toolbar">
      {can('add') ? (
        <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={openCreate}>
          新增
        </Button>
      ) : null}
      {can('edit') ? (
        <Button size="small" variant="contained" color="success" startIcon={<EditIcon />} disabled={!rules.canEdit} onClick={openSelected}>
          {viewOnly ? '查看' : '修改'}
        </Button>
      ) : null}
      {can('del') ? (
        <Button
          size="small"
          variant="contained"
          color="error"
          startIcon={<DeleteIcon />}
          disabled={!rules.canDelete}
          onClick={() => editor.requestDelete([...selectedIds], false)}
        >
          删除
        </Button>
      ) : null}
      {can('download') ? (
        <Button size="small" variant="contained" color="warning" startIcon={<DownloadIcon />} disabled={exporting} onClick={exportOnce}>
          导出
        </Button>
      ) : null}
      {can('import') ? (
        <Button size="small" variant="contained" color="info" startIcon={<UploadIcon />} onClick={openImport}>
          导入
        </Button>
      ) : null}
      {extra}
    </TopToolbar>
  );
}
