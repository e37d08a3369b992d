/**
 * 岗位说明 (/jobDescription): the enabled job descriptions (api/jobExplain), the signed-in
 * user's own positions (roles with the same name) first and marked 我的岗位; the content is
 * server-sanitised HTML, sanitised again before it is shown.
 */
import { useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Title, useGetIdentity } from 'react-admin';
import { RichText } from '../../components/RichText.tsx';
import { request } from '../../common/http.ts';

export interface JobExplain {
  id: number;
  roleName: string;
  content: string;
  sort: number;
}

/** Entries ordered with the user's own roles first (each group keeps the server's order). */
export function ownFirst(entries: JobExplain[], roleNames: string[]): Array<JobExplain & { own: boolean }> {
  const mine = entries.filter((e) => roleNames.includes(e.roleName)).map((e) => ({ ...e, own: true }));
  const others = entries.filter((e) => !roleNames.includes(e.roleName)).map((e) => ({ ...e, own: false }));
  return [...mine, ...others];
}

export function JobDescriptionPage() {
  const { identity } = useGetIdentity();
  const [entries, setEntries] = useState<JobExplain[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [tab, setTab] = useState(0);

  useEffect(() => {
    request<{ content: JobExplain[] }>('/api/jobExplain', {
      query: { enabled: true, page: 0, size: 99999, sort: ['sort,asc', 'id,desc'] },
      quiet: true,
    })
      .then(({ data }) => setEntries(data.content))
      .catch(() => setFailed(true));
  }, []);

  const roleNames = useMemo(() => ((identity?.roles as Array<{ name: string }> | undefined) ?? []).map((r) => r.name), [identity]);
  const ordered = useMemo(() => (entries ? ownFirst(entries, roleNames) : []), [entries, roleNames]);
  const current = ordered[Math.min(tab, Math.max(0, ordered.length - 1))];

  return (
    <Box sx={{ p: 2 }}>
      <Title title="岗位说明" />
      <Card>
        <CardContent>
          {entries === null && !failed ? <LinearProgress aria-label="正在加载" /> : null}
          {failed ? <Alert severity="error">岗位说明加载失败，请稍后重试</Alert> : null}
          {entries && entries.length === 0 ? <Alert severity="info">暂无岗位说明，请联系管理员维护</Alert> : null}
          {ordered.length > 0 ? (
            <>
              <Tabs
                value={Math.min(tab, ordered.length - 1)}
                onChange={(_e, v: number) => setTab(v)}
                variant="scrollable"
                sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
              >
                {ordered.map((e) => (
                  <Tab
                    key={e.id}
                    sx={{ textTransform: 'none' }}
                    label={
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                        {e.roleName}
                        {e.own ? <Chip size="small" color="primary" label="我的岗位" /> : null}
                      </Box>
                    }
                  />
                ))}
              </Tabs>
              {current ? <RichText html={current.content} /> : null}
            </>
          ) : null}
        </CardContent>
      </Card>
    </Box>
  );
}
