// The browser's side of Web Push for the encryption tests: a subscription's
// keys, and decryption written from RFC 8291 §3.4 and RFC 8188 §2
// independently of the code under test.
import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto';

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const h = createHmac('sha256', key);
  for (const d of data) h.update(d);
  return h.digest();
};

/** The browser's side, written from RFC 8291 §3.4 and RFC 8188 §2 independently of the code under test. */
export function decrypt(body: Buffer, ua: ECDH, auth: Buffer) {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ikm = hmac(
    hmac(auth, ua.computeSecret(asPublic)),
    Buffer.from('WebPush: info\0'),
    ua.getPublicKey(),
    asPublic,
    Buffer.from([1]),
  );
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const records: Buffer[] = [];
  let delimiters = '';
  for (let at = 21 + idlen, i = 0; at < body.length; at += rs, i += 1) {
    const record = body.subarray(at, Math.min(at + rs, body.length));
    const iv = Buffer.from(nonce);
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ i) >>> 0, 8);
    const d = createDecipheriv('aes-128-gcm', cek, iv);
    d.setAuthTag(record.subarray(-16));
    const plain = Buffer.concat([d.update(record.subarray(0, -16)), d.final()]);
    let end = plain.length - 1;
    while (plain[end] === 0) end -= 1; // padding
    delimiters += String(plain[end]);
    records.push(plain.subarray(0, end));
  }
  return { salt, rs, asPublic, plaintext: Buffer.concat(records), delimiters };
}

export function browser() {
  const ua = createECDH('prime256v1');
  ua.generateKeys();
  const auth = randomBytes(16);
  return { ua, auth, p256dh: ua.getPublicKey().toString('base64url'), authSecret: auth.toString('base64url') };
}
