import type { ReadReceipt } from '@im/protocol';
import { accountStore } from './account-state.ts';
import { api } from '../api/api.ts';

/** converseId → userId → how far they read, for converses whose receipts were asked for. */
export const useReceipts = accountStore<{ byConverse: Record<string, Record<string, number>> }>(
  'read receipts',
  () => ({
    byConverse: {},
  }),
);

/** A receipt moves a reader forward only (events and the list may arrive in any order). */
export function applyReceipt(event: ReadReceipt & { converseId: string }): void {
  useReceipts.setState((s) => {
    const current = s.byConverse[event.converseId] ?? {};
    if ((current[event.userId] ?? 0) >= event.readSeq) return s;
    return { byConverse: { ...s.byConverse, [event.converseId]: { ...current, [event.userId]: event.readSeq } } };
  });
}

/** Asks the server who read how far (empty for converses too large for receipts). */
export async function loadReceipts(converseId: string): Promise<void> {
  const list = await api.call('chat.reads', { converseId });
  for (const r of list) applyReceipt({ converseId, ...r });
}
