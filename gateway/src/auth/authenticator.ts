import type { IncomingMessage } from 'node:http';
import { sweepStale, type TokenClaims, type TokenService, unauthorized } from '@im/sdk';
import { LRUCache } from 'lru-cache';
import type { ServiceBroker } from 'moleculer';
import { SessionChecks } from './session-checks.ts';

/** How long a gateway trusts "this session is live" without asking again (revocations clear it at once). */
const LIVE_TTL_MS = 60_000;

/**
 * Verifies bearer tokens locally (signature and expiry) and that their
 * session is live. The session check is answered from a per-gateway cache
 * that the revocation events clear on every gateway at once; a miss (a
 * session's first use here, or once a minute) is asked of the user service
 * in batches (SessionChecks), which answers from its own cache where it can
 * and never writes on this path.
 */
export class Authenticator {
  readonly #tokens: TokenService;
  readonly #checks: SessionChecks;
  // TTL caches are swept every minute: sessions seen once must not stay until 200,000 have passed.
  readonly #live = sweepStale(new LRUCache<string, true>({ max: 200_000, ttl: LIVE_TTL_MS }));
  // Ended lately, so an answer already in flight cannot re-admit them. A
  // session whose mark is gone is refused by the user service's check instead.
  readonly #ended = sweepStale(new LRUCache<string, true>({ max: 200_000, ttl: 2 * LIVE_TTL_MS }));
  readonly #deactivated = sweepStale(new LRUCache<string, true>({ max: 100_000, ttl: 2 * LIVE_TTL_MS }));

  constructor(tokens: TokenService, broker: ServiceBroker) {
    this.#tokens = tokens;
    this.#checks = new SessionChecks(broker);
  }

  /** Session checks waiting for their batch (a storm's queue). */
  get checksWaiting(): number {
    return this.#checks.waiting;
  }

  /** The user id behind the request's bearer token, or IM_ERR_UNAUTHORIZED. */
  async fromRequest(req: IncomingMessage): Promise<string> {
    return (await this.sessionFromRequest(req)).userId;
  }

  async fromToken(token: string): Promise<string> {
    return (await this.sessionFromToken(token)).userId;
  }

  /** The user and session behind the request's bearer token, or IM_ERR_UNAUTHORIZED. */
  async sessionFromRequest(req: IncomingMessage): Promise<TokenClaims> {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized('Missing bearer token');
    return this.sessionFromToken(match[1]);
  }

  async sessionFromToken(token: string): Promise<TokenClaims> {
    const claims = await this.#tokens.verify(token);
    const { sessionId, userId } = claims;
    if (this.#deactivated.has(userId)) throw ended();
    if (this.#live.has(sessionId)) return claims;
    if (this.#ended.has(sessionId)) throw ended();
    const live = await this.#checks.isLive(sessionId, userId);
    if (!live || this.#ended.has(sessionId) || this.#deactivated.has(userId)) throw ended();
    this.#live.set(sessionId, true);
    return claims;
  }

  /** When a verified token expires (epoch ms). */
  expiresAtMs(token: string): number | undefined {
    return this.#tokens.expiresAtMs(token);
  }

  /**
   * Asks the user service again whether a session is live, past this
   * gateway's cache (an open socket's periodic check: a revocation event this
   * gateway missed is found here). A session found ended is ended here too.
   */
  async stillLive(sessionId: string, userId: string): Promise<boolean> {
    if (this.#deactivated.has(userId) || this.#ended.has(sessionId)) return false;
    const live = await this.#checks.isLive(sessionId, userId);
    if (live && !this.#ended.has(sessionId) && !this.#deactivated.has(userId)) {
      this.#live.set(sessionId, true);
      return true;
    }
    this.endSessions([sessionId]);
    return false;
  }

  /** On `user.sessions.revoked`: those sessions' tokens stop working on this gateway now. */
  endSessions(sessionIds: readonly string[]): void {
    for (const id of sessionIds) {
      this.#live.delete(id);
      this.#ended.set(id, true);
    }
  }

  /** On `user.deactivated`: every token of the user stops working here (its sessions' events may follow). */
  deactivate(userId: string): void {
    this.#deactivated.set(userId, true);
  }
}

const ended = () => unauthorized('This session has ended; log in again');
