import type { BlockedUser } from '@im/protocol';
import { useEffect } from 'react';
import { api } from '../api/api.ts';
import { accountStore } from './account-state.ts';

interface BlocksState {
  /** The users I blocked, newest first; null until loaded. */
  blocked: BlockedUser[] | null;
  loading: boolean;
}

/** The users I blocked: their messages are folded away, and Settings lists them. */
export const useBlocks = accountStore<BlocksState>('blocks', () => ({ blocked: null, loading: false }));

/** Loads my blocks once per session (again after a sign-in). */
export function loadBlocks(): void {
  const { blocked, loading } = useBlocks.getState();
  if (blocked !== null || loading) return;
  useBlocks.setState({ loading: true });
  api.call('user.blocks').then(
    // Anything but a list (an older server) counts as none blocked.
    (list) => useBlocks.setState({ blocked: Array.isArray(list) ? list : [], loading: false }),
    () => useBlocks.setState({ loading: false }),
  );
}

export async function blockUser(userId: string): Promise<void> {
  await api.call('user.block', { userId });
  useBlocks.setState({ blocked: await api.call('user.blocks') });
}

export async function unblockUser(userId: string): Promise<void> {
  await api.call('user.unblock', { userId });
  useBlocks.setState((s) => ({ blocked: (s.blocked ?? []).filter((b) => b.userId !== userId) }));
}

/** Whether I blocked this user (false until my blocks are loaded). */
export function useIsBlocked(userId: string): boolean {
  useEffect(() => loadBlocks(), []);
  return useBlocks((s) => s.blocked?.some((b) => b.userId === userId) ?? false);
}
