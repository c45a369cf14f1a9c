import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'socket.io';
import type { ImServer } from './socket-server.ts';

type Handshake = Socket['handshake'];

/**
 * What every connected socket's `handshake` is replaced with: one frozen
 * object shared by all. The gateway reads the handshake only in its auth
 * middleware (the token), before this replacement; the peer's address stays
 * on `socket.conn.remoteAddress`. Frozen so that no socket writes into
 * another's.
 */
export const RELEASED_HANDSHAKE: Handshake = Object.freeze({
  headers: Object.freeze({}),
  time: '',
  address: '',
  xdomain: false,
  secure: false,
  issued: 0,
  url: '',
  query: Object.freeze({}),
  auth: Object.freeze({}),
}) as Handshake;

/** The response stand-in engine.io makes for a WebSocket upgrade: only its `req` matters here. */
interface UpgradeResponse {
  req: IncomingMessage | null;
  socket?: Duplex;
}

/**
 * Removes the `close` listener engine.io's upgrade response puts on the TCP
 * socket (it only re-emits `close` on the response, for HTTP middlewares that
 * log responses; the gateway has none), which would keep the response object
 * for the connection's life. Node's HTTP server removed its own listeners
 * before the upgrade and ws adds its own only after the engine middlewares,
 * so a lone `once` listener here is the response's; anything else is left be.
 */
function dropResponseCloseListener(socket: Duplex | undefined): void {
  const [only, ...others] = socket?.rawListeners('close') ?? [];
  if (socket && only && others.length === 0 && 'listener' in only) socket.removeListener('close', only as never);
}

/**
 * Lets each idle socket keep only what the gateway uses (issue 21: heap per
 * socket), measured with the `connections` benchmark's heap snapshots:
 *
 * - The upgrade request (IncomingMessage, its headers, raw headers, query,
 *   about 3 KB) was kept alive by engine.io's upgrade response, which a
 *   `close` listener on the TCP socket holds for the connection's life.
 *   Nulling the engine socket's `request` alone does not free it: that
 *   listener is removed, and the response's `req` is cut too once the
 *   session is open (should the listener not be found).
 * - `socket.handshake` (time string, headers, query and auth copies with the
 *   token) is swapped for a shared empty one once the socket is connected.
 *
 * Call it before the gateway's own middlewares and listeners.
 */
export function leanSockets(io: ImServer): void {
  // Keyed weakly by the request: an upgrade that fails leaves nothing behind.
  const upgrades = new WeakMap<IncomingMessage, UpgradeResponse>();
  io.engine.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    // A real ServerResponse (an HTTP long-polling request) still needs its request.
    if (!(res instanceof ServerResponse)) {
      const upgrade = res as unknown as UpgradeResponse;
      upgrades.set(req, upgrade);
      dropResponseCloseListener(upgrade.socket);
    }
    next();
  });

  // Runs after socket.io's own `connection` listener (registered when the
  // server was made), which does not keep the request either.
  io.engine.on('connection', (raw: { request: IncomingMessage | null }) => {
    const res = raw.request ? upgrades.get(raw.request) : undefined;
    if (res) res.req = null;
    raw.request = null;
  });

  io.on('connection', (socket) => {
    (socket as { handshake: Handshake }).handshake = RELEASED_HANDSHAKE;
  });
}
