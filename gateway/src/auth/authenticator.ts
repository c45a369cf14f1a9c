import type { IncomingMessage } from 'node:http';
import { call, ImError, type TokenService } from '@im/sdk';
import { LRUCache } from 'lru-cache';
import type { ServiceBroker } from 'moleculer';

/** How long a gateway trusts "this user is active" without asking again. */
const ACTIVE_TTL_MS = 60_000;

/**
 * Verifies bearer tokens locally (signature and expiry) and that their user
 * is still active: answered from a per-gateway cache that the
 * `user.deactivated` event clears on every gateway at once.
 */
export class Authenticator {
  readonly #tokens: TokenService;
  readonly #broker: ServiceBroker;
  readonly #active = new LRUCache<string, true>({ max: 200_000, ttl: ACTIVE_TTL_MS });
  // Users deactivated lately: an isActive answer already in flight must not re-admit them.
  readonly #deactivated = new LRUCache<string, true>({ max: 100_000, ttl: ACTIVE_TTL_MS });

  constructor(tokens: TokenService, broker: ServiceBroker) {
    this.#tokens = tokens;
    this.#broker = broker;
  }

  /** The user id behind the request's bearer token, or IM_ERR_UNAUTHORIZED. */
  async fromRequest(req: IncomingMessage): Promise<string> {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw new ImError('IM_ERR_UNAUTHORIZED', 'Missing bearer token');
    return this.fromToken(match[1]);
  }

  async fromToken(token: string): Promise<string> {
    const { userId } = await this.#tokens.verify(token);
    if (!this.#active.has(userId)) {
      const active = await call(this.#broker, 'user.isActive', { userId });
      if (!active || this.#deactivated.has(userId)) throw inactive();
      this.#active.set(userId, true);
    }
    return userId;
  }

  /** On `user.deactivated`: the user's tokens stop working on this gateway now. */
  deactivate(userId: string): void {
    this.#active.delete(userId);
    this.#deactivated.set(userId, true);
  }
}

const inactive = () => new ImError('IM_ERR_UNAUTHORIZED', 'This account is no longer active');
