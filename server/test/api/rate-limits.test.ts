import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Ack, Group, Message } from '@im/protocol';
import { connectClient, type ClientSocket } from '../realtime/client.ts';
import { startApi, type ApiHarness } from './harness.ts';

type Err = { error: { code: string; details?: { retryAfterSec?: number } } };

/**
 * The one rate-limit policy at work on a whole node: the HTTP API and the
 * socket share each count, 429 carries Retry-After, and nothing refused is
 * written.
 */
describe('rate limits (one policy, HTTP and socket alike)', () => {
  let api: ApiHarness;
  let socket: ClientSocket | undefined;
  before(async () => {
    api = await startApi(import.meta.url, {
      RATE_LIMIT: 'on',
      RATE_LIMITS: 'send=3/60,typing=2/60,upload=2/60,search=2/60,edit=1/60',
    });
  });
  after(async () => {
    socket?.disconnect();
    await api.close();
  });

  it('counts HTTP and socket sends against one limit; past it nothing is stored', async () => {
    const alice = await api.user('rl');
    const group = (await api.request<Group>('POST', '/api/groups', { token: alice.token, body: { name: 'Limits' } }))
      .body;
    const converseId = group.panels[0]!.converseId;
    const send = (content: string) =>
      api.request<Message | Err>('POST', `/api/converses/${converseId}/messages`, {
        token: alice.token,
        body: { content },
      });
    socket = await connectClient(api.base, alice.token);
    const overSocket = (content: string) =>
      socket!.timeout(10_000).emitWithAck('message:send', { converseId, content }) as Promise<Ack<Message>>;

    assert.equal((await send('one')).status, 201);
    assert.equal((await overSocket('two')).ok, true);
    assert.equal((await send('three')).status, 201);
    const refusedSocket = await overSocket('four');
    assert.equal(refusedSocket.ok, false);
    assert.equal(!refusedSocket.ok && refusedSocket.error.code, 'IM_ERR_RATE_LIMITED');
    const refusedHttp = await send('five');
    assert.equal(refusedHttp.status, 429);
    assert.equal((refusedHttp.body as Err).error.code, 'IM_ERR_RATE_LIMITED');
    assert.ok(Number(refusedHttp.headers.get('retry-after')) >= 1);

    const stored = await api.request<Message[]>('GET', `/api/converses/${converseId}/messages`, { token: alice.token });
    assert.deepEqual(
      stored.body.map((m) => m.content),
      ['one', 'two', 'three'],
    );

    // Another user's count is their own.
    const bob = await api.user('rl');
    const dm = await api.request<{ id: string }>('POST', '/api/dms', { token: bob.token, body: { userId: alice.id } });
    const bobSends = await api.request('POST', `/api/converses/${dm.body.id}/messages`, {
      token: bob.token,
      body: { content: 'hi' },
    });
    assert.equal(bobSends.status, 201);
  });

  it('limits edits, searches, uploads and typing notices from the same table', async () => {
    const carol = await api.user('rl');
    const group = (await api.request<Group>('POST', '/api/groups', { token: carol.token, body: { name: 'Typing' } }))
      .body;
    const converseId = group.panels[0]!.converseId;
    const msg = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
      token: carol.token,
      body: { content: 'draft' },
    });
    const edit = (content: string) =>
      api.request('PATCH', `/api/messages/${msg.body.id}`, { token: carol.token, body: { content } });
    assert.equal((await edit('first edit')).status, 200);
    assert.equal((await edit('second edit')).status, 429);

    const search = () => api.request('GET', '/api/search?q=draft', { token: carol.token });
    assert.deepEqual([(await search()).status, (await search()).status, (await search()).status], [200, 200, 429]);

    const upload = () =>
      fetch(`${api.base}/api/files?name=a.txt`, {
        method: 'POST',
        headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'text/plain' },
        body: 'bytes',
      });
    const uploads = [await upload(), await upload(), await upload()];
    assert.deepEqual(
      uploads.map((r) => r.status),
      [201, 201, 429],
    );
    assert.ok(Number(uploads[2]!.headers.get('retry-after')) >= 1);

    // Typing notices are throttled per converse first (one per 2 s), then counted: three panels.
    const panels = [converseId];
    for (const name of ['b', 'c']) {
      const panel = await api.request<{ converseId: string }>('POST', `/api/groups/${group.id}/panels`, {
        token: carol.token,
        body: { name, type: 'text' },
      });
      panels.push(panel.body.converseId);
    }
    const typer = await connectClient(api.base, carol.token);
    try {
      const acks = [];
      for (const id of panels)
        acks.push((await typer.timeout(10_000).emitWithAck('typing', { converseId: id })) as Ack<null>);
      assert.deepEqual(
        acks.map((a) => (a.ok ? 'ok' : a.error.code)),
        ['ok', 'ok', 'IM_ERR_RATE_LIMITED'],
      );
    } finally {
      typer.disconnect();
    }
  });
});
