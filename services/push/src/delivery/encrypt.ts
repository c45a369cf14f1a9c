// Web Push message encryption (RFC 8291 over RFC 8188's aes128gcm content
// coding), straight on node:crypto. web-push (through http_ece) spends more
// than half its time on the way to OpenSSL: on Node 24 every createHmac or
// createCipheriv with a Buffer key runs a slow key-type probe, and
// ECDH.computeSecret decodes the subscriber's point again on every call.
// Here a subscriber's public key is decoded once and kept (a bounded cache);
// HMAC-SHA-256 is RFC 2104's two hashes over one-shot crypto.hash (no key
// probe, and no native key object left behind for the garbage collector: a
// KeyObject per derived key held native memory that piled up between
// collections during a burst). What must be new for every message is new:
// the ephemeral ECDH key pair and the salt.
import {
  createCipheriv,
  createPublicKey,
  createSecretKey,
  diffieHellman,
  generateKeyPairSync,
  hash,
  randomFillSync,
  type KeyObject,
} from 'node:crypto';

/** RFC 8188 record size; web-push's default, and what push services accept. */
const RECORD_SIZE = 4096;
/** Per record: a 16-byte tag and at least the 1-byte delimiter. */
const RECORD_OVERHEAD = 17;
const SALT_BYTES = 16;
const POINT_BYTES = 65;
/** salt (16) | rs (4) | idlen (1) | keyid: the application server's public key (65). */
const HEADER_BYTES = SALT_BYTES + 4 + 1 + POINT_BYTES;

const KEY_INFO = Buffer.from('WebPush: info\0', 'latin1');
const ONE = Buffer.from([1]);
// HKDF-Expand with L ≤ 32 is one HMAC over info | 0x01.
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0\x01', 'latin1');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0\x01', 'latin1');
const LAST = Buffer.from([2]);
const MORE = Buffer.from([1]);
/** The DER prefix of a P-256 SubjectPublicKeyInfo; an uncompressed point completes it. */
const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/** A subscription whose keys cannot be used (not a P-256 point, auth secret too short). */
export class InvalidSubscriptionKeys extends Error {}

/** Subscribers' decoded public keys, newest last; the oldest go first once full. */
const PEER_CACHE_MAX = 4096;
const peers = new Map<string, { raw: Buffer; key: KeyObject }>();

function peerKey(p256dh: string): { raw: Buffer; key: KeyObject } {
  const hit = peers.get(p256dh);
  if (hit) return hit;
  const raw = Buffer.from(p256dh, 'base64url');
  if (raw.length !== POINT_BYTES || raw[0] !== 4)
    throw new InvalidSubscriptionKeys('p256dh is not an uncompressed P-256 point');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.concat([P256_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    throw new InvalidSubscriptionKeys('p256dh is not a point on P-256');
  }
  const entry = { raw, key };
  if (peers.size >= PEER_CACHE_MAX) peers.delete(peers.keys().next().value!);
  peers.set(p256dh, entry);
  return entry;
}

const SHA256_BLOCK = 64;

/** HMAC-SHA-256 (RFC 2104) of the concatenated parts. */
function hmac(key: Buffer, ...parts: Buffer[]): Buffer {
  if (key.length > SHA256_BLOCK) key = hash('sha256', key, 'buffer');
  let length = SHA256_BLOCK;
  for (const p of parts) length += p.length;
  const inner = Buffer.allocUnsafe(length);
  for (let i = 0; i < SHA256_BLOCK; i += 1) inner[i] = (key[i] ?? 0) ^ 0x36;
  let at = SHA256_BLOCK;
  for (const p of parts) at += p.copy(inner, at);
  const outer = Buffer.allocUnsafe(SHA256_BLOCK + 32);
  for (let i = 0; i < SHA256_BLOCK; i += 1) outer[i] = (key[i] ?? 0) ^ 0x5c;
  hash('sha256', inner, 'buffer').copy(outer, SHA256_BLOCK);
  return hash('sha256', outer, 'buffer');
}

/**
 * The aes128gcm body of a Web Push message for a subscription's keys
 * (base64url, as the browser gives them): what web-push's encrypt produces,
 * byte for byte in layout (one record per 4079 bytes of payload, no padding).
 */
export function encryptWebPush(p256dh: string, authSecret: string, payload: Buffer): Buffer {
  const auth = Buffer.from(authSecret, 'base64url');
  if (auth.length < 16) throw new InvalidSubscriptionKeys('the auth secret is shorter than 16 bytes');
  const peer = peerKey(p256dh);

  const perRecord = RECORD_SIZE - RECORD_OVERHEAD;
  const records = Math.max(1, Math.ceil(payload.length / perRecord));
  const body = Buffer.allocUnsafe(HEADER_BYTES + payload.length + records * RECORD_OVERHEAD);
  // The header: a fresh salt, the record size, and a fresh ephemeral public key as the key id.
  const salt = randomFillSync(body, 0, SALT_BYTES).subarray(0, SALT_BYTES);
  body.writeUInt32BE(RECORD_SIZE, SALT_BYTES);
  body[SALT_BYTES + 4] = POINT_BYTES;
  const ephemeral = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const { x, y } = ephemeral.publicKey.export({ format: 'jwk' });
  const asPublic = body.subarray(HEADER_BYTES - POINT_BYTES, HEADER_BYTES);
  asPublic[0] = 4;
  if (asPublic.write(x!, 1, 'base64url') !== 32 || asPublic.write(y!, 33, 'base64url') !== 32)
    throw new Error('unexpected P-256 public key export');

  // RFC 8291 §3.4: IKM from the ECDH secret and the auth secret; then RFC 8188 §2.2: key and nonce.
  const ecdhSecret = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: peer.key });
  const ikm = hmac(hmac(auth, ecdhSecret), KEY_INFO, peer.raw, asPublic, ONE);
  const prk = hmac(salt, ikm);
  // One key object per message, for the cipher (a Buffer key would take Node's slow key probe).
  const cek = createSecretKey(hmac(prk, CEK_INFO).subarray(0, 16));
  const nonce = hmac(prk, NONCE_INFO).subarray(0, 12);

  let at = HEADER_BYTES;
  for (let i = 0; i < records; i += 1) {
    const last = i === records - 1;
    // The nonce of record i is the base nonce XOR i (in its last 6 bytes; records never exceed 2^32).
    const iv = Buffer.from(nonce);
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ i) >>> 0, 8);
    const cipher = createCipheriv('aes-128-gcm', cek, iv);
    at += cipher.update(payload.subarray(i * perRecord, (i + 1) * perRecord)).copy(body, at);
    at += cipher.update(last ? LAST : MORE).copy(body, at);
    at += cipher.final().copy(body, at);
    at += cipher.getAuthTag().copy(body, at);
  }
  return at === body.length ? body : body.subarray(0, at);
}
