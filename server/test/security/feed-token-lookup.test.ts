import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedToken, Group } from '@im/protocol';
import type { Context } from 'moleculer';
import { apiSuite } from '../support/api-suite.ts';

/** A lookup of a feed token held after it read its owner, until the test lets it answer. */
let hold: { arrived: () => void; release: Promise<void> } | undefined;
/** Told when the gateway has handled `user.feedToken.replaced`. */
let heard: (() => void) | undefined;

const slowLookup = {
  localAction(next: (ctx: Context) => Promise<unknown>, action: { name?: string }) {
    if (action.name !== 'user.feedTokenOwner') return next;
    return async (ctx: Context) => {
      const owner = await next(ctx);
      const held = hold;
      hold = undefined;
      if (held) {
        held.arrived();
        await held.release;
      }
      return owner;
    };
  },
  localEvent(next: (ctx: Context) => void | Promise<void>, event: { name?: string; service?: { name?: string } }) {
    if (event.name !== 'user.feedToken.replaced' || event.service?.name !== 'gateway') return next;
    return async (ctx: Context) => {
      await next(ctx);
      heard?.();
    };
  },
};

describe('a feed token revoked while a gateway is looking it up', () => {
  const { api, ok } = apiSuite(import.meta.url, {}, { middlewares: [slowLookup] });
  const feed = async (token: string, converseId: string) =>
    (await fetch(`${api.base}/feeds/${token}/converses/${converseId}.atom`)).status;

  it('is not remembered by that gateway: the next request is 404', async () => {
    const alice = await api.user('lookup');
    const group = await ok<Group>('POST', '/api/groups', alice, { name: 'Feeds' }, 201);
    const converseId = group.panels[0]!.converseId;
    const { token } = await ok<FeedToken>('POST', '/api/feeds/token', alice);

    let release!: () => void;
    const arrived = new Promise<void>((resolve) => {
      hold = { arrived: resolve, release: new Promise<void>((r) => (release = r)) };
    });
    const inFlight = feed(token, converseId);
    await arrived; // the lookup read the owner while the token was still good
    const gatewayHeard = new Promise<void>((resolve) => (heard = resolve));
    await ok(
      'POST',
      '/api/auth/password',
      alice,
      { currentPassword: 'correct horse battery', newPassword: 'a new one!' },
      204,
    );
    await gatewayHeard;
    release();
    await inFlight; // answered as it began, before the change: either way is fine

    assert.equal(await feed(token, converseId), 404, 'the revoked token must not stay remembered');
  });
});
