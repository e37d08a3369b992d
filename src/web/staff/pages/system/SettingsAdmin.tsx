/**
 * 系统设置 (/system/settings): the system name, company name, filing number, favicon, logo and
 * home image every session carries in `sys`. Pictures go up through api/pictures and the
 * settings keep their address; 保存 (sysConfig:edit) writes them all and the console shows the
 * new ones at once (header, sidebar, footer, dashboard, favicon). Without the key, read-only.
 */
import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Title, useNotify } from 'react-admin';
import { request } from '../../../common/http.ts';
import { updateSessionSys, type SysSettings } from '../../../common/session.ts';
import { getJson, useAction, useCan, useLoad } from './common.tsx';
import { HistoryButton } from './HistoryButton.tsx';
import { SETTINGS_RECORD_ID } from '../../../../shared/table-history.ts';

interface Settings {
  title: string;
  compName: string;
  recordNumber: string;
  favicon: string;
  logo: string;
  sysHomeImg: string;
}

const TEXTS: Array<{ key: 'title' | 'compName' | 'recordNumber'; label: string; max: number; help: string }> = [
  { key: 'title', label: '系统名称', max: 30, help: '浏览器标题和顶栏显示' },
  { key: 'compName', label: '公司名称', max: 50, help: '侧边栏和页脚显示' },
  { key: 'recordNumber', label: '备案号', max: 50, help: '登录页和页脚显示，例如 沪ICP备12345678号-1' },
];

const PICTURES: Array<{ key: 'favicon' | 'logo' | 'sysHomeImg'; label: string; help: string; height: number }> = [
  { key: 'favicon', label: '网站图标', help: '浏览器标签页的图标（/favicon.ico），建议 32×32 的 PNG', height: 32 },
  { key: 'logo', label: '系统Logo', help: '侧边栏顶部显示，建议高度 28 像素以上', height: 48 },
  { key: 'sysHomeImg', label: '首页图片', help: '首页显示', height: 120 },
];

async function uploadPicture(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const { data } = await request<{ url: string }>('/api/pictures', { method: 'POST', body: form });
  return data.url;
}

function PictureField(props: {
  label: string;
  help: string;
  height: number;
  value: string;
  disabled: boolean;
  onChange: (url: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      props.onChange(await uploadPicture(file));
    } catch {
      /* the HTTP client shows why */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        {props.label}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Box
          sx={{
            minWidth: 64,
            minHeight: props.height,
            border: '1px dashed',
            borderColor: 'divider',
            borderRadius: 1,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            p: 0.5,
          }}
        >
          {props.value ? (
            <Box component="img" src={props.value} alt={props.label} sx={{ maxHeight: props.height, maxWidth: 320, display: 'block' }} />
          ) : (
            <Typography variant="caption" color="text.secondary">
              未设置
            </Typography>
          )}
        </Box>
        {!props.disabled && (
          <>
            <input
              ref={input}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp,image/bmp"
              hidden
              aria-label={`上传${props.label}`}
              onChange={(e) => void pick(e.target.files?.[0])}
            />
            <Button variant="outlined" size="small" disabled={busy} onClick={() => input.current?.click()}>
              {busy ? <CircularProgress size={16} /> : '上传'}
            </Button>
            {props.value && (
              <Button size="small" color="inherit" onClick={() => props.onChange('')}>
                清除
              </Button>
            )}
          </>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {props.help}
      </Typography>
    </Box>
  );
}

export function SettingsAdmin() {
  const can = useCan();
  const editable = can('sysConfig:edit');
  const act = useAction();
  const notify = useNotify();
  const { data, loading, failed, reload } = useLoad(() => getJson<Settings>('/api/system/sysConfig'), []);
  const [form, setForm] = useState<Settings | null>(null);
  const [busy, setBusy] = useState(false);
  // the form starts from the loaded settings, and again after each reload
  const [formFor, setFormFor] = useState<Settings | null>(null);
  if (data && formFor !== data) {
    setFormFor(data);
    setForm(data);
  }

  const save = async () => {
    if (!form) return;
    for (const t of TEXTS) {
      const value = form[t.key].trim();
      if ((t.key === 'compName' || t.key === 'title') && !value) return notify(`${t.label}不能为空`, { type: 'warning' });
      if ([...value].length > t.max) return notify(`${t.label}不能超过${t.max}个字符`, { type: 'warning' });
    }
    setBusy(true);
    const ok = await act(() => request('/api/system/sysConfig', { method: 'PUT', body: form }), '保存成功');
    setBusy(false);
    if (ok) {
      const saved: SysSettings = await getJson<SysSettings>('/api/system/sysConfig').catch(() => ({ ...form }));
      updateSessionSys(saved);
      reload();
    }
  };

  return (
    <Box sx={{ mt: 1, maxWidth: 760 }}>
      <Title title="系统设置" />
      <Card>
        <CardContent>
          {loading && !form ? (
            <CircularProgress aria-label="正在加载" />
          ) : failed || !form ? (
            <Typography color="error">加载失败</Typography>
          ) : (
            <Stack spacing={3} component="form" aria-label="系统设置" onSubmit={(e) => (e.preventDefault(), void save())}>
              {TEXTS.map((t) => (
                <TextField
                  key={t.key}
                  label={t.label}
                  value={form[t.key]}
                  helperText={t.help}
                  size="small"
                  fullWidth
                  disabled={!editable}
                  slotProps={{ htmlInput: { maxLength: t.max } }}
                  onChange={(e) => setForm({ ...form, [t.key]: e.target.value })}
                />
              ))}
              {PICTURES.map((p) => (
                <PictureField
                  key={p.key}
                  label={p.label}
                  help={p.help}
                  height={p.height}
                  value={form[p.key]}
                  disabled={!editable}
                  onChange={(url) => setForm({ ...form, [p.key]: url })}
                />
              ))}
              <Box sx={{ display: 'flex', gap: 1 }}>
                {editable ? (
                  <Button type="submit" variant="contained" disabled={busy}>
                    保存
                  </Button>
                ) : null}
                <HistoryButton table="settings" id={SETTINGS_RECORD_ID} variant="outlined" onRestored={reload} />
              </Box>
            </Stack>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
