import { closeSocket } from './socket-closing.ts';
import { userRoom } from './rooms.ts';
import type { ImServer } from './socket-server.ts';

/**
 * At most `limit` sockets per user on this gateway: past it the user's
 * oldest go. Each socket joins its user's room as it connects, and a room
 * keeps its sockets in the order they joined, so the oldest come first.
 * Tabs beyond the limit are rare for a person; a script opening sockets in
 * a loop holds `limit` of them, however long it runs.
 */
export function closeOldestPastLimit(io: ImServer, userId: string, limit: number): void {
  const ids = io.of('/').adapter.rooms.get(userRoom(userId));
  if (!ids || ids.size <= limit) return;
  const oldest = [...ids].slice(0, ids.size - limit);
  for (const id of oldest) {
    const socket = io.of('/').sockets.get(id);
    if (socket)
      closeSocket(
        socket,
        'IM_ERR_LIMIT',
        `Signed in on more than ${limit} windows or devices on this server: this one, the oldest, was closed`,
      );
  }
}
