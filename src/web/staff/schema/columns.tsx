/** List columns from listFields(): option labels, an editable radio group per row where asked, and the action column. */
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import Box from '@mui/material/Box';
import MuiLink from '@mui/material/Link';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityIcon from '@mui/icons-material/Visibility';
import HistoryIcon from '@mui/icons-material/History';
import { useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router-dom';
import { ReferenceField, TextField, useDataProvider, useNotify, useRecordContext, useRefresh, type RaRecord } from 'react-admin';
import { listFields, optionLabel, type FieldSpec, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { useEditor } from './editor.tsx';
import { SUCCESS_NOTICE_MS } from './notices.ts';
import { requestBody } from './records.ts';
import { messages } from '../../../shared/messages.ts';
import { mask } from '../../../shared/masks.ts';
import { plainText } from '../../components/plainText.ts';
import { EnabledSwitchField } from './EnabledSwitchField.tsx';
import { CellText } from './CellText.tsx';
import { resourceByName } from '../../../generated/resources.ts';
import { MOBILE_QUERY } from '../shell/SidebarState.tsx';
import { textOf } from '../../common/text.ts';

export interface ColumnProps {
  label?: string;
  source?: string;
  sortable?: boolean;
}

/** Per-row radio group saved at once by an edit call (PUT); notice 状态修改成功. */
export function EditableRadioField({
  spec,
  field,
  disabled,
}: { spec: ResourceSpec; field: FieldSpec } & ColumnProps & { disabled?: boolean }) {
  const record = useRecordContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [saving, setSaving] = useState(false);
  if (!record) return null;
  const change = async (value: string) => {
    const option = field.options?.find((o) => String(o.value) === value);
    if (!option || saving) return;
    setSaving(true);
    const values = { ...record, [field.name]: option.value };
    try {
      await dataProvider.update(spec.name, { id: record.id, data: requestBody(spec, values, record), previousData: record });
      notify(messages.notice.statusChanged, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      refresh();
    } catch {
      /* the HTTP client has shown the message */
    } finally {
      setSaving(false);
    }
  };
  return (
    <RadioGroup
      row
      sx={{ flexWrap: 'nowrap', '& .MuiFormControlLabel-root': { mr: 1 } }}
      value={record[field.name] === null || record[field.name] === undefined ? '' : String(record[field.name])}
      onChange={(e) => void change(e.target.value)}
      onClick={(e) => e.stopPropagation()}
      aria-label={field.title}
    >
      {(field.options ?? []).map((o) => (
        <FormControlLabel
          key={String(o.value)}
          value={String(o.value)}
          control={<Radio size="small" />}
          label={o.label}
          disabled={disabled || saving}
        />
      ))}
    </RadioGroup>
  );
}

export function RowActions({
  canEdit,
  canDelete,
  canHistory = false,
  viewOnly,
  spec,
  Extra,
}: {
  canEdit: boolean;
  canDelete: boolean;
  /** 历史记录 of the row */
  canHistory?: boolean;
  viewOnly: boolean;
  spec?: ResourceSpec;
  Extra?: ComponentType<{ spec: ResourceSpec }>;
} & ColumnProps) {
  const record = useRecordContext();
  const editor = useEditor();
  if (!record) return null;
  return (
    <span onClick={(e) => e.stopPropagation()} style={{ whiteSpace: 'nowrap' }}>
      {viewOnly || canEdit ? (
        <LazyTooltip title={viewOnly ? '查看' : '编辑'}>
          <IconButton size="small" color="primary" aria-label={viewOnly ? '查看' : '编辑'} onClick={() => editor.openEdit(record)}>
            {viewOnly ? <VisibilityIcon fontSize="small" /> : <EditIcon fontSize="small" />}
          </IconButton>
        </LazyTooltip>
      ) : null}
      {canDelete ? (
        <LazyTooltip title="删除">
          <IconButton size="small" color="error" aria-label="删除" onClick={() => editor.requestDelete([record.id], true)}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </LazyTooltip>
      ) : null}
      {canHistory && editor.openHistory ? (
        <LazyTooltip title="历史记录">
          <IconButton size="small" color="default" aria-label="历史记录" onClick={() => editor.openHistory?.(record)}>
            <HistoryIcon fontSize="small" />
          </IconButton>
        </LazyTooltip>
      ) : null}
      {Extra && spec ? <Extra spec={spec} /> : null}
    </span>
  );
}

export interface ColumnOptions {
  canEdit: boolean;
  canDelete: boolean;
  /** 历史记录 per row */
  canHistory?: boolean;
  /** existing records open read-only */
  viewOnly: boolean;
  /** show the action column */
  showActions: boolean;
  /** extra per-row buttons of the resource (ResourceOverrides.RowButtons) */
  extra?: ComponentType<{ spec: ResourceSpec }>;
  /** a 详情 link per row to the record's own page */
  detailPath?: (record: RaRecord) => string;
}

/** 详情: opens the record's page through the router (a bare hash link inside a row is not followed). */
function DetailLink({ to }: { to: string }) {
  const navigate = useNavigate();
  return (
    <MuiLink
      href={`#${to}`}
      underline="hover"
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        void navigate(to);
      }}
    >
      详情
    </MuiLink>
  );
}

export function listColumns(spec: ResourceSpec, options: ColumnOptions) {
  const columns = listFields(spec).map((field) => {
    if (field.list?.editable === 'radio' && field.options?.length) {
      return (
        <EditableRadioField
          key={field.name}
          source={field.name}
          label={field.title}
          sortable={false}
          spec={spec}
          field={field}
          disabled={!options.canEdit}
        />
      );
    }
    if (field.list?.editable === 'switch' && field.type === 'boolean') {
      return (
        <EnabledSwitchField
          key={field.name}
          source={field.name}
          label={field.title}
          sortable={false}
          spec={spec}
          field={field}
          disabled={!options.canEdit}
        />
      );
    }
    if (field.ref && (resourceByName[field.ref.resource] || field.ref.resource === 'dept')) {
      // the referenced record's label (one getMany per page), not its id; departments (a
      // hand-written resource every signed-in user may read) are read as one full list
      return (
        <ReferenceField
          key={field.name}
          source={field.name}
          reference={field.ref.resource}
          label={field.title}
          link={false}
          sortable={false}
        >
          <TextField source={field.ref.label} />
        </ReferenceField>
      );
    }
    if (field.options?.length) {
      return (
        <CellText
          key={field.name}
          source={field.name}
          label={field.title}
          render={(record) => optionLabel(field, record[field.name]) ?? textOf(record[field.name])}
        />
      );
    }
    if (field.list?.html) {
      // rich text: its words on one line, the whole text on hover
      return (
        <CellText
          key={field.name}
          source={field.name}
          label={field.title}
          sortable={false}
          render={(record) => {
            const text = plainText(record[field.name] as string | null);
            return (
              <Box
                component="span"
                title={text}
                sx={{ display: 'block', maxWidth: 420, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {text}
              </Box>
            );
          }}
        />
      );
    }
    if (field.mask) {
      const kind = field.mask;
      return <CellText key={field.name} source={field.name} label={field.title} render={(record) => mask(kind, record[field.name])} />;
    }
    return <CellText key={field.name} source={field.name} label={field.title} />;
  });
  if (options.detailPath) {
    const path = options.detailPath;
    columns.push(<CellText key="__detail" label="详情" render={(record) => <DetailLink to={path(record)} />} />);
  }
  if (options.showActions) {
    columns.push(
      <RowActions
        key="__actions"
        source={ACTIONS_COLUMN}
        sortable={false}
        label="操作"
        canEdit={options.canEdit}
        canDelete={options.canDelete}
        canHistory={options.canHistory}
        viewOnly={options.viewOnly}
        spec={spec}
        Extra={options.extra}
      />,
    );
  }
  return columns;
}

/** The 操作 column's class name part (react-admin tags cells with `column-{source}`). */
export const ACTIONS_COLUMN = '__actions';

/** Column widths from FieldSpec.list.width (react-admin tags cells with `column-{source}`). */
export function columnWidths(spec: ResourceSpec): Record<string, unknown> {
  const sx: Record<string, unknown> = {};
  for (const field of listFields(spec)) {
    if (field.list?.width) sx[`& .column-${field.name}`] = { width: field.list.width, minWidth: field.list.width };
  }
  // long text wraps, but a narrow window does not squeeze a column to one character a line:
  // the table scrolls sideways inside its card instead (wider columns in the mobile layout)
  sx['& .RaDatagrid-rowCell'] = { wordBreak: 'break-word', minWidth: '5em', [`@media ${MOBILE_QUERY}`]: { minWidth: '8em' } };
  // the 操作 column stays in view at the right edge while a wide table scrolls sideways
  // (at 1280 px, 定时任务's columns are wider than its card)
  sx[`& .column-${ACTIONS_COLUMN}`] = {
    position: 'sticky',
    right: 0,
    zIndex: 1,
    bgcolor: 'background.paper',
    whiteSpace: 'nowrap',
    boxShadow: '-4px 0 6px -4px rgba(0,0,0,0.18)',
  };
  sx[`& thead .column-${ACTIONS_COLUMN}`] = { zIndex: 3 };
  // times and dates read badly when broken across lines
  for (const field of listFields(spec)) {
    if (field.format === 'date-time' || field.format === 'date') sx[`& td.column-${field.name}`] = { whiteSpace: 'nowrap' };
  }
  return sx;
}
