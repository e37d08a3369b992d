/**
 * 首页: the welcome line and the home image of 系统设置, beside it what the signed-in user has to
 * do (one card per to-do their keys allow, its count opening the filtered list), and under them
 * the last 30 days in charts. The counts and charts come from GET /api/home/summary (the lists'
 * own scoped counts); the chart code is a part of its own, loaded with this screen.
 */
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { Title, useGetIdentity } from 'react-admin';
import { request } from '../../common/http.ts';
import { useSessionSettings } from '../layout/useSessionSettings.ts';
import { lazyPart } from '../lazyPart.tsx';
import { productName } from '../../../shared/product.ts';
import { listLocation, openNotices, SUMMARY_URL, type Summary, type SummaryItem } from './home/summary.ts';

const loadCharts = () => import('./home/HomeCharts.tsx');
const HomeCharts = lazyPart(loadCharts, 'HomeCharts', <Skeleton variant="rounded" height={260} />);

function TodoCard({ item }: { item: SummaryItem }) {
  const to = listLocation(item);
  const body = (
    <CardContent sx={{ py: 1.5 }}>
      <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
        {item.title}
      </Typography>
      <Typography
        variant="h4"
        component="span"
        sx={{ display: 'block', fontWeight: 600, color: item.count ? 'primary.dark' : 'text.secondary' }}
      >
        {item.count}
      </Typography>
    </CardContent>
  );
  const label = `${item.title} ${item.count} 条`;
  return (
    <Card variant="outlined" data-testid={`todo-${item.key}`}>
      {to ? (
        <CardActionArea component={RouterLink} to={to} aria-label={label}>
          {body}
        </CardActionArea>
      ) : (
        <CardActionArea onClick={openNotices} aria-label={label}>
          {body}
        </CardActionArea>
      )}
    </Card>
  );
}

function Todos({ summary, failed }: { summary?: Summary; failed: boolean }) {
  if (failed) return <Alert severity="warning">待办数量暂时无法加载，请稍后刷新</Alert>;
  if (!summary)
    return (
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={84} />
        ))}
      </Box>
    );
  return (
    <Box
      component="ul"
      aria-label="待办事项"
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}
    >
      {summary.items.map((item) => (
        <li key={item.key}>
          <TodoCard item={item} />
        </li>
      ))}
    </Box>
  );
}

export function Dashboard() {
  const sys = useSessionSettings();
  const { identity } = useGetIdentity();
  const summary = useQuery({
    queryKey: ['home', 'summary'],
    queryFn: async () => (await request<Summary>(SUMMARY_URL, { quiet: true })).data,
    staleTime: 30_000,
  });
  const name = productName(sys.title);
  // the chart code comes while the counts are asked for, not after them
  useEffect(() => {
    void loadCharts().catch(() => undefined);
  }, []);
  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 2 }}>
      <Title title="首页" />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 5fr) minmax(0, 7fr)' }, alignItems: 'start' }}>
        <Card>
          <CardContent>
            <Typography variant="h6" component="h1" gutterBottom>
              {identity?.fullName ? `${identity.fullName}，欢迎使用${name}` : `欢迎使用${name}`}
            </Typography>
            {sys.sysHomeImg ? (
              <Box component="img" src={sys.sysHomeImg} alt="首页" sx={{ maxWidth: '100%', display: 'block', mt: 1 }} />
            ) : null}
          </CardContent>
        </Card>
        <Card component="section" aria-labelledby="home-todo-title">
          <CardContent>
            <Typography id="home-todo-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
              待办事项
            </Typography>
            <Todos summary={summary.data} failed={summary.isError} />
          </CardContent>
        </Card>
      </Box>
      {summary.data && summary.data.charts.length ? <HomeCharts summary={summary.data} /> : null}
    </Box>
  );
}
