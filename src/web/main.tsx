import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import Root, { preloadFirstApp, warmUpConsole } from './Root.tsx';

warmUpConsole();

// the first render shows the application itself (index.html says 正在加载... until then)
void preloadFirstApp().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
