import { parseRoute, routePath, type Route } from './route.ts';
import { setState } from './store.ts';

/** Shows a screen and records it in the address bar (so reload and back work). */
export function navigate(route: Route, opts: { replace?: boolean } = {}): void {
  const target = routePath(route);
  if (typeof window !== 'undefined' && window.location.pathname !== target) {
    if (opts.replace) window.history.replaceState(null, '', target);
    else window.history.pushState(null, '', target);
  }
  setState({ route });
}

export function startRouting(): () => void {
  const sync = () => setState({ route: parseRoute(window.location.pathname, window.location.search) });
  sync();
  window.addEventListener('popstate', sync);
  return () => window.removeEventListener('popstate', sync);
}
