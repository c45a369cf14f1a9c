import { errors, jwtVerify, SignJWT } from 'jose';
import { ImError } from '../errors/im-error.ts';

export interface TokenClaims {
  userId: string;
}

/**
 * Access tokens: HS256 JWTs signed with SECRET. The user service signs them;
 * every gateway verifies them locally, without a call.
 */
export class TokenService {
  readonly #key: Uint8Array;
  readonly #ttlSeconds: number;

  constructor(secret: string, ttlSeconds: number) {
    this.#key = new TextEncoder().encode(secret);
    this.#ttlSeconds = ttlSeconds;
  }

  sign(userId: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${this.#ttlSeconds}s`)
      .sign(this.#key);
  }

  /** Throws IM_ERR_UNAUTHORIZED for anything but a valid, unexpired token of ours. */
  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || !/^[0-9a-f]{24}$/.test(payload.sub)) throw new Error('bad subject');
      return { userId: payload.sub };
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new ImError('IM_ERR_UNAUTHORIZED', 'Access token expired');
      throw new ImError('IM_ERR_UNAUTHORIZED', 'Invalid access token');
    }
  }
}
