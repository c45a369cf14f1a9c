import type { Ack, ClientToServerEvents, Message, ServerToClientEvents } from '@im/protocol';
import { io, type Socket } from 'socket.io-client';
import * as msgpackParser from 'socket.io-msgpack-parser';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A benchmark's socket: a real client on the websocket transport, no
 * reconnection (a drop must show, not heal), optionally from another loopback
 * source address, optionally with the msgpack parser (the server must use it
 * too). Resolves once connected.
 */
export async function connectSocket(
  url: string,
  token: string,
  options: {
    localAddress?: string;
    timeoutMs?: number;
    parser?: 'json' | 'msgpack';
    beforeConnect?: (socket: ClientSocket) => void;
  } = {},
): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    // engine.io hands localAddress on to the ws client.
    ...(options.localAddress ? ({ localAddress: options.localAddress } as object) : {}),
    ...(options.parser === 'msgpack' ? { parser: msgpackParser } : {}),
  });
  options.beforeConnect?.(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
    // A server that closes the connection before the handshake completes (its connectTimeout) sends no connect_error.
    socket.once('disconnect', (reason) => reject(new Error(`closed before connected: ${reason}`)));
  });
  return socket;
}

/** One socket in the coordinator itself: the member who sends. */
export const connectSender = (url: string, token: string, parser?: 'json' | 'msgpack'): Promise<ClientSocket> =>
  connectSocket(url, token, parser ? { parser } : {});

export async function sendMessage(
  socket: ClientSocket,
  converseId: string,
  content: string,
  clientMsgId: string,
): Promise<Message> {
  const res = (await socket
    .timeout(30_000)
    .emitWithAck('message:send', { converseId, content, clientMsgId })) as Ack<Message>;
  if (!res.ok) throw new Error(`send failed: ${res.error.code} ${res.error.message}`);
  return res.data;
}
