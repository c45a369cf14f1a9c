import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSuite } from '../support/api-suite.ts';
import { browserSubscription } from '../push/push-endpoint.ts';

/** Subscriptions sent all at once: the cap and the refusal to move an endpoint hold without ordering. */
describe('Web Push subscriptions registered concurrently', () => {
  const { api } = apiSuite(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.0/8' });
  const subscribe = (token: string, endpoint: string) =>
    api.request('POST', '/api/push/subscriptions', { token, body: browserSubscription(endpoint).json });
  const stored = (filter: Record<string, unknown>) =>
    api.node.app.mongo!.collection('pushsubscriptions').countDocuments(filter);

  it('one user racing 25 subscribes keeps at most 10', async () => {
    const user = await api.user('race');
    const endpoints = Array.from({ length: 25 }, (_, i) => `http://127.0.0.1:9/race/${user.id}/${i}`);
    const answers = await Promise.all(endpoints.map((e) => subscribe(user.token, e)));
    for (const a of answers) assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(await stored({ endpoint: { $in: endpoints } }), 10);
  });

  it('two users racing for one endpoint: one holds it, the other is refused (409)', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [a, b] = [await api.user('a'), await api.user('b')];
      const endpoint = `http://127.0.0.1:9/contested/${round}`;
      const statuses = (await Promise.all([subscribe(a.token, endpoint), subscribe(b.token, endpoint)])).map(
        (r) => r.status,
      );
      assert.deepEqual(statuses.sort(), [201, 409]);
      assert.equal(await stored({ endpoint }), 1);
    }
  });
});
