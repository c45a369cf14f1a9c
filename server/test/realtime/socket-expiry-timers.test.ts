import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { after, before, describe, it } from 'node:test';
import { TokenService } from '@im/sdk';
import { decodeJwt } from 'jose';
import { startApi, type ApiHarness } from '../api/harness.ts';
import { connectClient, type ClientSocket } from './client.ts';

/**
 * The gateway's timers that close a socket when its token expires, still
 * pending in this process (the gateway runs in it): recognised by what they
 * say to the socket they close.
 */
const expiryTimers = new Set<number>();
const hook = createHook({
  init(asyncId, type, _trigger, resource) {
    const callback = (resource as { _onTimeout?: unknown })._onTimeout;
    if (type === 'Timeout' && typeof callback === 'function' && /EXPIRED/.test(callback.toString()))
      expiryTimers.add(asyncId);
  },
  destroy(asyncId) {
    expiryTimers.delete(asyncId);
  },
});

describe('sockets closed before their token expires', () => {
  let api: ApiHarness;
  const sockets: ClientSocket[] = [];
  before(async () => {
    hook.enable();
    api = await startApi(import.meta.url, { SOCKETS_PER_USER: '1' });
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
    hook.disable();
  });

  it('leave no expiry timer behind (a script reconnecting in a loop holds one, not one per socket)', async () => {
    const user = await api.user('timers');
    // A token of the user's live session that expires within the first session check (300 s).
    const { sid } = decodeJwt(user.token) as { sid: string };
    const expiring = await new TokenService('s'.repeat(40), 60).sign(user.id, sid, { ttlSeconds: 200 });
    const before = expiryTimers.size;
    let previous: ClientSocket | undefined;
    for (let i = 0; i < 5; i += 1) {
      const closed = previous ? new Promise<string>((resolve) => previous!.once('disconnect', resolve)) : undefined;
      const socket = await connectClient(api.base, expiring);
      sockets.push(socket);
      // The newest closes the one before it (SOCKETS_PER_USER 1): the gateway has let it go.
      if (closed) assert.equal(await closed, 'io server disconnect');
      previous = socket;
    }
    assert.equal(expiryTimers.size - before, 1, 'only the open socket has an expiry timer');
  });
});
