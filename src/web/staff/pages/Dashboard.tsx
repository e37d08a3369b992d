/** 首页: the home image from system settings. */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Title, useGetIdentity } from 'react-admin';
import { useSessionSettings } from '../layout/useSessionSettings.ts';

export function Dashboard() {
  const sys = useSessionSettings();
  const { identity } = useGetIdentity();
  return (
    <Box sx={{ mt: 2 }}>
      <Title title="首页" />
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {identity?.fullName ? `${identity.fullName}，欢迎使用${sys.title || '后台管理系统'}` : `欢迎使用${sys.title || '后台管理系统'}`}
          </Typography>
          {sys.sysHomeImg ? (
            <Box component="img" src={sys.sysHomeImg} alt="首页" sx={{ maxWidth: '100%', display: 'block', mt: 1 }} />
          ) : null}
        </CardContent>
      </Card>
    </Box>
  );
}
