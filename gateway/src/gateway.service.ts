import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  call,
  callerId,
  converseRoom,
  EVENTS,
  isRoutedEvent,
  rateLimitAddressKey,
  SERVICE_NAMES,
  type EventName,
  TokenService,
  type ActionParams,
  type ActionResult,
  type AppContext,
  type CallerMeta,
  type EventContext,
  type Params,
  type ServiceFactory,
  type TraceCarrier,
  defineActions,
} from '@im/sdk';
import { presenceGroupIds, sessionRoom, userRoom } from './realtime/rooms.ts';
import type { Presence, PresenceStatus } from '@im/protocol';
import type { Context } from 'moleculer';
import { mountApiRoutes } from './api/mount.ts';
import { buildOpenApi } from './api/openapi.ts';
import { API_ENDPOINTS } from './api/endpoints.ts';
import { gatewayParams } from './params.ts';
import { Authenticator } from './auth/authenticator.ts';
import { createDownloadHandler } from './files/download.ts';
import { createExportDownloadHandler } from './files/export-download.ts';
import { createUploadHandler } from './files/upload.ts';
import { createEmojiUploadHandler } from './files/emoji-upload.ts';
import { createImportUploadHandler } from './files/import-upload.ts';
import { createIconUploadHandler } from './files/icon-upload.ts';
import { clientAddressOf } from './http/client-address.ts';
import { createHttpMetrics } from './http/metrics.ts';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Router } from './http/router.ts';
import { watchSlowClients } from './realtime/backpressure.ts';
import { FANOUT_EVENTS, fanoutHandlers, fanoutRunner, type Realtime } from './realtime/fanout.ts';
import { RecentIds } from './realtime/recent-ids.ts';
import { RoomSubscriptions } from './realtime/room-subscriptions.ts';
import type { RoomAdmission } from './realtime/room-admission.ts';
import type { SessionWatch } from './realtime/session-watch.ts';
import { MemoryPresence, RedisPresence, type PresenceStore } from './realtime/presence.ts';
import { presenceStatuses, publishPresence } from './realtime/presence-status.ts';
import { missedEventsNotifier } from './realtime/missed-events.ts';
import { createSocketServer, type ImServer } from './realtime/socket-server.ts';
import { listenUws, type UwsFront } from './realtime/uws-front.ts';
import { loadWsEngine } from './realtime/ws-engine.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerOidcRoutes } from './routes/oidc.ts';
import { registerWebClientRoutes } from './routes/web-client.ts';
import { publicInvalidations } from './public/public-events.ts';
import { PublicRoutes } from './public/public-routes.ts';

/** Where readers reach this server: PUBLIC_URL, else this node's own port on localhost. */
function publicBaseUrl(app: AppContext, server: Server | undefined): string {
  if (app.config.publicUrl) return app.config.publicUrl;
  const address = server?.address();
  return `http://localhost:${address && typeof address === 'object' ? address.port : app.config.port}`;
}

/**
 * Event handlers that take the payload alone, run before the context
 * handlers of the same event; the result is one handler per event.
 */
function withPayloadHandlers(
  handlers: Record<string, (ctx: Context<never>) => void>,
  first: Partial<Record<EventName, (payload: never) => void>>,
  skip: (event: string) => boolean,
): Record<string, (ctx: Context<never>) => void> {
  const merged = { ...handlers };
  for (const [event, before] of Object.entries(first) as Array<[string, (payload: never) => void]>) {
    if (skip(event)) continue;
    const after = handlers[event];
    merged[event] = (ctx) => {
      before(ctx.params);
      after?.(ctx);
    };
  }
  return merged;
}

/**
 * Backend services the gateway forwards to: it is ready once the broker
 * knows all of them (calls only when VOICE is on: a cluster without calls
 * need not run the call service).
 */
const backendsOf = (config: AppContext['config']) =>
  SERVICE_NAMES.filter((name) => name !== 'gateway' && (name !== 'call' || config.voice === 'on'));

/**
 * The public edge: HTTP API (and, later, socket.io) on HOST:PORT. It is a
 * moleculer service, so it calls other services through the broker and
 * receives their events wherever they run.
 */
export const createGatewayService: ServiceFactory = (app: AppContext) => {
  let server: Server | undefined;
  /** SOCKET_WS_ENGINE=uws: uWebSockets.js in front of `server`. */
  let uwsFront: UwsFront | undefined;
  let io: ImServer | undefined;
  let realtime: (Realtime & { admission: RoomAdmission; sessions: SessionWatch }) | undefined;
  let presence: PresenceStore | undefined;
  let stopWatching: (() => void) | undefined;
  let auth: Authenticator | undefined;
  let publicRoutes: PublicRoutes | undefined;
  let subscriptions: RoomSubscriptions | undefined;
  // In a cluster with FANOUT_ROUTING=rooms, fan-out events come by room over NATS, not as broadcasts.
  const roomRouter = app.roomRouter;
  const routed = (event: string) => roomRouter !== undefined && isRoutedEvent(event);
  const openApi = JSON.stringify(buildOpenApi(API_ENDPOINTS));
  const fanoutTiming = new Histogram({
    name: 'im_gateway_fanout_seconds',
    help: 'Time a gateway takes to hand one service event to all its sockets in the room',
    labelNames: ['event'] as const,
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [app.metrics],
  });
  const roomEventsReceived = new Counter({
    name: 'im_gateway_room_events_received_total',
    help: 'Room events this gateway received from the cluster: each routed delivery, repeats included (FANOUT_ROUTING=rooms), or each fan-out event (broadcast)',
    registers: [app.metrics],
  });
  const resyncs = new Counter({
    name: 'im_gateway_resyncs_total',
    help: 'Times this gateway told its sockets to sync because its link to the cluster (NATS) came back',
    registers: [app.metrics],
  });
  const missedEvents = missedEventsNotifier(
    () => io,
    () => {
      resyncs.inc();
      app.logger.warn('cluster link back: telling every socket to sync');
    },
  );
  new Gauge({
    name: 'im_gateway_room_subscriptions',
    help: 'Rooms this gateway is subscribed to (FANOUT_ROUTING=rooms, in a cluster)',
    registers: [app.metrics],
    collect() {
      this.set(subscriptions?.size ?? 0);
    },
  });
  const publicRenders = new Counter({
    name: 'im_public_renders_total',
    help: 'Web-public pages and feeds (and personal feeds) rendered afresh by this gateway, not served from memory',
    labelNames: ['format'] as const,
    registers: [app.metrics],
  });
  const runFanout = fanoutRunner(
    () => realtime,
    { presenceGroupLimit: app.config.presenceGroupLimit, ...(app.tracing ? { tracing: app.tracing } : {}) },
    fanoutTiming,
  );
  const publicHandlers = publicInvalidations(() => publicRoutes);
  const invalidatePublic = publicHandlers as Partial<Record<string, (payload: unknown) => void>>;
  const handled = new RecentIds();
  /** A routed event's fan-out (and the public pages it changes). */
  const deliver = (event: string, payload: () => unknown) => {
    try {
      const decoded = payload();
      // Kept pages go before the sockets hear of the change (as with the broadcast handlers below).
      invalidatePublic[event]?.(decoded);
      runFanout(event, decoded);
    } catch (err) {
      // As the broker does with a failing event handler: logged, and the next event is handled.
      app.logger.warn({ err, event }, 'could not fan out a routed event');
    }
  };
  /** A routed event, heard on one of this gateway's rooms: once per event, whatever the rooms it came by. */
  const onRoutedDelivery = (id: string, event: string, payload: () => unknown, trace?: TraceCarrier) => {
    roomEventsReceived.inc();
    if (handled.seen(id)) return;
    if (trace && app.tracing) app.tracing.received(`receive ${event}`, trace, () => deliver(event, payload));
    else deliver(event, payload);
  };
  new Gauge({
    name: 'im_gateway_sockets',
    help: 'Authenticated socket.io connections open on this gateway',
    registers: [app.metrics],
    collect() {
      this.set(io?.of('/').sockets.size ?? 0);
    },
  });
  new Gauge({
    name: 'im_gateway_room_loads_waiting',
    help: 'Connected sockets waiting for their turn to load their rooms (a connect storm being admitted)',
    registers: [app.metrics],
    collect() {
      this.set(realtime?.admission.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'im_gateway_session_checks_waiting',
    help: 'Token checks waiting for a batched session check with the user service (a connect storm being admitted)',
    registers: [app.metrics],
    collect() {
      this.set(auth?.checksWaiting ?? 0);
    },
  });
  return {
    name: 'gateway',
    methods: {
      /** Where the HTTP server listens (PORT=0 picks a free port). */
      address(): AddressInfo | undefined {
        if (uwsFront) return { address: app.config.host, family: 'IPv4', port: uwsFront.port };
        const address = server?.address();
        return address && typeof address === 'object' ? address : undefined;
      },
    },
    actions: defineActions('gateway', {
      /** For other services (push): which of these users have a socket on any gateway. */
      online: {
        visibility: 'public' as const,
        params: gatewayParams.online,
        async handler(ctx: Context<ActionParams<'gateway.online'>>): Promise<ActionResult<'gateway.online'>> {
          return [...(await presence!.online(ctx.params.userIds))];
        },
      },
      /** Called on every gateway before a visibility change is answered: its pages and feeds go at once. */
      forgetPublic: {
        visibility: 'public' as const,
        params: gatewayParams.forgetPublic,
        handler(ctx: Context<ActionParams<'gateway.forgetPublic'>>): void {
          publicRoutes?.cache.forget(ctx.params.converseIds);
        },
      },
      /**
       * Which of the given users are online (for groups too large to push
       * presence to): only users who share a group or a DM with the caller
       * are answered for; others are left out, as if offline.
       */
      presence: {
        params: gatewayParams.presence,
        async handler(ctx: Context<Params<typeof gatewayParams.presence>, CallerMeta>): Promise<Presence> {
          const userId = callerId(ctx);
          const asked = [...new Set(ctx.params.userIds.split(','))];
          const visible = await call(ctx, 'chat.contactsAmong', { userId, ids: asked });
          const statuses = await presenceStatuses(ctx.broker, presence!, visible);
          const having = (what: (s: PresenceStatus) => boolean | undefined) =>
            visible.filter((id) => what(statuses.get(id)!));
          return {
            online: having((s) => s.online),
            dnd: having((s) => s.dnd),
            away: having((s) => s.away),
            statuses: Object.fromEntries(statuses),
          };
        },
      },
      /** For the user service: who of these users is online, and who of those away (their status changed). */
      presenceOf: {
        visibility: 'public' as const,
        params: gatewayParams.online,
        async handler(ctx: Context<ActionParams<'gateway.presenceOf'>>): Promise<ActionResult<'gateway.presenceOf'>> {
          const [online, away] = await Promise.all([
            presence!.online(ctx.params.userIds),
            presence!.away(ctx.params.userIds),
          ]);
          return { online: [...online], away: [...away] };
        },
      },
    }),
    events: withPayloadHandlers(
      {
        [EVENTS.userDeactivated]: (ctx: EventContext<typeof EVENTS.userDeactivated>) => {
          auth?.deactivate(ctx.params.userId);
          // Sockets of a deleted or banned user close at once.
          io?.in(userRoom(ctx.params.userId)).disconnectSockets(true);
        },
        [EVENTS.sessionsRevoked]: (ctx: EventContext<typeof EVENTS.sessionsRevoked>) => {
          auth?.endSessions(ctx.params.sessionIds);
          // Every gateway closes the sockets it holds of those sessions; the user's others stay.
          io?.in(ctx.params.sessionIds.map(sessionRoom)).disconnectSockets(true);
        },
        ...fanoutHandlers(
          runFanout,
          FANOUT_EVENTS.filter((event) => !routed(event)),
          roomEventsReceived,
        ),
      },
      // Kept pages go before the sockets hear of the change.
      publicHandlers,
      routed,
    ),
    created() {
      const broker = this.broker;
      // Both links to the cluster can lose events while away: the transporter's (broadcast events) and the rooms'.
      broker.localBus.on('$transporter.connected', (payload: { wasReconnect?: boolean }) => {
        if (payload.wasReconnect) missedEvents();
      });
      roomRouter?.onReconnect(missedEvents);
      // Another node's link came back: events it published meanwhile may be lost too.
      roomRouter?.onResyncRequest(missedEvents);
      auth = new Authenticator(new TokenService(app.config.secret, app.config.tokenTtl), broker);
      const backends = backendsOf(app.config);
      app.readiness.add('services', async () => {
        const available = new Set(
          broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }).map((s) => s.name),
        );
        const missing = backends.filter((name) => !available.has(name));
        if (missing.length > 0) throw new Error(`not reachable: ${missing.join(', ')}`);
      });
    },
    async started() {
      // First: a gateway told to use uWebSockets.js that cannot load it stops here, before anything listens.
      const uws = await loadWsEngine(app.config.socketWsEngine);
      const router = new Router(createHttpMetrics(app.metrics), app.logger, app.tracing);
      registerHealthRoutes(router, app);
      router.on('GET', '/api/openapi.json', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(openApi);
      });
      const broker = this.broker;
      registerOidcRoutes(router, app, broker);
      if (roomRouter) {
        subscriptions = new RoomSubscriptions({
          router: roomRouter,
          lingerMs: app.config.fanoutRoutingLingerMs,
          confirmTimeoutMs: app.config.requestTimeoutMs,
          holds: (room) =>
            io?.of('/').adapter.rooms.has(room) === true ||
            (room.startsWith('c:') && publicRoutes?.cache.has(room.slice(2)) === true),
          onDelivery: onRoutedDelivery,
        });
      }
      const interest = subscriptions;
      const clientIp = clientAddressOf(app.config.trustProxy);
      publicRoutes = new PublicRoutes(broker, {
        baseUrl: () => publicBaseUrl(app, server),
        interest: interest && {
          beforeRender: (converseId) => interest.prepare([converseRoom(converseId)]),
          onDrop: (converseId) => interest.release(converseRoom(converseId)),
        },
        countRender: (req) => app.rateLimits.consume('public-render', rateLimitAddressKey(clientIp(req))),
        onRender: (format) => publicRenders.inc({ format }),
      });
      mountApiRoutes(router, app, broker, auth!, {
        ...publicRoutes.handlers(),
        'file.register': createUploadHandler(app, broker, auth!),
        'file.download': createDownloadHandler(app, broker, auth!, 'file'),
        'file.thumbnail': createDownloadHandler(app, broker, auth!, 'thumbnail'),
        'group.uploadEmoji': createEmojiUploadHandler(app, broker, auth!),
        'group.uploadIcon': createIconUploadHandler(app, broker, auth!),
        'import.upload': createImportUploadHandler(app, broker, auth!),
        'import.exportDownload': createExportDownloadHandler(app, broker),
      });
      const webClientDir = app.config.webClientDir;
      if (webClientDir) {
        registerWebClientRoutes(router, webClientDir);
        app.logger.info(
          existsSync(join(webClientDir, 'index.html'))
            ? `web client served from ${webClientDir}`
            : `web client not built in ${webClientDir}: / answers 503 until 'npm run build -w @im/client'`,
        );
      }
      server = createServer({ keepAliveTimeout: 65_000 }, router.handle);
      presence = app.redis ? new RedisPresence(app.redis, broker.nodeID) : new MemoryPresence();
      const uwsApp = uws?.App();
      realtime = createSocketServer(server, app, broker, auth!, presence, {
        ...(interest ? { hearRooms: (rooms: string[]) => interest.prepare(rooms) } : {}),
        ...(uwsApp ? { uwsApp } : {}),
      });
      io = realtime.io;
      interest?.watch(io.of('/').adapter);
      stopWatching = watchSlowClients(io, app.config.socketMaxBufferBytes, (userId) =>
        app.logger.warn({ userId }, 'disconnected a client that does not keep up'),
      );
      await presence.start((userIds) => {
        // Users of a gateway node that died: tell their groups they are gone.
        void (async () => {
          for (const userId of userIds) {
            const rooms = await call(broker, 'chat.userRooms', { userId }).catch(() => ({ groups: [] }));
            const groupIds = presenceGroupIds(rooms.groups, app.config.presenceGroupLimit);
            await publishPresence(broker, presence!, userId, groupIds).catch(() => undefined);
          }
        })();
      });
      if (uws && uwsApp) {
        uwsFront = await listenUws(uws, uwsApp, server, app.config.host, app.config.port);
      } else {
        await new Promise<void>((resolve, reject) => {
          server!.once('error', reject);
          server!.listen(app.config.port, app.config.host, () => {
            server!.off('error', reject);
            resolve();
          });
        });
      }
      const address = this.address() as AddressInfo;
      app.logger.info(
        `gateway listening on http://${address.address}:${address.port}${uwsFront ? ' (socket.io on uWebSockets.js)' : ''}`,
      );
    },
    async stopped() {
      stopWatching?.();
      realtime?.sessions.stop();
      subscriptions?.close();
      await presence?.stop();
      if (!server) return;
      const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
      // Sockets close first (clients reconnect elsewhere), then idle HTTP connections.
      io?.disconnectSockets(true);
      uwsFront?.close();
      uwsFront = undefined;
      server.closeIdleConnections();
      await closing;
      io = undefined;
      realtime = undefined;
      server = undefined;
    },
  };
};
