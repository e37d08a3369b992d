import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import Root, { warmUpConsole } from './Root.tsx';

warmUpConsole();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
