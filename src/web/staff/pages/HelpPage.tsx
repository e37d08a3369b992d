/**
 * Menu help page (/help?menuId= or /help?path=/screen): the pageRemark of the first help page
 * of that menu (GET api/menuPage?menuId=, newest first), sanitised. Reached from the help button
 * in the header, which passes the current screen's path.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { Title, usePermissions } from 'react-admin';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { RichText } from '../../components/RichText.tsx';
import { request } from '../../common/http.ts';
import { hasPermission } from '../../common/session.ts';

interface HelpState {
  status: 'loading' | 'ready' | 'empty' | 'nomenu' | 'error';
  title?: string;
  menuTitle?: string;
  html?: string;
  menuId?: number;
}

async function loadHelp(menuId: string | null, path: string | null): Promise<HelpState> {
  let id = menuId && /^\d{1,15}$/.test(menuId) ? Number(menuId) : undefined;
  let menuTitle: string | undefined;
  if (id === undefined && path) {
    try {
      const { data } = await request<{ menuId: number; title: string }>('/api/menuPage/menu', { query: { path }, quiet: true });
      id = data.menuId;
      menuTitle = data.title;
    } catch {
      return { status: 'nomenu' };
    }
  }
  if (id === undefined) return { status: 'nomenu' };
  const { data } = await request<{ content: Array<{ title: string; pageRemark: string }> }>('/api/menuPage', {
    query: { menuId: id, page: 0, size: 1, sort: 'id,desc' },
    quiet: true,
  });
  const first = data.content[0];
  if (!first) return { status: 'empty', menuId: id, menuTitle };
  return { status: 'ready', title: first.title, html: first.pageRemark, menuId: id, menuTitle };
}

export function HelpPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { permissions } = usePermissions<string[]>();
  const menuId = params.get('menuId');
  const path = params.get('path');
  const [state, setState] = useState<HelpState>({ status: 'loading' });
  // another menu or path: loading again until its help comes
  const [loadedFor, setLoadedFor] = useState({ menuId, path });
  if (loadedFor.menuId !== menuId || loadedFor.path !== path) {
    setLoadedFor({ menuId, path });
    setState({ status: 'loading' });
  }

  useEffect(() => {
    let live = true;
    loadHelp(menuId, path)
      .then((s) => live && setState(s))
      .catch(() => live && setState({ status: 'error' }));
    return () => {
      live = false;
    };
  }, [menuId, path]);

  return (
    <Box sx={{ p: 2 }}>
      <Title title="帮助" />
      <Card>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', mb: 2, gap: 1 }}>
            <Typography variant="h6" sx={{ flex: 1 }}>
              {state.title ?? (state.menuTitle ? `${state.menuTitle} · 帮助` : '帮助')}
            </Typography>
            <Button onClick={() => void navigate(-1)}>返回</Button>
          </Box>
          {state.status === 'loading' ? <LinearProgress aria-label="正在加载" /> : null}
          {state.status === 'ready' && state.html ? <RichText html={state.html} /> : null}
          {state.status === 'empty' ? (
            <Alert
              severity="info"
              action={
                hasPermission(permissions, 'menuPage:add') ? (
                  <Button component={RouterLink} to="/menuPage" size="small">
                    去维护
                  </Button>
                ) : undefined
              }
            >
              该页面暂无帮助内容
            </Alert>
          ) : null}
          {state.status === 'nomenu' ? <Alert severity="info">当前页面没有对应的菜单，暂无帮助内容</Alert> : null}
          {state.status === 'error' ? <Alert severity="error">帮助内容加载失败，请稍后重试</Alert> : null}
        </CardContent>
      </Card>
    </Box>
  );
}
