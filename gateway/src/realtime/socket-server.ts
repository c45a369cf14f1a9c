import type { Server as HttpServer } from 'node:http';
import type {
  Ack,
  ClientToServerEvents,
  CommandAccepted,
  Message,
  SendMessageBody,
  ServerToClientEvents,
  SyncRequest,
  SyncResult,
} from '@im/protocol';
import { announce, call, EVENTS, ImError, toHttpError, type AppContext, type EventPayloads } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import { Server, type Socket } from 'socket.io';
import type { Authenticator } from '../auth/authenticator.ts';
import type { PresenceStore } from './presence.ts';
import { converseRoom, groupRoom, presenceGroupIds, sessionRoom, userRoom } from './rooms.ts';

export interface SocketData {
  userId: string;
  sessionId: string;
  /** Set for a bot's socket: the one group it acts in. */
  botGroupId?: string;
  /** Resolves once the socket is in all its rooms: actions wait for it. */
  ready: Promise<void>;
  /** Whether this socket was counted in presence (it may close before its rooms are loaded). */
  counted?: boolean;
  /** Groups told of this user's presence changes, found once at connect. */
  presenceGroupIds?: string[];
  /** Made on first use: most sockets never type. */
  lastTyping?: Map<string, number>;
}

export type ImServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type ImSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** A socket's typing notices for one converse reach others at most this often. */
const TYPING_EVERY_MS = 2_000;

/** Most converses one `sync` may name (the contract's limit). */
const MAX_SYNC_CURSORS = 500;

/**
 * The cursors of converses the socket is in: the socket knows its rooms, so
 * made-up or foreign ids cost nothing. Anything but a plain object is passed
 * on for the chat service's validation to refuse.
 */
function ownCursors(socket: ImSocket, cursors: unknown): SyncRequest['cursors'] {
  if (typeof cursors !== 'object' || cursors === null || Array.isArray(cursors))
    return cursors as SyncRequest['cursors'];
  const entries = Object.entries(cursors);
  if (entries.length > MAX_SYNC_CURSORS)
    throw new ImError('IM_ERR_VALIDATION', `At most ${MAX_SYNC_CURSORS} converses per sync`);
  return Object.fromEntries(entries.filter(([converseId]) => socket.rooms.has(converseRoom(converseId))));
}

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
  // The upgrade request stays referenced by each session unless dropped; the
  // handshake already copied what the gateway reads (auth, headers, address).
  io.engine.on('connection', (raw: { request: unknown }) => {
    raw.request = null;
  });

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const verify =
      typeof token === 'string'
        ? auth.sessionFromToken(token)
        : Promise.reject(new ImError('IM_ERR_UNAUTHORIZED', 'Missing token in the handshake'));
    verify.then(
      ({ userId, sessionId, botGroupId }) => {
        socket.data.userId = userId;
        socket.data.sessionId = sessionId;
        if (botGroupId) socket.data.botGroupId = botGroupId;
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

  // One set of listeners for every socket (socket.io calls them with the
  // socket as `this`): closures per socket would cost memory at 18k sockets.
  async function onSend(this: ImSocket, body: SendMessageBody, ack: (a: Ack<Message | CommandAccepted>) => void) {
    if (typeof ack !== 'function') return;
    try {
      await this.data.ready;
      // chat.send counts against the 'send' limit, like the HTTP route's calls.
      const { userId, botGroupId } = this.data;
      const message = await call(broker, 'chat.send', body, {
        meta: { user: botGroupId ? { id: userId, botGroupId } : { id: userId } },
      });
      ack({ ok: true, data: message });
    } catch (err) {
      ack(failure(err));
    }
  }

  async function onTyping(this: ImSocket, body: { converseId: string }, ack?: (a: Ack<null>) => void) {
    const reply = typeof ack === 'function' ? ack : () => undefined;
    await this.data.ready;
    const converseId = typeof body?.converseId === 'string' ? body.converseId : '';
    if (!this.rooms.has(converseRoom(converseId)))
      return reply(failure(new ImError('IM_ERR_NOT_FOUND', 'Converse not found')));
    const now = Date.now();
    const lastTyping = (this.data.lastTyping ??= new Map());
    if (now - (lastTyping.get(converseId) ?? 0) >= TYPING_EVERY_MS) {
      try {
        await app.rateLimits.consume('typing', this.data.userId);
      } catch (err) {
        return reply(failure(err));
      }
      lastTyping.set(converseId, now);
      announce(broker, EVENTS.typing, { converseId, userId: this.data.userId });
    }
    reply({ ok: true, data: null });
  }

  async function onSync(this: ImSocket, body: SyncRequest, ack: (a: Ack<SyncResult>) => void) {
    if (typeof ack !== 'function') return;
    try {
      await this.data.ready;
      const result = await call(
        broker,
        'chat.sync',
        { cursors: ownCursors(this, body?.cursors) },
        { meta: { user: { id: this.data.userId, sessionId: this.data.sessionId } } },
      );
      ack({ ok: true, data: result });
    } catch (err) {
      ack(failure(err));
    }
  }

  function onDisconnect(this: ImSocket) {
    const { userId } = this.data;
    void this.data.ready
      .then(async () => {
        if (!this.data.counted || !(await presence.disconnected(userId))) return;
        const payload: EventPayloads['gateway.presence'] = {
          userId,
          online: false,
          groupIds: this.data.presenceGroupIds ?? [],
        };
        await broker.broadcast(EVENTS.presence, payload);
      })
      // While the node shuts down the services may already be gone; presence is best effort then.
      .catch((err: unknown) => app.logger.debug({ err, userId }, 'could not announce offline presence'));
  }

  io.on('connection', (socket: ImSocket) => {
    void socket.join([userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)]);
    socket.data.ready = joinRooms(socket).catch((err: unknown) => {
      app.logger.warn({ err, userId: socket.data.userId }, 'could not load rooms for a socket');
      socket.disconnect(true);
    });
    socket.on('message:send', onSend);
    socket.on('typing', onTyping);
    socket.on('sync', onSync);
    socket.on('disconnect', onDisconnect);
  });

  async function joinRooms(socket: ImSocket): Promise<void> {
    const { userId } = socket.data;
    const rooms = await call(broker, 'chat.userRooms', { userId });
    await socket.join([
      ...rooms.groups.map((g) => groupRoom(g.groupId)),
      ...rooms.groups.flatMap((g) => g.converseIds.map(converseRoom)),
      ...rooms.dmIds.map(converseRoom),
    ]);
    socket.data.presenceGroupIds = presenceGroupIds(rooms.groups, app.config.presenceGroupLimit);
    // A socket that closed while its rooms loaded is not counted (its disconnect already ran).
    if (!socket.connected) return;
    socket.data.counted = true;
    if (await presence.connected(userId)) {
      announce(broker, EVENTS.presence, { userId, online: true, groupIds: socket.data.presenceGroupIds });
    }
  }

  return io;
}
