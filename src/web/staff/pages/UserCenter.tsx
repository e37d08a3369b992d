/**
 * 个人中心 (/user/center): profile card with avatar upload and the security actions (phone,
 * e-mail, password, lock time), and tabs 用户资料 (nickname, sex) and 操作日志 (own log).
 * `?type=` opens a dialog: password (also when no type is given), email, phone, nickName, lock,
 * reset (password reset by SMS code to the phone on file);
 * `?type=log` shows the log tab.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { textOf } from '../../common/text.ts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Title, useGetIdentity, useNotify } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { messages } from '../../../shared/messages.ts';
import { maskPhone } from '../../../shared/masks.ts';
import { refreshSession } from '../../common/session.ts';
import { updateCenter, uploadAvatar } from './user-center/api.ts';
import { EmailDialog } from './user-center/EmailDialog.tsx';
import { LockTimeDialog } from './user-center/LockTimeDialog.tsx';
import { NickNameDialog } from './user-center/NickNameDialog.tsx';
import { PasswordDialog } from './user-center/PasswordDialog.tsx';
import { PhoneDialog } from './user-center/PhoneDialog.tsx';
import { ResetBySmsDialog } from './user-center/ResetBySmsDialog.tsx';
import { UserLogs } from './user-center/UserLogs.tsx';
import { TransferDialog } from '../../components/TransferProgress.tsx';
import { MSG_CANCELED, type TransferProgress } from '../../common/http.ts';

export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

type DialogName = 'password' | 'email' | 'phone' | 'nickName' | 'lock' | 'reset' | null;
const DIALOGS = ['password', 'email', 'phone', 'nickName', 'lock', 'reset'];

function lastSegment(path: unknown): string {
  return typeof path === 'string' ? (path.split('/').filter(Boolean).pop() ?? '') : '';
}

/** The dialog a `type` query opens: none given opens the password dialog. */
export function dialogForType(type: string | null): DialogName {
  if (type === null || type === '') return 'password';
  return DIALOGS.includes(type) ? (type as DialogName) : null;
}

export function UserCenter({ reloadPage = () => window.location.reload() }: { reloadPage?: () => void }) {
  const { identity, isPending, refetch } = useGetIdentity();
  const notify = useNotify();
  const { search } = useLocation();
  const type = new URLSearchParams(search).get('type');
  const [dialog, setDialog] = useState<DialogName>(() => dialogForType(type));
  const [tab, setTab] = useState(type === 'log' ? 1 : 0);
  const [nickName, setNickName] = useState('');
  const [sex, setSex] = useState('1');
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const [avatarProgress, setAvatarProgress] = useState<TransferProgress | null>(null);
  const avatarUpload = useRef<AbortController | null>(null);

  // the address's ?type= opens its dialog (or the log tab) whenever it changes
  const [typeSeen, setTypeSeen] = useState(type);
  if (typeSeen !== type) {
    setTypeSeen(type);
    setDialog(dialogForType(type));
    if (type === 'log') setTab(1);
  }
  // the form starts from the signed-in user's data, and again when it is fetched anew
  const [identitySeen, setIdentitySeen] = useState<typeof identity>(undefined);
  if (identity && identitySeen !== identity) {
    setIdentitySeen(identity);
    setNickName(textOf(identity.nickName));
    setSex(Number(identity.sex ?? 1) === 1 ? '1' : '0');
  }

  if (isPending || !identity) return null;
  const user = {
    id: Number(identity.id),
    nickName: String(identity.nickName ?? ''),
    sex: Number(identity.sex ?? 1),
    phone: (identity.phone as string | null) ?? null,
    email: (identity.email as string | null) ?? null,
    lockTime: Number(identity.lockTime ?? 0),
    orgId: (identity.orgId as number | null) ?? null,
    deptId: (identity.deptId as number | null) ?? null,
  };
  const reload = async () => {
    await refreshSession().catch(() => undefined);
    await refetch();
  };
  const roles = Array.isArray(identity.roles) ? (identity.roles as Array<{ name: string }>).map((r) => r.name).join('、') : '';

  const saveProfile = async () => {
    const value = nickName.trim();
    if (!value) {
      setFormError(messages.contact.nickNameRequired);
      return;
    }
    setFormError('');
    setSaving(true);
    try {
      await updateCenter({ id: user.id, nickName: value, sex: Number(sex), phone: user.phone });
      notify(messages.notice.modified, { type: 'success' });
      await reload();
    } catch (e) {
      notify(e instanceof Error ? e.message : '保存失败', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const pickAvatar = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!AVATAR_TYPES.includes(file.type)) {
      notify('头像只能是 JPG、PNG、GIF 或 WEBP 格式的图片', { type: 'error' });
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      notify('头像大小不能超过 2MB', { type: 'error' });
      return;
    }
    const controller = new AbortController();
    avatarUpload.current = controller;
    setAvatarProgress({ percent: 0, loaded: 0, total: file.size });
    try {
      await uploadAvatar(file, { onProgress: setAvatarProgress, signal: controller.signal });
      setAvatarProgress(null);
      notify(messages.notice.avatarChanged, { type: 'success' });
      await reload();
    } catch (err) {
      setAvatarProgress(null);
      const message = err instanceof Error ? err.message : '头像上传失败';
      notify(message, { type: message === MSG_CANCELED ? 'info' : 'error' });
    } finally {
      avatarUpload.current = null;
    }
  };

  const row = (label: string, value: React.ReactNode, action?: React.ReactNode) => (
    <Box key={label} sx={{ display: 'flex', alignItems: 'center', py: 1, borderBottom: '1px solid #f0f0f0', gap: 1 }}>
      <Typography color="text.secondary" sx={{ width: 88, flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography sx={{ flex: 1, wordBreak: 'break-all' }}>{value}</Typography>
      {action}
    </Box>
  );
  const edit = (name: DialogName, label = '修改') => (
    <Link component="button" type="button" underline="hover" onClick={() => setDialog(name)}>
      {label}
    </Link>
  );

  return (
    <Box sx={{ mt: 2, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <Title title="个人中心" />
      <TransferDialog
        open={avatarProgress !== null}
        title="上传头像"
        progress={avatarProgress}
        label="上传进度"
        onCancel={() => avatarUpload.current?.abort()}
      />
      <Card sx={{ width: 360, maxWidth: '100%' }}>
        <CardHeader title="个人信息" slotProps={{ title: { variant: 'subtitle1' } }} />
        <CardContent>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, mb: 2 }}>
            <Tooltip title="点击上传头像">
              <Avatar
                component="button"
                aria-label="上传头像"
                onClick={() => fileInput.current?.click()}
                src={typeof identity.img === 'string' && identity.img ? identity.img : undefined}
                sx={{ width: 96, height: 96, cursor: 'pointer', border: 0, p: 0 }}
              />
            </Tooltip>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept={AVATAR_TYPES.join(',')}
              onChange={(e) => void pickAvatar(e)}
              data-testid="avatar-input"
            />
            <Typography variant="h6">{user.nickName || String(identity.username ?? '')}</Typography>
          </Box>
          {row('用户名称', String(identity.username ?? ''))}
          {row('手机号码', user.phone ? maskPhone(user.phone) : '未绑定', edit('phone', user.phone ? '修改' : '绑定'))}
          {row('用户邮箱', user.email || '未绑定', edit('email', user.email ? '修改' : '绑定'))}
          {row('所属公司', String(identity.orgName ?? ''))}
          {row('所属部门', lastSegment(identity.deptNamePath))}
          {row('所属角色', roles)}
          {row(
            '安全设置',
            '',
            <Box sx={{ display: 'flex', gap: 1.5 }}>
              {edit('password', '修改密码')}
              {user.phone ? edit('reset', '短信重置') : null}
              {edit('nickName', '修改昵称')}
            </Box>,
          )}
          {row('锁屏时间', user.lockTime ? `${user.lockTime}分钟` : '永不', edit('lock', '设置'))}
          {row('密码修改日期', String(identity.lastPasswordResetDate ?? ''))}
        </CardContent>
      </Card>
      <Card sx={{ flex: 1, minWidth: 320 }}>
        <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ px: 2, borderBottom: '1px solid #f0f0f0' }}>
          <Tab label="用户资料" />
          <Tab label="操作日志" />
        </Tabs>
        <CardContent>
          {tab === 0 ? (
            <Box
              component="form"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                void saveProfile();
              }}
              sx={{ maxWidth: 420 }}
            >
              <TextField
                name="profileNickName"
                label="昵称"
                fullWidth
                size="small"
                margin="dense"
                value={nickName}
                onChange={(e) => setNickName(e.target.value)}
                error={!!formError}
                helperText={formError || ' '}
                slotProps={{ htmlInput: { maxLength: 64 } }}
              />
              <TextField
                label="手机号"
                fullWidth
                size="small"
                margin="dense"
                value={user.phone ?? ''}
                helperText="修改手机号需短信验证：请点击“手机号码”旁的“修改”"
                slotProps={{ htmlInput: { readOnly: true } }}
              />
              <FormLabel sx={{ display: 'block', mt: 1 }}>性别</FormLabel>
              <RadioGroup row name="sex" value={sex} onChange={(e) => setSex(e.target.value)}>
                <FormControlLabel value="1" control={<Radio size="small" />} label="男" />
                <FormControlLabel value="0" control={<Radio size="small" />} label="女" />
              </RadioGroup>
              <Button type="submit" variant="contained" size="small" disabled={saving} sx={{ mt: 1 }}>
                {saving ? '保存中...' : '保存配置'}
              </Button>
            </Box>
          ) : (
            <UserLogs />
          )}
        </CardContent>
      </Card>
      <PasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      {user.phone ? (
        <ResetBySmsDialog open={dialog === 'reset'} phone={user.phone} onClose={() => setDialog(null)} reloadPage={reloadPage} />
      ) : null}
      <EmailDialog open={dialog === 'email'} current={user.email} onClose={() => setDialog(null)} onSaved={() => void reload()} />
      <PhoneDialog open={dialog === 'phone'} userId={user.id} onClose={() => setDialog(null)} onSaved={() => void reload()} />
      <NickNameDialog open={dialog === 'nickName'} user={user} onClose={() => setDialog(null)} onSaved={() => void reload()} />
      <LockTimeDialog
        open={dialog === 'lock'}
        user={user}
        onClose={() => setDialog(null)}
        afterSave={() => {
          void reload().finally(reloadPage);
        }}
      />
    </Box>
  );
}
