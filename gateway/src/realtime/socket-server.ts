import type { Server as HttpServer } from 'node:http';
import type { Ack, ClientToServerEvents, Message, ServerToClientEvents, SyncResult } from '@im/protocol';
import { announce, EVENTS, ImError, toHttpError, type AppContext } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import { Server, type Socket } from 'socket.io';
import type { Authenticator } from '../auth/authenticator.ts';
import type { PresenceStore } from './presence.ts';
import { converseRoom, groupRoom, userRoom } from './rooms.ts';
import { TokenBucket } from './token-bucket.ts';

export interface SocketData {
  userId: string;
  /** Resolves once the socket is in all its rooms: actions wait for it. */
  ready: Promise<void>;
  /** Whether this socket was counted in presence (it may close before its rooms are loaded). */
  counted?: boolean;
  /** Groups told of this user's presence changes, found once at connect. */
  presenceGroupIds?: string[];
}

export type ImServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type ImSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

interface UserRooms {
  groups: Array<{ groupId: string; memberCount: number; converseIds: string[] }>;
  dmIds: string[];
}

const SENDS_PER_SECOND = 10;
const SEND_BURST = 30;
const TYPING_EVERY_MS = 2_000;

const failure = (err: unknown): Ack<never> => {
  const { body } = toHttpError(err);
  return { ok: false, error: { code: body.error.code, message: body.error.message } };
};

/**
 * The socket.io side of the gateway: authenticates the handshake, puts each
 * socket in its user's, groups' and converses' rooms (one call at connect),
 * and serves the client actions. Fan-out of service events lives in fanout.ts.
 */
export function createSocketServer(
  httpServer: HttpServer,
  app: AppContext,
  broker: ServiceBroker,
  auth: Authenticator,
  presence: PresenceStore,
): ImServer {
  const io: ImServer = new Server(httpServer, {
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: app.config.socketMaxPayloadBytes,
    pingInterval: 20_000,
    pingTimeout: 20_000,
  });
  const limited = app.config.rateLimit === 'on';

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const verify =
      typeof token === 'string'
        ? auth.fromToken(token)
        : Promise.reject(new ImError('IM_ERR_UNAUTHORIZED', 'Missing token in the handshake'));
    verify.then(
      (userId) => {
        socket.data.userId = userId;
        next();
      },
      (err: unknown) => {
        const { body } = toHttpError(err);
        next(
          Object.assign(new Error(body.error.message), {
            data: { code: body.error.code, message: body.error.message },
          }),
        );
      },
    );
  });

  io.on('connection', (socket: ImSocket) => {
    const { userId } = socket.data;
    void socket.join(userRoom(userId));
    const sends = new TokenBucket(SENDS_PER_SECOND, SEND_BURST);
    const lastTyping = new Map<string, number>();
    socket.data.ready = joinRooms(socket).catch((err: unknown) => {
      app.logger.warn({ err, userId }, 'could not load rooms for a socket');
      socket.disconnect(true);
    });

    socket.on('message:send', async (body, ack) => {
      if (typeof ack !== 'function') return;
      try {
        await socket.data.ready;
        if (limited && !sends.take())
          throw new ImError('IM_ERR_RATE_LIMITED', undefined, { retryAfterSec: sends.retryAfterSec });
        const message = (await broker.call('chat.send', body, { meta: { user: { id: userId } } })) as Message;
        ack({ ok: true, data: message });
      } catch (err) {
        ack(failure(err));
      }
    });

    socket.on('typing', async (body, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      await socket.data.ready;
      const converseId = typeof body?.converseId === 'string' ? body.converseId : '';
      if (!socket.rooms.has(converseRoom(converseId)))
        return reply(failure(new ImError('IM_ERR_NOT_FOUND', 'Converse not found')));
      const now = Date.now();
      if (now - (lastTyping.get(converseId) ?? 0) >= TYPING_EVERY_MS) {
        lastTyping.set(converseId, now);
        announce(broker, EVENTS.typing, { converseId, userId });
      }
      reply({ ok: true, data: null });
    });

    socket.on('sync', async (body, ack) => {
      if (typeof ack !== 'function') return;
      try {
        await socket.data.ready;
        const result = (await broker.call(
          'chat.sync',
          { cursors: body?.cursors },
          { meta: { user: { id: userId } } },
        )) as SyncResult;
        ack({ ok: true, data: result });
      } catch (err) {
        ack(failure(err));
      }
    });

    socket.on('disconnect', () => {
      void socket.data.ready
        .then(async () => {
          if (!socket.data.counted || !(await presence.disconnected(userId))) return;
          await broker.broadcast(EVENTS.presence, {
            userId,
            online: false,
            groupIds: socket.data.presenceGroupIds ?? [],
          });
        })
        // While the node shuts down the services may already be gone; presence is best effort then.
        .catch((err: unknown) => app.logger.debug({ err, userId }, 'could not announce offline presence'));
    });
  });

  async function joinRooms(socket: ImSocket): Promise<void> {
    const { userId } = socket.data;
    const rooms = (await broker.call('chat.userRooms', { userId })) as UserRooms;
    await socket.join([
      ...rooms.groups.map((g) => groupRoom(g.groupId)),
      ...rooms.groups.flatMap((g) => g.converseIds.map(converseRoom)),
      ...rooms.dmIds.map(converseRoom),
    ]);
    socket.data.presenceGroupIds = rooms.groups
      .filter((g) => g.memberCount <= app.config.presenceGroupLimit)
      .map((g) => g.groupId);
    // A socket that closed while its rooms loaded is not counted (its disconnect already ran).
    if (!socket.connected) return;
    socket.data.counted = true;
    if (await presence.connected(userId)) {
      announce(broker, EVENTS.presence, { userId, online: true, groupIds: socket.data.presenceGroupIds });
    }
  }

  return io;
}
