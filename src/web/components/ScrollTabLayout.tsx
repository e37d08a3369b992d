/**
 * Scroll-tab layout: tabs on the left jump to the sections of a long page; the tab of the
 * section being read is marked while scrolling. Below 600 px the tabs go above the content.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';

export interface ScrollSection {
  id: string;
  title: string;
  content: ReactNode;
}

/** The section whose top is the last one above the reading line (px below the top of the view). */
export function currentSection(tops: Array<{ id: string; top: number }>, line: number): string | undefined {
  let current = tops[0]?.id;
  for (const t of tops) if (t.top <= line) current = t.id;
  return current;
}

export function ScrollTabLayout({ sections, offset = 120 }: { sections: ScrollSection[]; offset?: number }) {
  const [active, setActive] = useState(sections[0]?.id);
  const refs = useRef(new Map<string, HTMLElement>());
  const jumping = useRef(0);

  useEffect(() => {
    const onScroll = () => {
      if (Date.now() - jumping.current < 600) return;
      const tops = sections.flatMap((s) => {
        const el = refs.current.get(s.id);
        return el ? [{ id: s.id, top: el.getBoundingClientRect().top }] : [];
      });
      const id = currentSection(tops, offset + 8);
      if (id) setActive(id);
    };
    window.addEventListener('scroll', onScroll, { passive: true, capture: true });
    return () => window.removeEventListener('scroll', onScroll, { capture: true });
  }, [sections, offset]);

  const jump = (id: string) => {
    setActive(id);
    jumping.current = Date.now();
    refs.current.get(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, alignItems: 'flex-start' }}>
      <Box sx={{ position: { sm: 'sticky' }, top: { sm: offset - 40 }, flexShrink: 0, width: { xs: '100%', sm: 140 } }}>
        <Tabs
          orientation="vertical"
          value={active}
          onChange={(_e, id: string) => jump(id)}
          aria-label="页面导航"
          sx={{ borderRight: { sm: 1 }, borderColor: { sm: 'divider' }, display: { xs: 'none', sm: 'flex' } }}
        >
          {sections.map((s) => (
            <Tab key={s.id} value={s.id} label={s.title} sx={{ alignItems: 'flex-start' }} />
          ))}
        </Tabs>
        <Tabs
          value={active}
          onChange={(_e, id: string) => jump(id)}
          variant="scrollable"
          aria-label="页面导航"
          sx={{ display: { xs: 'flex', sm: 'none' } }}
        >
          {sections.map((s) => (
            <Tab key={s.id} value={s.id} label={s.title} />
          ))}
        </Tabs>
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {sections.map((s, i) => (
          <Box
            key={s.id}
            component="section"
            id={`section-${s.id}`}
            aria-label={s.title}
            ref={(el: HTMLElement | null) => {
              if (el) refs.current.set(s.id, el);
              else refs.current.delete(s.id);
            }}
            // the last section is tall enough to be jumped to the top of the view too
            sx={{
              scrollMarginTop: `${offset}px`,
              mb: 3,
              minHeight: i === sections.length - 1 ? `calc(100vh - ${offset + 40}px)` : undefined,
            }}
          >
            <Typography
              component="h3"
              sx={{ fontSize: 16, fontWeight: 600, borderLeft: '3px solid', borderColor: 'primary.main', pl: 1, mb: 1 }}
            >
              {s.title}
            </Typography>
            {s.content}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
