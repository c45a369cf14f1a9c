import { createSecretKey, type KeyObject } from 'node:crypto';
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { sweepStale } from '../cache/stale-sweeper.ts';
import { unauthorized } from '../errors/helpers.ts';

export interface TokenClaims {
  userId: string;
  /** The login session the token belongs to: revoking it ends the token. */
  sessionId: string;
  /** A bot's token: the one group it may act in (anything else answers 404). */
  botGroupId?: string;
}

export interface SignOptions {
  /** Instead of TOKEN_TTL (bot tokens live until revoked: years). */
  ttlSeconds?: number;
  botGroupId?: string;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;
/** How long a verified token is trusted without checking its signature again. */
const VERIFIED_TTL_MS = 10 * 60_000;

/**
 * Access tokens: HS256 JWTs signed with SECRET. The user service signs them;
 * every gateway verifies them locally, without a call.
 */
export class TokenService {
  readonly #key: KeyObject;
  readonly #ttlSeconds: number;
  /**
   * Tokens already verified, with their expiry: a client sends the same token
   * on every request. Kept 10 minutes at most (then verified again, one HMAC),
   * so the tokens of sessions that ended leave instead of filling the cache.
   */
  readonly #verified = sweepStale(
    new LRUCache<string, TokenClaims & { expiresAtMs: number }>({ max: 100_000, ttl: VERIFIED_TTL_MS }),
  );

  constructor(secret: string, ttlSeconds: number) {
    // One key object, made once: importing the secret on every verify costs more than the HMAC.
    this.#key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.#ttlSeconds = ttlSeconds;
  }

  sign(userId: string, sessionId: string, options: SignOptions = {}): Promise<string> {
    return new SignJWT({ sid: sessionId, ...(options.botGroupId ? { grp: options.botGroupId } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${options.ttlSeconds ?? this.#ttlSeconds}s`)
      .sign(this.#key);
  }

  /** When a token expires (epoch ms), for one already verified; undefined for anything unreadable. */
  expiresAtMs(token: string): number | undefined {
    const known = this.#verified.get(token);
    if (known) return known.expiresAtMs;
    try {
      const { exp } = decodeJwt(token);
      return typeof exp === 'number' ? exp * 1000 : undefined;
    } catch {
      return undefined;
    }
  }

  /** Throws IM_ERR_UNAUTHORIZED for anything but a valid, unexpired token of ours. */
  async verify(token: string): Promise<TokenClaims> {
    const known = this.#verified.get(token);
    if (known) {
      if (known.expiresAtMs > Date.now()) return claimsOf(known);
      this.#verified.delete(token);
      throw unauthorized('Access token expired');
    }
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || !OBJECT_ID.test(payload.sub)) throw new Error('bad subject');
      // Tokens from before sessions existed carry no session: they cannot be revoked, so they are refused.
      if (typeof payload.sid !== 'string' || !OBJECT_ID.test(payload.sid)) throw new Error('no session');
      if (typeof payload.exp !== 'number') throw new Error('no expiry');
      if (payload.grp !== undefined && (typeof payload.grp !== 'string' || !OBJECT_ID.test(payload.grp)))
        throw new Error('bad group');
      const claims: TokenClaims = {
        userId: payload.sub,
        sessionId: payload.sid,
        ...(payload.grp ? { botGroupId: payload.grp } : {}),
      };
      this.#verified.set(token, { ...claims, expiresAtMs: payload.exp * 1000 });
      return claims;
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw unauthorized('Access token expired');
      throw unauthorized('Invalid access token');
    }
  }
}

const claimsOf = (known: TokenClaims): TokenClaims => ({
  userId: known.userId,
  sessionId: known.sessionId,
  ...(known.botGroupId ? { botGroupId: known.botGroupId } : {}),
});
