/**
 * /staffun/list: the postings open for applications; /staffun/view?id=: one posting's
 * recruitment information with 我要应聘, which opens the registration with the posting chosen.
 */
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { api, type Posting } from './api.ts';
import { PageFrame } from './PageFrame.tsx';
import { MUTED_TEXT, EMPHASIS_RED } from '../common/palette.ts';

export function PostingListPage() {
  const [postings, setPostings] = useState<Posting[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api<{ content: Posting[] }>('GET', 'api/staffunZp/public')
      .then((p) => setPostings(p.content))
      .catch((e: Error) => setProblem(e.message));
  }, []);
  return (
    <PageFrame title="招聘信息">
      {problem ? <Typography color="error">{problem}</Typography> : null}
      {!postings && !problem ? <Typography sx={{ color: MUTED_TEXT }}>正在加载...</Typography> : null}
      {postings && postings.length === 0 ? (
        <Typography sx={{ color: MUTED_TEXT, textAlign: 'center', py: 4 }}>暂无招聘中的岗位</Typography>
      ) : null}
      {(postings ?? []).map((p) => (
        <Card key={p.id} variant="outlined" sx={{ mb: 1 }}>
          <CardActionArea href={`#/staffun/view?id=${p.id}`}>
            <CardContent>
              <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
                <Typography sx={{ fontWeight: 600 }}>{p.job}</Typography>
                <Typography sx={{ color: EMPHASIS_RED }}>{p.money}</Typography>
              </Box>
              <Typography sx={{ fontSize: 13, color: MUTED_TEXT }}>
                {p.address} · 招聘{p.jobNum}人
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
      ))}
    </PageFrame>
  );
}

export function PostingViewPage({ query }: { query: URLSearchParams }) {
  const id = query.get('id') ?? '';
  const [posting, setPosting] = useState<Posting | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // another posting: the last one's text goes at once
  const [shownId, setShownId] = useState(id);
  if (shownId !== id) {
    setShownId(id);
    setPosting(null);
    setProblem(null);
  }
  useEffect(() => {
    api<Posting>('GET', 'api/staffunZp/public/getZpById', undefined, { id })
      .then(setPosting)
      .catch((e: Error) => setProblem(e.message));
  }, [id]);
  const section = (title: string, text: string) => (
    <Box sx={{ mt: 2 }}>
      <Typography sx={{ fontWeight: 600, borderLeft: '3px solid', borderColor: 'primary.main', pl: 1 }}>{title}</Typography>
      <Typography sx={{ whiteSpace: 'pre-wrap', fontSize: 14, color: '#606266', mt: 0.5 }}>{text}</Typography>
    </Box>
  );
  return (
    <PageFrame title="招聘信息">
      {problem ? (
        <Box sx={{ textAlign: 'center', py: 4 }}>
          <Typography color="error">{problem}</Typography>
          <Button href="#/staffun/list" sx={{ mt: 2 }}>
            查看其他岗位
          </Button>
        </Box>
      ) : null}
      {!posting && !problem ? <Typography sx={{ color: MUTED_TEXT }}>正在加载...</Typography> : null}
      {posting ? (
        <>
          <Typography component="h2" sx={{ fontSize: 20, fontWeight: 600 }}>
            {posting.job}
          </Typography>
          <Typography sx={{ color: EMPHASIS_RED, mt: 0.5 }}>{posting.money}</Typography>
          <Typography sx={{ fontSize: 13, color: MUTED_TEXT, mt: 0.5 }}>
            工作区域：{posting.address}
            {'\u3000'}招聘人数：{posting.jobNum}
          </Typography>
          {section('岗位职责', posting.jobZz)}
          {section('任职要求', posting.jobYq)}
          <Button variant="contained" fullWidth size="large" sx={{ mt: 3 }} href={`#/staffun?zpId=${posting.id}`}>
            我要应聘
          </Button>
        </>
      ) : null}
    </PageFrame>
  );
}
