import type { ImServer } from './socket-server.ts';

/** Reconnects close together (the transporter's and the room router's) make one signal. */
const COALESCE_MS = 250;

/**
 * Tells every socket of this gateway to sync (`sync:required`) after the
 * gateway's link to the cluster came back: realtime events published while
 * it was away never reached it, and nothing else would tell its clients.
 * Returns the function to call on each reconnect.
 */
export function missedEventsNotifier(sockets: () => ImServer | undefined, onNotify: () => void): () => void {
  let pending: NodeJS.Timeout | undefined;
  return () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      const io = sockets();
      if (!io) return;
      onNotify();
      io.local.emit('sync:required', { reason: 'cluster-reconnect' });
    }, COALESCE_MS);
    pending.unref();
  };
}
