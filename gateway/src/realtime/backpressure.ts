import type { ImServer } from './socket-server.ts';

const CHECK_EVERY_MS = 2_000;

/**
 * A client that stops reading must not grow this process's memory without
 * bound: every couple of seconds, sockets whose unsent data exceeds the limit
 * are disconnected (they reconnect and catch up with `sync`).
 */
export function watchSlowClients(io: ImServer, maxBufferedBytes: number, onDrop: (userId: string) => void): () => void {
  const timer = setInterval(() => {
    for (const socket of io.sockets.sockets.values()) {
      const conn = socket.conn as unknown as {
        writeBuffer?: unknown[];
        transport?: { socket?: { bufferedAmount?: number } };
      };
      const buffered = conn.transport?.socket?.bufferedAmount ?? 0;
      // engine.io's own queue holds packets while the transport is not writable; count them roughly.
      const queued = (conn.writeBuffer?.length ?? 0) * 1024;
      if (buffered + queued > maxBufferedBytes) {
        onDrop(socket.data.userId);
        socket.disconnect(true);
      }
    }
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
