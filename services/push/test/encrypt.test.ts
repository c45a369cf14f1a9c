import assert from 'node:assert/strict';
import { createECDH, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { encryptWebPush, InvalidSubscriptionKeys } from '../src/delivery/encrypt.ts';
import { browser, decrypt } from './browser.ts';

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
