/** List columns from listFields(): option labels, an editable radio group per row where asked, and the action column. */
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import Box from '@mui/material/Box';
import MuiLink from '@mui/material/Link';
import { useId, useState, type ComponentType } from 'react';
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
import { ICON_PATHS, RowActionButton, RowRadios, rowControlsSx } from './rowControls.tsx';

export interface ColumnProps {
  label?: string;
  source?: string;
  sortable?: boolean;
}

/** Per-row radio group saved at once by an edit call (PUT); notice 状态修改成功. Styled by the grid (rowControls.tsx). */
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
  const name = useId();
  if (!record) return null;
  const options = (field.options ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  const change = async (value: string) => {
    const option = field.options?.find((o) => String(o.value) === value);
    if (!option || saving || disabled) return;
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
    <RowRadios
      name={name}
      label={field.title}
      value={record[field.name] === null || record[field.name] === undefined ? '' : String(record[field.name])}
      options={options}
      disabled={!!disabled || saving}
      onChange={(value) => void change(value)}
    />
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
          <RowActionButton
            color="primary"
            aria-label={viewOnly ? '查看' : '编辑'}
            path={viewOnly ? ICON_PATHS.visibility : ICON_PATHS.edit}
            onClick={() => editor.openEdit(record)}
          />
        </LazyTooltip>
      ) : null}
      {canDelete ? (
        <LazyTooltip title="删除">
          <RowActionButton
            color="error"
            aria-label="删除"
            path={ICON_PATHS.delete}
            onClick={() => editor.requestDelete([record.id], true)}
          />
        </LazyTooltip>
      ) : null}
      {canHistory && editor.openHistory ? (
        <LazyTooltip title="历史记录">
          <RowActionButton color="default" aria-label="历史记录" path={ICON_PATHS.history} onClick={() => editor.openHistory?.(record)} />
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
  // the status radios and 操作 buttons of every row: one class set here, none per row
  Object.assign(sx, rowControlsSx);
  // times and dates read badly when broken across lines
  for (const field of listFields(spec)) {
    if (field.format === 'date-time' || field.format === 'date') sx[`& td.column-${field.name}`] = { whiteSpace: 'nowrap' };
  }
  return sx;
}
