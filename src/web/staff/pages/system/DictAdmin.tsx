/**
 * 字典管理: dictionaries on the left (name, description, 公开), the chosen dictionary's details on
 * the right (label, value, sort, enabled). 新增 / 编辑 / 删除 need dict:add, dict:edit, dict:del.
 * The selects of the screens (x-dict) read these details.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TablePager } from '../../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { messages } from '../../../../shared/messages.ts';
import { DICT_DETAIL_FORM, DICT_FORM } from '../../../../shared/admin-forms.ts';
import {
  ConfirmDialog,
  FormDialog,
  getJson,
  ScreenTitle,
  send,
  TableState,
  useAction,
  useCan,
  useLoad,
  type Page,
  useFormCheck,
} from './common.tsx';
import { ScrollX } from '../../../components/ScrollX.tsx';
import { HistoryButton } from './HistoryButton.tsx';
import { RecycleBinButton } from './RecycleBinButton.tsx';

interface Dict {
  id: number;
  name: string;
  description: string | null;
  isPublic: boolean;
}
interface Detail {
  id: number;
  label: string;
  value: string;
  sort: number;
  enabled: boolean;
}

export function DictAdmin() {
  const can = useCan();
  const act = useAction();
  const [version, setVersion] = useState(0);
  const [page, setPage] = useState(0);
  const [blurry, setBlurry] = useState('');
  const dicts = useLoad(() => getJson<Page<Dict>>('/api/dict', { page, size: 10, blurry }), [page, blurry, version]);
  const [selected, setSelected] = useState<Dict | null>(null);
  const details = useLoad(
    async () =>
      selected ? getJson<Page<Detail>>('/api/dictDetail', { dictName: selected.name, page: 0, size: 9999, sort: 'sort,asc' }) : undefined,
    [selected, version],
  );
  const [dictForm, setDictForm] = useState<(Partial<Dict> & { name: string; description: string; isPublic: boolean }) | null>(null);
  const [detailForm, setDetailForm] = useState<(Partial<Detail> & { label: string; value: string; sort: number; enabled: boolean }) | null>(
    null,
  );
  const [confirm, setConfirm] = useState<{ run: () => Promise<boolean> } | null>(null);
  const [busy, setBusy] = useState(false);
  const reload = () => setVersion((v) => v + 1);

  const dictCheck = useFormCheck(DICT_FORM, dictForm);
  const detailBody = (f: NonNullable<typeof detailForm>) => ({ ...f, dict: { id: selected?.id } });
  const detailCheck = useFormCheck(DICT_DETAIL_FORM, detailForm && detailBody(detailForm));
  const run = async (work: () => Promise<boolean>, close: () => void) => {
    setBusy(true);
    const ok = await work();
    setBusy(false);
    if (ok) {
      close();
      reload();
    }
  };
  const rows = dicts.data?.content ?? [];
  const detailRows = details.data?.content ?? [];

  return (
    <Box sx={{ p: 2 }}>
      <ScreenTitle>字典管理</ScreenTitle>
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 2, alignItems: { xs: 'stretch', md: 'flex-start' } }}>
        <Paper sx={{ flex: 1, p: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            <TextField
              size="small"
              placeholder="输入名称或者描述搜索"
              value={blurry}
              onChange={(e) => {
                setBlurry(e.target.value);
                setPage(0);
              }}
              inputProps={{ 'aria-label': '搜索' }}
            />
            {can('dict:add') ? (
              <Button
                size="small"
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => setDictForm({ name: '', description: '', isPublic: false })}
              >
                新增
              </Button>
            ) : null}
            <RecycleBinButton table="dict" onRestored={reload} />
          </Box>
          <ScrollX>
            <Table size="small" aria-label="字典列表">
              <TableHead>
                <TableRow>
                  {['名称', '描述', '公开', '操作'].map((h) => (
                    <TableCell key={h} sx={{ fontWeight: 600 }}>
                      {h}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                <TableState loading={dicts.loading && !dicts.data} failed={dicts.failed} empty={!rows.length} columns={4} />
                {rows.map((d) => (
                  <TableRow key={d.id} hover selected={selected?.id === d.id} sx={{ cursor: 'pointer' }} onClick={() => setSelected(d)}>
                    <TableCell>{d.name}</TableCell>
                    <TableCell>{d.description ?? ''}</TableCell>
                    <TableCell>{d.isPublic ? '是' : '否'}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
                      {can('dict:edit') ? (
                        <Button
                          size="small"
                          onClick={() => setDictForm({ id: d.id, name: d.name, description: d.description ?? '', isPublic: d.isPublic })}
                        >
                          编辑
                        </Button>
                      ) : null}
                      {can('dict:del') ? (
                        <Button
                          size="small"
                          color="error"
                          onClick={() =>
                            setConfirm({
                              run: () =>
                                act(() => send('DELETE', '/api/dict', [d.id]), messages.notice.deleted).then((ok) => {
                                  if (ok && selected?.id === d.id) setSelected(null);
                                  return ok;
                                }),
                            })
                          }
                        >
                          删除
                        </Button>
                      ) : null}
                      <HistoryButton table="dict" id={d.id} onRestored={reload} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollX>
          <TablePager count={dicts.data?.totalElements ?? 0} page={page} size={10} onPageChange={setPage} />
        </Paper>
        <Paper sx={{ flex: 1, p: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1, mb: 1, alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="subtitle1">字典详情{selected ? `：${selected.name}` : ''}</Typography>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {selected && can('dict:add') ? (
                <Button
                  size="small"
                  variant="contained"
                  startIcon={<AddIcon />}
                  onClick={() => setDetailForm({ label: '', value: '', sort: detailRows.length + 1, enabled: true })}
                >
                  新增
                </Button>
              ) : null}
              {/* every dictionary's deleted details, each with its dictionary */}
              <RecycleBinButton table="dictDetail" label="详情回收站" onRestored={reload} />
            </Box>
          </Box>
          {selected ? (
            <ScrollX>
              <Table size="small" aria-label="字典详情">
                <TableHead>
                  <TableRow>
                    {['字典标签', '字典值', '排序', '状态', '操作'].map((h) => (
                      <TableCell key={h} sx={{ fontWeight: 600 }}>
                        {h}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  <TableState loading={details.loading && !details.data} failed={details.failed} empty={!detailRows.length} columns={5} />
                  {detailRows.map((d) => (
                    <TableRow key={d.id} hover>
                      <TableCell>{d.label}</TableCell>
                      <TableCell>{d.value}</TableCell>
                      <TableCell>{d.sort}</TableCell>
                      <TableCell>{d.enabled ? '启用' : '禁用'}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {can('dict:edit') ? (
                          <Button size="small" onClick={() => setDetailForm({ ...d })}>
                            编辑
                          </Button>
                        ) : null}
                        {can('dict:del') ? (
                          <Button
                            size="small"
                            color="error"
                            onClick={() =>
                              setConfirm({ run: () => act(() => send('DELETE', '/api/dictDetail', [d.id]), messages.notice.deleted) })
                            }
                          >
                            删除
                          </Button>
                        ) : null}
                        <HistoryButton table="dictDetail" id={d.id} onRestored={reload} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </ScrollX>
          ) : (
            <Typography variant="body2" sx={{ color: 'text.secondary', p: 2 }}>
              点击字典列表中的一行查看详情
            </Typography>
          )}
        </Paper>
      </Box>
      <FormDialog
        open={!!dictForm}
        title={dictForm?.id ? '编辑字典' : '新增字典'}
        busy={busy}
        onClose={() => setDictForm(null)}
        onSubmit={() =>
          dictForm &&
          dictCheck.valid() &&
          void run(
            () =>
              act(
                () => send(dictForm.id ? 'PUT' : 'POST', '/api/dict', dictForm),
                dictForm.id ? messages.notice.updated : messages.notice.created,
                dictCheck.failed,
              ),
            () => setDictForm(null),
          )
        }
      >
        {dictForm ? (
          <>
            <TextField
              label="字典名称"
              required
              value={dictForm.name}
              onChange={(e) => setDictForm({ ...dictForm, name: e.target.value })}
              {...dictCheck.field('name', '字母、数字和下划线，以字母开头')}
              inputProps={{ maxLength: 64 }}
            />
            <TextField
              label="描述"
              value={dictForm.description}
              onChange={(e) => setDictForm({ ...dictForm, description: e.target.value })}
              inputProps={{ maxLength: 255 }}
              {...dictCheck.field('description')}
            />
            <FormControlLabel
              control={<Switch checked={dictForm.isPublic} onChange={(e) => setDictForm({ ...dictForm, isPublic: e.target.checked })} />}
              label="公开（无需登录即可读取）"
            />
          </>
        ) : null}
      </FormDialog>
      <FormDialog
        open={!!detailForm}
        title={detailForm?.id ? '编辑字典详情' : '新增字典详情'}
        busy={busy}
        onClose={() => setDetailForm(null)}
        onSubmit={() =>
          detailForm &&
          selected &&
          detailCheck.valid() &&
          void run(
            () =>
              act(
                () => send(detailForm.id ? 'PUT' : 'POST', '/api/dictDetail', detailBody(detailForm)),
                detailForm.id ? messages.notice.updated : messages.notice.created,
                detailCheck.failed,
              ),
            () => setDetailForm(null),
          )
        }
      >
        {detailForm ? (
          <>
            <TextField
              label="字典标签"
              required
              value={detailForm.label}
              onChange={(e) => setDetailForm({ ...detailForm, label: e.target.value })}
              inputProps={{ maxLength: 100 }}
              {...detailCheck.field('label')}
            />
            <TextField
              label="字典值"
              required
              value={detailForm.value}
              onChange={(e) => setDetailForm({ ...detailForm, value: e.target.value })}
              inputProps={{ maxLength: 100 }}
              {...detailCheck.field('value')}
            />
            <TextField
              label="排序"
              type="number"
              value={detailForm.sort}
              onChange={(e) => setDetailForm({ ...detailForm, sort: Number(e.target.value) })}
              {...detailCheck.field('sort')}
            />
            <FormControlLabel
              control={
                <Switch checked={detailForm.enabled} onChange={(e) => setDetailForm({ ...detailForm, enabled: e.target.checked })} />
              }
              label={detailForm.enabled ? '启用' : '禁用'}
            />
          </>
        ) : null}
      </FormDialog>
      <ConfirmDialog
        open={!!confirm}
        busy={busy}
        content={messages.confirm.deleteOne}
        onConfirm={() => confirm && void run(confirm.run, () => setConfirm(null))}
        onClose={() => setConfirm(null)}
      />
    </Box>
  );
}

export default DictAdmin;
