/**
 * 首页's charts: records created per day over the last 30 days, one bar chart per list the user
 * may read (代步车申请, 问题反馈, 应聘人员). Loaded with 首页 as a part of its own, so the
 * chart library is never in the sign-in page's or the console's first download.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import type { Summary, SummaryChart } from './summary.ts';

const LOCALE = { noData: '暂无数据', loading: '正在加载' };

function DayChart({ chart, from, to }: { chart: SummaryChart; from: string; to: string }) {
  const theme = useTheme();
  const total = chart.days.reduce((n, d) => n + d.count, 0);
  const most = Math.max(0, ...chart.days.map((d) => d.count));
  const titleId = `home-chart-${chart.key}`;
  return (
    <Card component="section" aria-labelledby={titleId} data-testid={`chart-${chart.key}`}>
      <CardContent>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          近30天{chart.title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {from} 至 {to}，共 {total} 条
        </Typography>
        <BarChart
          height={220}
          margin={{ left: 0, right: 8, top: 16, bottom: 0 }}
          hideLegend
          localeText={LOCALE}
          xAxis={[
            {
              scaleType: 'band',
              data: chart.days.map((d) => d.date.slice(5)),
              tickLabelInterval: 'auto',
            },
          ]}
          // whole numbers from 0; an empty month still shows 0 and 1
          yAxis={[{ min: 0, max: Math.max(1, most), tickMinStep: 1, width: 40, valueFormatter: (v: number) => String(Math.round(v)) }]}
          series={[{ data: chart.days.map((d) => d.count), label: `新增${chart.title}`, color: theme.palette.primary.main }]}
        />
      </CardContent>
    </Card>
  );
}

export function HomeCharts({ summary }: { summary: Summary }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(auto-fit, minmax(300px, 1fr))' } }}>
      {summary.charts.map((chart) => (
        <DayChart key={chart.key} chart={chart} from={summary.from} to={summary.to} />
      ))}
    </Box>
  );
}
