/**
 * 系统提示 after a sign-in whose password is old: 暂不修改 goes on, 去修改 opens the user
 * centre. Its own chunk: the dialog (modal, focus trap, transitions) is shown to few sign-ins
 * and is loaded only when one needs it, not with the sign-in page.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { PASSWORD_DISABLE_DAYS, PASSWORD_WARN_DAYS } from '../common/session.ts';
import { suppressButtonKeys } from '../common/inputFilters.ts';

export function PasswordAgeDialog({ onLater, onChange }: { onLater: () => void; onChange: () => void }) {
  return (
    <Dialog open aria-labelledby="password-age-title">
      <DialogTitle id="password-age-title">系统提示</DialogTitle>
      <DialogContent>
        您的密码已经{PASSWORD_WARN_DAYS}天未修改，请修改密码，超过{PASSWORD_DISABLE_DAYS}天未修改将被禁用！
      </DialogContent>
      <DialogActions>
        <Button onClick={onLater} onKeyDown={suppressButtonKeys}>
          暂不修改
        </Button>
        <Button variant="contained" onClick={onChange} onKeyDown={suppressButtonKeys}>
          去修改
        </Button>
      </DialogActions>
    </Dialog>
  );
}
