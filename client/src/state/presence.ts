import { setState } from './store.ts';
import { api } from '../api/api.ts';

const CHUNK = 200;

/** Asks who of these users is online (the events keep it current afterwards). */
export async function loadPresence(userIds: string[]): Promise<void> {
  for (let i = 0; i < userIds.length; i += CHUNK) {
    const chunk = userIds.slice(i, i + CHUNK);
    if (chunk.length === 0) continue;
    try {
      const { online, statuses } = await api.call('gateway.presence', { userIds: chunk.join(',') });
      const on = new Set(online);
      setState((s) => {
        const presence = { ...s.presence };
        const known = { ...s.statuses };
        for (const id of chunk) {
          presence[id] = on.has(id);
          // Servers before statuses answer `online` alone.
          known[id] = statuses?.[id] ?? { online: on.has(id) };
        }
        return { presence, statuses: known };
      });
    } catch {
      // Presence is a nicety: the list still works without it.
    }
  }
}
