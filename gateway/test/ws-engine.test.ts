import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '@im/sdk';
import { loadWsEngine } from '../src/realtime/ws-engine.ts';

describe('SOCKET_WS_ENGINE', () => {
  it('ws needs nothing loaded', async () => {
    assert.equal(await loadWsEngine('ws'), undefined);
  });

  it('uws loads uWebSockets.js, or refuses with one line naming the variable and why', async () => {
    const loaded: unknown = await loadWsEngine('uws').catch((err: unknown) => err);
    if (loaded instanceof Error) {
      assert.ok(loaded instanceof ConfigError);
      assert.equal(loaded.variable, 'SOCKET_WS_ENGINE');
      assert.match(
        loaded.message,
        /uWebSockets\.js (needs glibc \d+\.\d+ or newer and this system has|could not be loaded)/,
      );
      assert.ok(!loaded.message.includes('\n'));
    } else {
      // An operator's machine with it installed, on a recent enough glibc.
      assert.equal(typeof (loaded as { App?: unknown } | undefined)?.App, 'function');
    }
  });
});
