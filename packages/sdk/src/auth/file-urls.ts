import { createHmac, timingSafeEqual } from 'node:crypto';

export type FileVariant = 'file' | 'thumbnail';

/** Expiries are rounded up to this, so a client asking again soon gets the same URL (and the browser's cache hits). */
const BUCKET_SEC = 60;

/**
 * Signed file URLs: an HMAC-SHA256 over (file id, variant, expiry) with a
 * key derived from SECRET for this use only, so a URL grants those bytes
 * until it expires and nothing else; no access token ever goes in a URL.
 */
export class FileUrlSigner {
  readonly #key: Buffer;
  readonly #ttlSec: number;

  constructor(secret: string, ttlSec: number) {
    this.#key = createHmac('sha256', secret).update('im/file-url/v1').digest();
    this.#ttlSec = ttlSec;
  }

  sign(fileId: string, variant: FileVariant, nowMs = Date.now()): { url: string; expiresAt: string } {
    const exp = Math.ceil((nowMs / 1000 + this.#ttlSec) / BUCKET_SEC) * BUCKET_SEC;
    const path = `/api/files/${fileId}${variant === 'thumbnail' ? '/thumbnail' : ''}`;
    return {
      url: `${path}?exp=${exp}&sig=${this.#mac(fileId, variant, exp)}`,
      expiresAt: new Date(exp * 1000).toISOString(),
    };
  }

  /** Whether `sig` signs this file and variant until `exp`, and `exp` is still ahead. */
  verify(fileId: string, variant: FileVariant, exp: string | undefined, sig: string | undefined): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || Number(exp) * 1000 <= Date.now()) return false;
    const expected = Buffer.from(this.#mac(fileId, variant, Number(exp)));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(fileId: string, variant: FileVariant, exp: number): string {
    return createHmac('sha256', this.#key).update(`${fileId}|${variant}|${exp}`).digest('base64url');
  }
}
