import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Work-messaging QR sign-in. The QR provider is not configured in this installation yet. */
export default function QrPanel() {
  return (
    <Box sx={{ minHeight: 240, display: 'flex', alignItems: 'center', justifyContent: 'center', textAlign: 'center' }}>
      <Typography color="text.secondary">
        扫码登录尚未配置
        <br />
        请使用账号登录
      </Typography>
    </Box>
  );
}
