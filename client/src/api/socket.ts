import type { ClientToServerEvents, ServerToClientEvents } from '@im/protocol';
import { io, type Socket } from 'socket.io-client';
import { RECONNECT } from './reconnect.ts';

export type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** One websocket to the gateway of this origin, authenticated by the session token. */
export function connectSocket(token: string): ChatSocket {
  return io({
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token },
    reconnectionDelay: RECONNECT.delayMs,
    reconnectionDelayMax: RECONNECT.delayMaxMs,
    randomizationFactor: RECONNECT.randomization,
  });
}
