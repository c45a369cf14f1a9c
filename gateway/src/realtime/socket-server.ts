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
import { announce, call, EVENTS, toHttpError, type AppContext, notFound, invalid, unauthorized } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import pLimit from 'p-limit';
import { Server, type Socket } from 'socket.io';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Realtime } from './fanout.ts';
import type { PresenceStore } from './presence.ts';
import { publishPresence } from './presence-status.ts';
import { RoomAdmission } from './room-admission.ts';
import { RoomJournal, type JournalMark, type ReplayTarget } from './room-journal.ts';
import { converseRoom, groupRoom, presenceGroupIds, sessionRoom, userRoom } from './rooms.ts';
import { FrameAdapter } from './frame-adapter.ts';
import type { UwsApp } from './ws-engine.ts';
import { leanSockets } from './lean-sockets.ts';
import { SessionWatch } from './session-watch.ts';
import { closeOldestPastLimit } from './socket-limit.ts';

const laterOverHttp = () =>
  invalid("'sendAt' is for POST /api/converses/:id/messages", [
    { field: 'sendAt', type: 'forbidden', message: "'sendAt' is for POST /api/converses/:id/messages" },
  ]);

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
  /** The app said this tab is idle (`presence:idle`): it does not keep its user from being away. */
  idle?: boolean;
  /** Made on first use: most sockets never type. */
  lastTyping?: Map<string, number>;
  /** When its token expires (epoch ms): the socket closes then (session-watch.ts). */
  expiresAtMs?: number;
  /** Whether its expiry timer is set (only for tokens that expire before the next session round). */
  expiryTimed?: boolean;
}

export type ImServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type ImSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** A socket's typing notices for one converse reach others at most this often. */
const TYPING_EVERY_MS = 2_000;

/** Most converses one `sync` may name (the contract's limit). */
const MAX_SYNC_CURSORS = 500;

/** A failed room lookup or sync is tried again this many times in all, after 0.25, 0.5, 1, 2 s (±50%). */
const READ_ATTEMPTS = 5;
const readBackoffMs = (attempt: number) => 250 * 2 ** attempt * (0.5 + Math.random());
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A read for a socket, tried again after a failure while the socket is open:
 * a slow or restarting service costs it a wait, not the answer. Refusals
 * (a 4xx: bad input, not found, rate limited) are answered at once.
 */
async function retrying<T>(read: () => Promise<T>, socket: { connected: boolean }): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (err) {
      if (attempt >= READ_ATTEMPTS || !socket.connected || toHttpError(err).status < 500) throw err;
      await pause(readBackoffMs(attempt - 1));
    }
  }
}

/**
 * The cursors of converses the socket is in: the socket knows its rooms, so
 * made-up or foreign ids cost nothing. Anything but a plain object is passed
 * on for the chat service's validation to refuse.
 */
function ownCursors(socket: ImSocket, cursors: unknown): SyncRequest['cursors'] {
  if (typeof cursors !== 'object' || cursors === null || Array.isArray(cursors))
    return cursors as SyncRequest['cursors'];
  const entries = Object.entries(cursors);
  if (entries.length > MAX_SYNC_CURSORS) throw invalid(`At most ${MAX_SYNC_CURSORS} converses per sync`);
  return Object.fromEntries(entries.filter(([converseId]) => socket.rooms.has(converseRoom(converseId))));
}

const failure = (err: unknown): Ack<never> => {
  const { body } = toHttpError(err);
  return { ok: false, error: { code: body.error.code, message: body.error.message } };
};

/** A handshake refusal the client reads from `connect_error`'s `data`. */
const refusal = (code: string, message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { data: { code, message, ...extra } });

/**
 * The socket.io side of the gateway: authenticates the handshake, puts each
 * socket in its user's, groups' and converses' rooms (one call at connect,
 * admitted at the rate the node sustains, with what it would have missed
 * meanwhile replayed), and serves the client actions. Fan-out of service
 * events lives in fanout.ts.
 */
export function createSocketServer(
  httpServer: HttpServer,
  app: AppContext,
  broker: ServiceBroker,
  auth: Authenticator,
  presence: PresenceStore,
  extras: {
    /**
     * With routing by room: resolves once this gateway hears the given rooms
     * (subscribed, and the NATS server has processed the subscriptions).
     */
    hearRooms?: (rooms: string[]) => Promise<void>;
    /** SOCKET_WS_ENGINE=uws: the uWebSockets.js app to serve socket.io from instead of `httpServer`. */
    uwsApp?: UwsApp;
  } = {},
): Realtime & { admission: RoomAdmission; sessions: SessionWatch } {
  const { hearRooms, uwsApp } = extras;
  const options = {
    path: '/socket.io',
    transports: ['websocket' as const],
    serveClient: false,
    maxHttpBufferSize: app.config.socketMaxPayloadBytes,
    pingInterval: 20_000,
    pingTimeout: 20_000,
  };
  let io: ImServer;
  if (uwsApp) {
    // socket.io then publishes each room emit through uWS itself (its own adapter patch).
    io = new Server(options);
    io.attachApp(uwsApp);
  } else {
    // A room emit's frame goes to each socket in one write (see frame-adapter.ts).
    io = new Server(httpServer, { ...options, adapter: FrameAdapter });
  }
  // Drops the upgrade request and trims each socket's handshake (memory per idle socket).
  leanSockets(io);

  const journal = new RoomJournal();
  const syncs = pLimit(app.config.socketRoomLoads);
  const admission = new RoomAdmission({
    concurrency: app.config.socketRoomLoads,
    backlog: app.config.socketConnectBacklog,
  });

  io.use((socket, next) => {
    // Checked before the token: a node past its backlog should spend nothing on the handshake.
    if (admission.full) {
      next(
        refusal('IM_ERR_SERVICE_UNAVAILABLE', 'This server is busy connecting others; retry later', {
          retryAfterMs: admission.retryAfterMs(),
        }),
      );
      return;
    }
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const verify =
      typeof token === 'string'
        ? auth.sessionFromToken(token)
        : Promise.reject(unauthorized('Missing token in the handshake'));
    verify.then(
      ({ userId, sessionId, botGroupId }) => {
        socket.data.userId = userId;
        socket.data.sessionId = sessionId;
        const expiresAtMs = auth.expiresAtMs(token as string);
        if (expiresAtMs !== undefined) socket.data.expiresAtMs = expiresAtMs;
        if (botGroupId) socket.data.botGroupId = botGroupId;
        next();
      },
      (err: unknown) => {
        const { status, body } = toHttpError(err);
        // A dependency that could not answer: the client comes back later, each at its own time.
        const extra = status === 503 ? { retryAfterMs: admission.retryAfterMs() } : {};
        next(refusal(body.error.code, body.error.message, extra));
      },
    );
  });

  // One set of listeners for every socket (socket.io calls them with the
  // socket as `this`): closures per socket would cost memory at 18k sockets.
  async function onSend(this: ImSocket, body: SendMessageBody, ack: (a: Ack<Message | CommandAccepted>) => void) {
    if (typeof ack !== 'function') return;
    // With tracing on, a send over the socket starts a trace, as one over HTTP does.
    if (app.tracing) return app.tracing.socketRequest('message:send', () => send(this, body, ack));
    return send(this, body, ack);
  }

  async function send(socket: ImSocket, body: SendMessageBody, ack: (a: Ack<Message | CommandAccepted>) => void) {
    try {
      await socket.data.ready;
      // chat.send counts against the 'send' limit, like the HTTP route's calls.
      const { userId, botGroupId } = socket.data;
      // Sending later is an HTTP send's (it answers 202 {scheduled}, not a message).
      if (body && typeof body === 'object' && 'sendAt' in body) throw laterOverHttp();
      const message = await call(broker, 'chat.send', body, {
        meta: { user: botGroupId ? { id: userId, botGroupId } : { id: userId } },
      });
      if ('scheduled' in message) throw laterOverHttp();
      ack({ ok: true, data: message });
    } catch (err) {
      ack(failure(err));
    }
  }

  async function onTyping(this: ImSocket, body: { converseId: string }, ack?: (a: Ack<null>) => void) {
    const reply = typeof ack === 'function' ? ack : () => undefined;
    await this.data.ready;
    const converseId = typeof body?.converseId === 'string' ? body.converseId : '';
    if (!this.rooms.has(converseRoom(converseId))) return reply(failure(notFound('converse')));
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
      const cursors = ownCursors(this, body?.cursors);
      const meta = { user: { id: this.data.userId, sessionId: this.data.sessionId } };
      // A storm's catch-ups queue here, not inside the broker call where its timeout runs;
      // a read that timed out (a cold store after a restart) is tried again, not failed.
      const result = await syncs(() => retrying(() => call(broker, 'chat.sync', { cursors }, { meta }), this));
      ack({ ok: true, data: result });
    } catch (err) {
      ack(failure(err));
    }
  }

  /**
   * The app tells when its tab goes idle (no input for 10 minutes) and
   * active again; the user is away while every socket of theirs is idle.
   */
  async function onIdle(this: ImSocket, body: { idle: boolean }) {
    const idle = body?.idle === true;
    const { userId } = this.data;
    try {
      await this.data.ready;
      if (!this.data.counted || !this.connected || (this.data.idle ?? false) === idle) return;
      this.data.idle = idle;
      const changed = idle ? await presence.idle(userId) : await presence.active(userId);
      if (changed) await publishPresence(broker, presence, userId, this.data.presenceGroupIds ?? []);
    } catch (err) {
      app.logger.debug({ err, userId }, 'could not announce away presence');
    }
  }

  function onDisconnect(this: ImSocket) {
    const { userId } = this.data;
    void this.data.ready
      .then(async () => {
        if (!this.data.counted) return;
        // An active socket going leaves the user away when their other sockets are all idle.
        const lastActive = !this.data.idle && (await presence.idle(userId));
        if (!(await presence.disconnected(userId)) && !lastActive) return;
        await publishPresence(broker, presence, userId, this.data.presenceGroupIds ?? []);
      })
      // While the node shuts down the services may already be gone; presence is best effort then.
      .catch((err: unknown) => app.logger.debug({ err, userId }, 'could not announce offline presence'));
  }

  const sessions = new SessionWatch(io, auth, app.config.socketSessionCheckSec * 1000, app.logger);
  sessions.start();

  io.on('connection', (socket: ImSocket) => {
    void socket.join([userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)]);
    // After the join: this socket counts, and the user's oldest go if it is one too many.
    closeOldestPastLimit(io, socket.data.userId, app.config.socketsPerUser);
    sessions.admit(socket);
    // From here on the socket is connected: what its groups and converses get
    // before it is in their rooms is kept for it (and replayed in loadRooms).
    const mark = journal.mark();
    socket.data.ready = admission
      .run(() => loadRooms(socket, mark))
      .catch((err: unknown) => {
        app.logger.warn({ err, userId: socket.data.userId }, 'could not load rooms for a socket');
        // The client reconnects (with jitter) and catches up with sync.
        socket.disconnect(true);
      });
    socket.on('message:send', onSend);
    socket.on('typing', onTyping);
    socket.on('sync', onSync);
    socket.on('presence:idle', onIdle);
    socket.on('disconnect', onDisconnect);
  });

  /** The user's rooms, tried again after a failure: a slow or restarting service does not cost the socket. */
  const lookUpRooms = (socket: ImSocket) =>
    retrying(() => call(broker, 'chat.userRooms', { userId: socket.data.userId }), socket);

  async function loadRooms(socket: ImSocket, mark: JournalMark): Promise<void> {
    // The rooms it had when marked: its own id, its user's and its session's.
    const roomsAtMark = [socket.id, userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)];
    let replayed = false;
    try {
      // A socket that closed while waiting for its turn costs no lookup.
      if (!socket.connected) return;
      // Routed by room: this gateway hears the user's room before the lookup, so a membership
      // change the lookup does not see yet reaches the journal.
      if (hearRooms) await hearRooms([userRoom(socket.data.userId)]);
      const rooms = await lookUpRooms(socket);
      const loaded = [
        ...rooms.groups.map((g) => groupRoom(g.groupId)),
        ...rooms.groups.flatMap((g) => g.converseIds.map(converseRoom)),
        ...rooms.dmIds.map(converseRoom),
      ];
      // ...and every room of the socket before it joins them: from then on nothing of theirs passes it by.
      if (hearRooms && socket.connected) await hearRooms(loaded);
      // A socket that closed while its rooms loaded is not counted (its disconnect already ran).
      if (!socket.connected) return;
      void socket.join(loaded);
      // In the same turn as the join: nothing can slip between the two.
      journal.replay(mark, socket as unknown as ReplayTarget, roomsAtMark);
      replayed = true;
      socket.data.presenceGroupIds = presenceGroupIds(rooms.groups, app.config.presenceGroupLimit);
    } finally {
      if (!replayed) journal.release(mark);
    }
    socket.data.counted = true;
    const { userId } = socket.data;
    // Counted online, then active: a user who was away is back with a new socket.
    const cameOnline = await presence.connected(userId);
    const wasAway = await presence.active(userId);
    if (cameOnline || wasAway) {
      void publishPresence(broker, presence, userId, socket.data.presenceGroupIds).catch((err: unknown) =>
        app.logger.debug({ err, userId }, 'could not announce online presence'),
      );
    }
  }

  return { io, journal, admission, sessions };
}
