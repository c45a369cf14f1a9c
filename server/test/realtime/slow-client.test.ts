import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Group, Invite } from '@im/protocol';
import { apiSuite } from '../support/api-suite.ts';
import { connectClient, record, until } from './client.ts';

describe('a client that stops reading', () => {
  const { api, sockets } = apiSuite(import.meta.url, { SOCKET_MAX_BUFFER_BYTES: String(256 * 1024) });

  it('is disconnected once its unsent data passes the limit, while a reading client keeps up', async (t) => {
    const owner = await api.user('slowo');
    const slow = await api.user('slow');
    const fast = await api.user('fast');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Firehose' } }))
      .body;
    const { code } = (
      await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
    ).body;
    for (const u of [slow, fast]) await api.request('POST', `/api/invites/${code}/accept`, { token: u.token });
    const converseId = group.panels[0]!.converseId;

    const slowSocket = await connectClient(api.base, slow.token);
    const fastSocket = await connectClient(api.base, fast.token);
    sockets.push(slowSocket, fastSocket);
    const received = record(fastSocket, 'message:new');
    // Stop reading: the kernel buffers fill, then the server's.
    const engine = slowSocket.io.engine as unknown as { transport: { ws: { _socket: { pause(): void } } } };
    engine.transport.ws._socket.pause();

    const online = async () =>
      (await api.request<{ online: string[] }>('GET', `/api/presence?userIds=${slow.id}`, { token: owner.token })).body
        .online;
    assert.deepEqual(await online(), [slow.id]);
    const content = 'x'.repeat(3900);
    let sent = 0;
    const meta = { meta: { user: { id: owner.id } } };
    while ((await online()).length > 0 && sent < 20_000) {
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          api.broker.call('chat.send', { converseId, content: `${sent + i} ${content}` }, meta),
        ),
      );
      sent += 200;
    }
    assert.deepEqual(
      await online(),
      [],
      `still connected after ${sent} messages (${Math.round((sent * 4) / 1024)} MiB)`,
    );
    t.diagnostic(`dropped after ${sent} messages of 4 KB`);
    await until('the reading client has everything', () => received.length === sent, 20_000);
  });
});
