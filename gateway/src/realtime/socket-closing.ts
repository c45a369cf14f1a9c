import type { ErrorCode } from '@im/sdk';
import type { ImSocket } from './socket-server.ts';

/**
 * Closes a socket on purpose and tells its client why first
 * (`socket:closing`), so it can say so instead of reconnecting blindly.
 */
export function closeSocket(socket: ImSocket, code: ErrorCode, message: string): void {
  if (!socket.connected) return;
  socket.emit('socket:closing', { code, message });
  socket.disconnect(true);
}
