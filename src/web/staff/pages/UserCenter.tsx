/** 个人中心 (/user/center): the signed-in user's profile card. */
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { Title, useGetIdentity } from 'react-admin';

function lastSegment(path: unknown): string {
  return typeof path === 'string' ? (path.split('/').filter(Boolean).pop() ?? '') : '';
}

export function UserCenter() {
  const { identity, isPending } = useGetIdentity();
  if (isPending || !identity) return null;
  const roles = Array.isArray(identity.roles) ? (identity.roles as Array<{ name: string }>).map((r) => r.name).join('、') : '';
  const rows: Array<[string, unknown]> = [
    ['用户名称', identity.username],
    ['用户昵称', identity.nickName],
    ['手机号码', identity.phone],
    ['所属公司', identity.orgName],
    ['所属部门', lastSegment(identity.deptNamePath)],
    ['所属角色', roles],
    ['密码修改日期', identity.lastPasswordResetDate],
  ];
  return (
    <Box sx={{ mt: 2, maxWidth: 480 }}>
      <Title title="个人中心" />
      <Card>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
            <Avatar src={typeof identity.avatar === 'string' ? identity.avatar : undefined} sx={{ width: 64, height: 64 }} />
            <Typography variant="h6">{identity.fullName}</Typography>
          </Box>
          <Divider />
          {rows.map(([label, value]) => (
            <Box key={label} sx={{ display: 'flex', justifyContent: 'space-between', py: 1, borderBottom: '1px solid #f0f0f0' }}>
              <Typography color="text.secondary">{label}</Typography>
              <Typography>{value ? String(value) : ''}</Typography>
            </Box>
          ))}
        </CardContent>
      </Card>
    </Box>
  );
}
