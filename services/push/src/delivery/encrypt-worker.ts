// An encryption worker thread: encrypts each batch it is sent and answers
// with the bodies packed into one buffer that is transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { encryptWebPush, InvalidSubscriptionKeys } from './encrypt.ts';
import type { EncryptBatch, EncryptResult } from './encrypt-protocol.ts';

parentPort!.on('message', ({ id, items }: EncryptBatch) => {
  const bodies: Buffer[] = [];
  const errors: EncryptResult['errors'] = [];
  for (const item of items) {
    try {
      bodies.push(encryptWebPush(item.p256dh, item.auth, Buffer.from(item.payload)));
      errors.push(null);
    } catch (err) {
      bodies.push(Buffer.alloc(0));
      errors.push({ invalid: err instanceof InvalidSubscriptionKeys, message: (err as Error).message });
    }
  }
  // A fresh ArrayBuffer of its own (small Buffers share Node's pool, which cannot be transferred).
  const packed = new Uint8Array(bodies.reduce((n, b) => n + b.length, 0));
  const ends: number[] = [];
  let at = 0;
  for (const b of bodies) {
    packed.set(b, at);
    at += b.length;
    ends.push(at);
  }
  const result: EncryptResult = { id, bodies: packed.buffer, ends, errors };
  parentPort!.postMessage(result, [packed.buffer]);
});
