import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DmConverse, Message } from '@im/protocol';
import { connectClient, record, until } from '../realtime/client.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { createGroup, joinByInvite } from '../support/conversations.ts';

/** Pins (shared/API.md, "Additions": Conversations). */
describe('pins', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const room = async () => {
    const owner = await api.user('own');
    const group = await createGroup(api, owner);
    const [admin, member] = [await api.user('adm'), await api.user('mem')];
    await joinByInvite(api, group.id, owner, [admin, member]);
    await ok('PUT', `/api/groups/${group.id}/members/${admin.id}/role`, owner, { role: 'admin' });
    return { owner, admin, member, group, converseId: group.panels[0]!.converseId };
  };
  const send = (user: User, converseId: string, content: string) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, user, { content }, 201);
  const pins = (user: User, converseId: string) => ok<Message[]>('GET', `/api/converses/${converseId}/pins`, user);

  it('group admins pin and unpin; members get 403, outsiders 404; newest pin first', async () => {
    const { owner, admin, member, converseId } = await room();
    const outsider = await api.user('out');
    const first = await send(member, converseId, 'first');
    const second = await send(member, converseId, 'second');
    await refused('PUT', `/api/messages/${first.id}/pin`, member, 403, 'IM_ERR_FORBIDDEN');
    await refused('PUT', `/api/messages/${first.id}/pin`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('GET', `/api/converses/${converseId}/pins`, outsider, 404, 'IM_ERR_NOT_FOUND');

    const socket = await connectClient(api.base, member.token);
    try {
      const updates = record(socket, 'message:updated');
      const pinned = await ok<Message>('PUT', `/api/messages/${first.id}/pin`, admin);
      assert.equal(pinned.pinned?.by, admin.id);
      assert.ok(pinned.pinned?.at);
      await until('the pin to be announced', () => updates.some((m) => m.id === first.id && m.pinned));
    } finally {
      socket.disconnect();
    }
    await ok('PUT', `/api/messages/${second.id}/pin`, owner);
    // Pinning again changes nothing.
    const again = await ok<Message>('PUT', `/api/messages/${first.id}/pin`, owner);
    assert.equal(again.pinned?.by, admin.id);
    assert.deepEqual(
      (await pins(member, converseId)).map((m) => m.id),
      [second.id, first.id],
    );

    await refused('DELETE', `/api/messages/${second.id}/pin`, member, 403, 'IM_ERR_FORBIDDEN');
    const unpinned = await ok<Message>('DELETE', `/api/messages/${second.id}/pin`, admin);
    assert.equal(unpinned.pinned, undefined);
    assert.deepEqual(
      (await pins(member, converseId)).map((m) => m.id),
      [first.id],
    );
  });

  it('either member of a DM may pin', async () => {
    const [a, b] = [await api.user('dma'), await api.user('dmb')];
    const dm = await ok<DmConverse>('POST', '/api/dms', a, { userId: b.id });
    const m = await send(a, dm.id, 'pin me');
    const byB = await ok<Message>('PUT', `/api/messages/${m.id}/pin`, b);
    assert.equal(byB.pinned?.by, b.id);
    await ok('DELETE', `/api/messages/${m.id}/pin`, a);
    assert.deepEqual(await pins(b, dm.id), []);
  });

  it('deleting a pinned message unpins it; a deleted message cannot be pinned', async () => {
    const { admin, member, converseId } = await room();
    const m = await send(member, converseId, 'soon gone');
    await ok('PUT', `/api/messages/${m.id}/pin`, admin);
    await ok('DELETE', `/api/messages/${m.id}`, member, undefined, 204);
    assert.deepEqual(await pins(admin, converseId), []);
    const gone = await ok<Message>('GET', `/api/messages/${m.id}`, admin);
    assert.equal(gone.pinned, undefined);
    await refused('PUT', `/api/messages/${m.id}/pin`, admin, 404, 'IM_ERR_NOT_FOUND');
  });

  it('holds at most 50 pins per converse, even when pins race (409 IM_ERR_LIMIT)', async () => {
    const { owner, converseId } = await room();
    const messages: Message[] = [];
    for (let i = 0; i < 56; i += 1) messages.push(await send(owner, converseId, `m${i}`));
    for (const m of messages.slice(0, 45)) await ok('PUT', `/api/messages/${m.id}/pin`, owner);
    // Eleven at once for the last five places.
    const raced = await Promise.all(
      messages.slice(45).map((m) => api.request('PUT', `/api/messages/${m.id}/pin`, { token: owner.token })),
    );
    assert.deepEqual(raced.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 409, 409, 409, 409, 409, 409]);
    assert.ok(
      raced
        .filter((r) => r.status === 409)
        .every((r) => (r.body as { error: { code: string } }).error.code === 'IM_ERR_LIMIT'),
    );
    assert.equal((await pins(owner, converseId)).length, 50);
    // An unpin frees a place.
    const pinnedOne = (await pins(owner, converseId))[0]!;
    await ok('DELETE', `/api/messages/${pinnedOne.id}/pin`, owner);
    const refusedOne = raced.findIndex((r) => r.status === 409);
    await ok('PUT', `/api/messages/${messages[45 + refusedOne]!.id}/pin`, owner);
    assert.equal((await pins(owner, converseId)).length, 50);
  });
});
