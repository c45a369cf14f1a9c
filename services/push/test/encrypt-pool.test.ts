import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEncryptor, EncryptPool } from '../src/delivery/encrypt-pool.ts';
import { InvalidSubscriptionKeys } from '../src/delivery/encrypt.ts';
import { browser, decrypt } from './browser.ts';

describe('Web Push encryption on worker threads', () => {
  for (const workers of [0, 1, 2]) {
    it(`${workers} worker(s): every body decrypts to its own payload, bad keys fail alone`, async () => {
      const pool = createEncryptor(workers);
      try {
        const browsers = Array.from({ length: 4 }, browser);
        // One turn's worth of requests: batched per worker, answered each to its own caller.
        const asked = Array.from({ length: 200 }, (_, i) => ({ b: browsers[i % 4]!, text: `{"n":${i}}` }));
        const bad = assert.rejects(
          pool.encrypt('A'.repeat(87), browsers[0]!.authSecret, '{"n":-1}'),
          InvalidSubscriptionKeys,
        );
        const bodies = await Promise.all(asked.map(({ b, text }) => pool.encrypt(b.p256dh, b.authSecret, text)));
        await bad;
        bodies.forEach((body, i) =>
          assert.equal(decrypt(body, asked[i]!.b.ua, asked[i]!.b.auth).plaintext.toString(), asked[i]!.text),
        );
      } finally {
        await pool.close();
      }
    });
  }

  it('fails what a closed pool is asked', async () => {
    const pool = new EncryptPool(1);
    const b = browser();
    assert.ok((await pool.encrypt(b.p256dh, b.authSecret, 'before')).length > 0);
    await pool.close();
    await assert.rejects(pool.encrypt(b.p256dh, b.authSecret, 'after'), /closed/);
  });
});
