import type { Ack, ClientToServerEvents, Message, ServerToClientEvents, SyncResult } from '@im/protocol';
import { io, type Socket } from 'socket.io-client';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A real socket.io client, connected and in all its rooms (its first sync answered). */
export async function connectClient(base: string, token: string): Promise<ClientSocket> {
  const socket: ClientSocket = io(base, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  await sync(socket, {});
  return socket;
}

export async function sync(socket: ClientSocket, cursors: Record<string, number>): Promise<SyncResult> {
  const res = (await socket.timeout(30_000).emitWithAck('sync', { cursors })) as Ack<SyncResult>;
  if (!res.ok) throw new Error(`sync failed: ${res.error.code}`);
  return res.data;
}

export async function sendOverSocket(
  socket: ClientSocket,
  converseId: string,
  content: string,
  clientMsgId?: string,
): Promise<Message> {
  const res = (await socket
    .timeout(30_000)
    .emitWithAck('message:send', { converseId, content, ...(clientMsgId ? { clientMsgId } : {}) })) as Ack<Message>;
  if (!res.ok) throw new Error(`send failed: ${res.error.code} ${res.error.message}`);
  return res.data;
}

/** Records every event of one name a socket receives. */
export function record<E extends keyof ServerToClientEvents>(
  socket: ClientSocket,
  event: E,
): Array<Parameters<ServerToClientEvents[E]>[0]> {
  const seen: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
  return seen;
}

export async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
