import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { ImError } from '../errors/im-error.ts';

/** What a link's token is for; a token made for one purpose is refused for every other. */
export type LinkPurpose = 'verify-email' | 'password-reset' | 'unsubscribe' | 'claim-account';

/** How long each kind of link lives. Unsubscribe links stay good as long as the e-mails that carry them. */
export const LINK_TTL_SECONDS: Record<LinkPurpose, number> = {
  'verify-email': 24 * 3600,
  'password-reset': 3600,
  unsubscribe: 365 * 86400,
  // Handed over by an admin, by whatever way they reach the person: a week to get round to it.
  'claim-account': 7 * 86400,
};

/** A link token's claims: the account, and what the purpose binds it to (an address, a password's fingerprint). */
export interface LinkClaims {
  userId: string;
  /**
   * verify-email: the address (lower-case) the link verifies; password-reset: the fingerprint of the password it
   * replaces; claim-account: the imported account's claim nonce (a claim or a newer link changes it).
   */
  bound?: string;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

/**
 * Tokens of the links the server e-mails (address verification, password
 * reset, one-click unsubscribe): HS256 JWTs under a key derived from SECRET
 * for links only, so an access token is never a link and a link never an
 * access token. Each names its purpose (`aud`) and expires. They are stateless:
 * what makes a link one-use is what it binds (`bound`), which the account
 * no longer matches once the link did its work. `now` is the clock (tests
 * pass one that is ahead).
 */
export class LinkTokens {
  readonly #key: KeyObject;
  readonly #now: () => Date;

  constructor(secret: string, now: () => Date = () => new Date()) {
    this.#key = createSecretKey(createHmac('sha256', secret).update('im-platform link tokens').digest());
    this.#now = now;
  }

  sign(purpose: LinkPurpose, claims: LinkClaims, ttlSeconds = LINK_TTL_SECONDS[purpose]): Promise<string> {
    const iat = Math.floor(this.#now().getTime() / 1000);
    return new SignJWT(claims.bound === undefined ? {} : { b: claims.bound })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(purpose)
      .setSubject(claims.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(this.#key);
  }

  /** The claims of a valid token made for `purpose`; IM_ERR_LINK_EXPIRED past its time, IM_ERR_LINK_INVALID otherwise. */
  async verify(purpose: LinkPurpose, token: string): Promise<LinkClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        audience: purpose,
        currentDate: this.#now(),
        requiredClaims: ['exp', 'sub'],
      });
      if (typeof payload.sub !== 'string' || !OBJECT_ID.test(payload.sub)) throw new Error('bad subject');
      if (payload.b !== undefined && typeof payload.b !== 'string') throw new Error('bad binding');
      return { userId: payload.sub, ...(typeof payload.b === 'string' ? { bound: payload.b } : {}) };
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new ImError('IM_ERR_LINK_EXPIRED');
      throw new ImError('IM_ERR_LINK_INVALID');
    }
  }
}
