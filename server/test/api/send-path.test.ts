import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { FileInfo, Group, Invite, Message } from '@im/protocol';
import { apiSuite } from '../support/api-suite.ts';

/**
 * What one send costs in broker calls. Everything a service calls goes
 * through broker.call (a context's call does), so wrapping it records them:
 * chat.send and what its handler calls (their parent context is the send's).
 * What services do on the message's event afterwards (the push service's
 * work) runs off the send path and is not counted.
 */
describe('the send path', () => {
  const { api } = apiSuite(import.meta.url);
  let calls: string[] | undefined;
  before(async () => {
    const original = api.broker.call.bind(api.broker);
    api.broker.call = ((action: string, ...rest: unknown[]) => {
      const opts = rest[1] as { parentCtx?: { action?: { name?: string } } } | undefined;
      if (action === 'chat.send' || opts?.parentCtx?.action?.name === 'chat.send') calls?.push(action);
      return (original as (a: string, ...r: unknown[]) => unknown)(action, ...rest);
    }) as typeof api.broker.call;
  });

  const upload = async (token: string, text: string) => {
    const res = await fetch(`${api.base}/api/files?name=n.txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: text,
    });
    assert.equal(res.status, 201);
    return ((await res.json()) as FileInfo).id;
  };

  /** The calls a send makes (the chat.send itself included), and its answer. */
  const measure = async (token: string, converseId: string, body: Record<string, unknown>) => {
    calls = [];
    const res = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, { token, body });
    const made = calls;
    calls = undefined;
    return { res, made: [...made].sort() };
  };

  it('checks the sender, every mention and every attachment in at most three calls', async () => {
    const owner = await api.user('sp');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Path' } }))
      .body;
    const converseId = group.panels[0]!.converseId;
    const { code } = (
      await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
    ).body;
    const members = [];
    for (let i = 0; i < 5; i++) {
      const member = await api.user('sp');
      await api.request('POST', `/api/invites/${code}/accept`, { token: member.token });
      members.push(member);
    }
    const outsider = await api.user('sp');
    const files = [await upload(owner.token, 'one'), await upload(owner.token, 'two')];

    const plain = await measure(owner.token, converseId, { content: 'no one named here' });
    assert.equal(plain.res.status, 201);
    assert.deepEqual(plain.made, ['chat.send', 'group.converseMembers']);

    const mentions = [...members.map((m) => `@${m.username}`), `@${outsider.username}`].join(' ');
    const full = await measure(owner.token, converseId, { content: `hi ${mentions}`, attachments: files });
    assert.equal(full.res.status, 201);
    assert.deepEqual(full.made, ['chat.send', 'file.attach', 'group.converseMembers', 'user.idsByUsernames']);
    // The five members are mentioned; the outsider, who is not in the group, is not.
    assert.deepEqual([...full.res.body.mentions].sort(), members.map((m) => m.id).sort());
    assert.deepEqual(full.res.body.attachments, files);
    // A member may read the attached files now.
    const read = await fetch(`${api.base}/api/files/${files[0]}`, {
      headers: { authorization: `Bearer ${members[0]!.token}` },
    });
    assert.equal(read.status, 200);
  });

  it('refuses a foreign file before anything is written or attached', async () => {
    const owner = await api.user('sp');
    const other = await api.user('sp');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Own' } })).body;
    const converseId = group.panels[0]!.converseId;
    const mine = await upload(owner.token, 'mine');
    const theirs = await upload(other.token, 'theirs');
    const res = await api.request<{ error: { code: string } }>('POST', `/api/converses/${converseId}/messages`, {
      token: owner.token,
      body: { content: 'sharing', attachments: [mine, theirs] },
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'IM_ERR_NOT_FOUND');
    const stored = await api.request<Message[]>('GET', `/api/converses/${converseId}/messages`, {
      token: owner.token,
    });
    assert.equal(stored.body.length, 0);
    const info = await api.request<FileInfo>('GET', `/api/files/${mine}/info`, { token: owner.token });
    assert.equal(info.status, 200);
  });

  it('answers a sender outside the converse 404 after one membership call, writing nothing', async () => {
    const owner = await api.user('sp');
    const stranger = await api.user('sp');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Shut' } }))
      .body;
    const converseId = group.panels[0]!.converseId;
    // The gateway asks whether a token's user is active once, then caches it: not part of a send.
    await api.request('GET', '/api/users/me', { token: stranger.token });
    const out = await measure(stranger.token, converseId, { content: `@${owner.username} let me in` });
    assert.equal(out.res.status, 404);
    assert.deepEqual(out.made, ['chat.send', 'group.converseMembers', 'user.idsByUsernames']);
    const stored = await api.request<Message[]>('GET', `/api/converses/${converseId}/messages`, {
      token: owner.token,
    });
    assert.equal(stored.body.length, 0);
  });
});
