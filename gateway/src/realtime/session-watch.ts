import type { Logger } from '@im/sdk';
import type { Authenticator } from '../auth/authenticator.ts';
import { closeSocket } from './socket-closing.ts';
import type { ImServer, ImSocket } from './socket-server.ts';

const EXPIRED = 'Your sign-in has expired; log in again';
const ENDED = 'This session has ended; log in again';

/**
 * A socket is authenticated once, at its handshake; this keeps it honest
 * afterwards. It closes when its token expires (a timer, set only for the
 * tokens that expire before the next round), and every `everyMs` the
 * sessions of all open sockets are asked about again, in the batches of the
 * ordinary session checks (one `user.sessionsLive` per 500 sessions), so a
 * revocation event this gateway missed still closes them. Closed sockets
 * are told why (`socket:closing`, IM_ERR_UNAUTHORIZED).
 */
export class SessionWatch {
  readonly #io: ImServer;
  readonly #auth: Authenticator;
  readonly #everyMs: number;
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(io: ImServer, auth: Authenticator, everyMs: number, logger: Logger) {
    this.#io = io;
    this.#auth = auth;
    this.#everyMs = everyMs;
    this.#logger = logger;
  }

  start(): void {
    this.#timer = setInterval(() => void this.round(), this.#everyMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** At connect: a token expiring before the next round gets its timer now. */
  admit(socket: ImSocket): void {
    this.#timeExpiry(socket, Date.now());
  }

  /** One round over every open socket (rounds never overlap). */
  async round(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      const now = Date.now();
      const bySession = new Map<string, { userId: string; sockets: ImSocket[] }>();
      for (const socket of this.#io.of('/').sockets.values()) {
        if (!this.#timeExpiry(socket, now)) continue;
        const { sessionId, userId } = socket.data;
        const entry = bySession.get(sessionId) ?? bySession.set(sessionId, { userId, sockets: [] }).get(sessionId)!;
        entry.sockets.push(socket);
      }
      await Promise.all(
        [...bySession].map(async ([sessionId, { userId, sockets }]) => {
          // A check that cannot be made now (the user service away) leaves the socket to the next round.
          const live = await this.#auth.stillLive(sessionId, userId).catch((err: unknown) => {
            this.#logger.debug({ err }, 'could not check a socket session again');
            return true;
          });
          if (!live) for (const socket of sockets) closeSocket(socket, 'IM_ERR_UNAUTHORIZED', ENDED);
        }),
      );
    } finally {
      this.#running = false;
    }
  }

  /** Closes an expired socket (false), or sets its timer if it expires before the next round. */
  #timeExpiry(socket: ImSocket, now: number): boolean {
    const expiresAt = socket.data.expiresAtMs;
    if (expiresAt === undefined) return true;
    if (expiresAt <= now) {
      closeSocket(socket, 'IM_ERR_UNAUTHORIZED', EXPIRED);
      return false;
    }
    if (!socket.data.expiryTimed && expiresAt - now <= this.#everyMs) {
      socket.data.expiryTimed = true;
      const timer = setTimeout(() => closeSocket(socket, 'IM_ERR_UNAUTHORIZED', EXPIRED), expiresAt - now).unref();
      // Released with the socket: one closed early (a reconnect loop) holds nothing until its token's expiry.
      socket.once('disconnect', () => clearTimeout(timer));
    }
    return true;
  }
}
