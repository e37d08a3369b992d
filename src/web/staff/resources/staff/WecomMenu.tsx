/**
 * 企业微信 of a roster row: a menu of 创建成员 (the WeCom account defaults to the mobile),
 * 同步信息, 设置企业邮箱 and 删除成员 (after a confirmation). What WeCom refuses is shown as the
 * server's message (企业微信返回错误：…, or 企业微信未配置 with what to set).
 */
import { useState } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Alert from '@mui/material/Alert';
import ForumIcon from '@mui/icons-material/Forum';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SyncIcon from '@mui/icons-material/Sync';
import EmailIcon from '@mui/icons-material/Email';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import type { RaRecord } from 'react-admin';
import { isEmail } from '../../../../shared/validators.ts';
import { ConfirmDialog, FormDialog, useAction } from '../../pages/system/common.tsx';
import { staffApi } from './api.ts';

type Dialog = 'create' | 'mail' | 'delete' | null;

export function WecomMenu({ record, onDone }: { record: RaRecord; onDone: () => void }) {
  const act = useAction();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [userid, setUserid] = useState('');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState('');
  const bound = !!record.qywxUserId;
  const onStaff = Number(record.status) === 1;
  const id = Number(record.id);

  const open = (d: Dialog) => {
    setAnchor(null);
    setProblem('');
    if (d === 'create') setUserid(String(record.mobile ?? ''));
    if (d === 'mail') setEmail(String(record.qywxEmail ?? ''));
    setDialog(d);
  };
  const run = async (work: () => Promise<unknown>, notice: string) => {
    setBusy(true);
    const ok = await act(work, notice);
    setBusy(false);
    if (ok) {
      setDialog(null);
      onDone();
    }
  };
  const sync = async () => {
    setAnchor(null);
    await run(() => staffApi.pushMember(id), '同步成功');
  };
  const create = () => {
    const text = userid.trim();
    if (text && !/^[A-Za-z0-9_.@-]{1,64}$/.test(text)) {
      setProblem('企业微信账号只能包含字母、数字和 _ . @ -');
      return;
    }
    void run(() => staffApi.createMember(id, text || undefined), '企业微信成员创建成功');
  };
  const saveMail = () => {
    if (!isEmail(email.trim())) {
      setProblem('邮箱格式错误');
      return;
    }
    void run(() => staffApi.setMail(id, email.trim()), '企业邮箱设置成功');
  };

  return (
    <>
      <Tooltip title={bound ? `企业微信（${record.qywxUserId}）` : '企业微信'}>
        <span>
          <IconButton
            size="small"
            color={bound ? 'success' : 'default'}
            aria-label="企业微信"
            onClick={(e) => setAnchor(e.currentTarget)}
            disabled={busy}
          >
            {busy && dialog === null ? <CircularProgress size={16} /> : <ForumIcon fontSize="small" />}
          </IconButton>
        </span>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => open('create')} disabled={bound || !onStaff}>
          <ListItemIcon>
            <PersonAddIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>创建成员</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => void sync()} disabled={!bound}>
          <ListItemIcon>
            <SyncIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>同步信息</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => open('mail')} disabled={!bound}>
          <ListItemIcon>
            <EmailIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>设置企业邮箱</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => open('delete')} disabled={!bound}>
          <ListItemIcon>
            <PersonRemoveIcon fontSize="small" color="error" />
          </ListItemIcon>
          <ListItemText>删除成员</ListItemText>
        </MenuItem>
      </Menu>
      {dialog === 'create' ? (
        <FormDialog
          open
          title={`创建企业微信成员：${record.name}`}
          width={460}
          busy={busy}
          onClose={() => setDialog(null)}
          onSubmit={create}
        >
          {problem ? <Alert severity="error">{problem}</Alert> : null}
          <TextField
            size="small"
            label="企业微信账号"
            value={userid}
            onChange={(e) => setUserid(e.target.value)}
            helperText="默认使用手机号码；创建后姓名、手机、性别、岗位和邮箱同步到企业微信"
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
        </FormDialog>
      ) : null}
      {dialog === 'mail' ? (
        <FormDialog open title={`设置企业邮箱：${record.name}`} width={460} busy={busy} onClose={() => setDialog(null)} onSubmit={saveMail}>
          {problem ? <Alert severity="error">{problem}</Alert> : null}
          <TextField
            size="small"
            label="企业邮箱"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
        </FormDialog>
      ) : null}
      <ConfirmDialog
        open={dialog === 'delete'}
        busy={busy}
        content={`确定删除「${record.name}」的企业微信成员（${record.qywxUserId ?? ''}）吗？删除后该员工将无法使用企业微信。`}
        onConfirm={() => void run(() => staffApi.deleteMember(id), '企业微信成员已删除')}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
