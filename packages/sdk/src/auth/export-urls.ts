import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed download URLs of export archives: an HMAC-SHA256 over (export id,
 * expiry) with a key derived from SECRET for this use only, so a URL grants
 * that one archive until it expires, can be opened in a browser, and carries
 * no access token.
 */
export class ExportUrlSigner {
  readonly #key: Buffer;
  readonly #ttlSec: number;

  constructor(secret: string, ttlSec: number) {
    this.#key = createHmac('sha256', secret).update('im/export-url/v1').digest();
    this.#ttlSec = ttlSec;
  }

  sign(exportId: string, nowMs = Date.now()): { url: string; expiresAt: string } {
    const exp = Math.ceil(nowMs / 1000 + this.#ttlSec);
    return {
      url: `/api/exports/${exportId}/archive?exp=${exp}&sig=${this.#mac(exportId, exp)}`,
      expiresAt: new Date(exp * 1000).toISOString(),
    };
  }

  /** Whether `sig` signs this export until `exp`, and `exp` is still ahead. */
  verify(exportId: string, exp: string | undefined, sig: string | undefined): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || Number(exp) * 1000 <= Date.now()) return false;
    const expected = Buffer.from(this.#mac(exportId, Number(exp)));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(exportId: string, exp: number): string {
    return createHmac('sha256', this.#key).update(`${exportId}|${exp}`).digest('base64url');
  }
}
