import type { UnreadEntry } from '@im/protocol';

/** Every unread message across my converses (the server's counters, moved live); of a muted one only its mentions of me. */
export function unreadTotal(
  unread: Record<string, UnreadEntry>,
  muted: (converseId: string) => boolean = () => false,
): number {
  let total = 0;
  for (const entry of Object.values(unread))
    total += Math.max(0, muted(entry.converseId) ? entry.mentions : entry.unread);
  return total;
}

/** The tab's title: the app's name, led by the unread count when there is any, e.g. "(3) Chat". */
export function titleWithCount(base: string, total: number): string {
  return total > 0 ? `(${total}) ${base}` : base;
}
