import type { Ack, ClientToServerEvents, Message, ServerToClientEvents } from '@im/protocol';
import { io, type Socket } from 'socket.io-client';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** One socket in the coordinator itself: the member who sends. */
export async function connectSender(url: string, token: string): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  return socket;
}

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
