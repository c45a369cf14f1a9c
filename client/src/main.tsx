import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n/i18n.ts';
import { startTheme } from './theme/theme.ts';
import { App } from './App.tsx';
import './styles.css';
import { startAppWorker } from './offline/service-worker.ts';

// The app shell kept for offline starts (and the worker Web Push uses).
startAppWorker();

startTheme();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
