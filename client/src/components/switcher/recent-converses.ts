import { accountStore } from '../../state/account-state.ts';
import type { Route } from '../../state/route.ts';

/** How many visited converses the switcher remembers. */
const KEPT = 30;

/** The converses I opened in this session, most recent first: the switcher lists them first. */
export const useRecentConverses = accountStore<{ ids: string[] }>('recent converses', () => ({ ids: [] }));

/** Records the converse a route shows (called as the route changes). */
export function visited(route: Route): void {
  const id = route.name === 'group' || route.name === 'dm' ? route.converseId : undefined;
  if (!id) return;
  const { ids } = useRecentConverses.getState();
  if (ids[0] === id) return;
  useRecentConverses.setState({ ids: [id, ...ids.filter((x) => x !== id)].slice(0, KEPT) });
}
