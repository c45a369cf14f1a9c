import assert from 'node:assert/strict';
import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { describe, it } from 'node:test';
import { encryptWebPush, InvalidSubscriptionKeys } from '../src/delivery/encrypt.ts';

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const h = createHmac('sha256', key);
  for (const d of data) h.update(d);
  return h.digest();
};

/** The browser's side, written from RFC 8291 §3.4 and RFC 8188 §2 independently of the code under test. */
function decrypt(body: Buffer, ua: ECDH, auth: Buffer) {
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

function browser() {
  const ua = createECDH('prime256v1');
  ua.generateKeys();
  const auth = randomBytes(16);
  return { ua, auth, p256dh: ua.getPublicKey().toString('base64url'), authSecret: auth.toString('base64url') };
}

describe('Web Push encryption (RFC 8291, aes128gcm)', () => {
  it("the test's decryption reads RFC 8291's example message (appendix A)", () => {
    const ua = createECDH('prime256v1');
    ua.setPrivateKey(Buffer.from('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94', 'base64url'));
    const message = Buffer.from(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
      'base64url',
    );
    const out = decrypt(message, ua, Buffer.from('BTBZMqHH6r4Tts7J_aSIgg', 'base64url'));
    assert.equal(out.plaintext.toString(), 'When I grow up, I want to be a watermelon');
  });

  it('encrypts for the subscription: one record of 4096, the ephemeral key as key id, read back intact', () => {
    const b = browser();
    const payload = Buffer.from(JSON.stringify({ type: 'mention', preview: 'héllo 👋' }));
    const body = encryptWebPush(b.p256dh, b.authSecret, payload);
    assert.equal(body.length, 16 + 4 + 1 + 65 + payload.length + 17);
    const out = decrypt(body, b.ua, b.auth);
    assert.equal(out.rs, 4096);
    assert.equal(out.asPublic.length, 65);
    assert.equal(out.asPublic[0], 4);
    assert.deepEqual(out.plaintext, payload);
    assert.equal(out.delimiters, '2');
  });

  it('uses a fresh salt and a fresh ephemeral key pair for every message', () => {
    const b = browser();
    const payload = Buffer.from('same words, same browser');
    const outs = Array.from({ length: 5 }, () =>
      decrypt(encryptWebPush(b.p256dh, b.authSecret, payload), b.ua, b.auth),
    );
    assert.equal(new Set(outs.map((o) => o.salt.toString('hex'))).size, 5);
    assert.equal(new Set(outs.map((o) => o.asPublic.toString('hex'))).size, 5);
    for (const o of outs) assert.deepEqual(o.plaintext, payload);
  });

  it('splits a long payload into records as web-push does (4079 bytes each, the last marked)', () => {
    const b = browser();
    for (const [size, records] of [
      [0, 1],
      [4079, 1],
      [4080, 2],
      [10_000, 3],
    ] as const) {
      const payload = randomBytes(size);
      const body = encryptWebPush(b.p256dh, b.authSecret, payload);
      assert.equal(body.length, 86 + size + records * 17, `${size} bytes`);
      const out = decrypt(body, b.ua, b.auth);
      assert.deepEqual(out.plaintext, payload);
      assert.equal(out.delimiters, '1'.repeat(records - 1) + '2');
    }
  });

  it('takes auth secrets of any length from 16 bytes (longer than a hash block: hashed first, as HMAC says)', () => {
    for (const length of [16, 32, 64, 65, 100]) {
      const b = browser();
      const auth = randomBytes(length);
      const payload = Buffer.from(`auth of ${length} bytes`);
      const out = decrypt(encryptWebPush(b.p256dh, auth.toString('base64url'), payload), b.ua, auth);
      assert.deepEqual(out.plaintext, payload, `${length} bytes`);
    }
  });

  it('refuses keys no message can be encrypted for', () => {
    const b = browser();
    const payload = Buffer.from('x');
    const notOnCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
    for (const [p256dh, auth] of [
      [b.p256dh.slice(0, 40), b.authSecret], // too short
      [b.ua.getPublicKey(undefined, 'compressed').toString('base64url'), b.authSecret],
      [notOnCurve, b.authSecret],
      [b.p256dh, randomBytes(8).toString('base64url')],
    ] as const)
      assert.throws(() => encryptWebPush(p256dh, auth, payload), InvalidSubscriptionKeys);
  });
});
