// Groups, members and messages made through the API, the way the app makes
// them: the start of most conversation tests.
import assert from 'node:assert/strict';
import { apiPath } from '@im/api-client';
import type { Group, Message } from '@im/protocol';
import type { ApiHarness } from '../api/harness.ts';

type Token = { token: string };

/** A new group owned by `owner`; answers it (with its first panel's converse). */
export async function createGroup(api: ApiHarness, owner: Token, name = 'Room'): Promise<Group> {
  return api.client(owner.token).call('group.create', { name });
}

/** `users` join the group through one new invite of `inviter`. */
export async function joinByInvite(api: ApiHarness, groupId: string, inviter: Token, users: Token[]): Promise<void> {
  const { code } = await api.client(inviter.token).call('group.createInvite', { groupId });
  for (const user of users) await api.client(user.token).call('group.acceptInvite', { code });
}

/**
 * An owner with a new group and `n` more members who joined by invite: the
 * start of most conversation tests. `converseId` is the first panel's.
 */
export async function groupWithMembers(api: ApiHarness, n: number, name = 'Room') {
  const owner = await api.user('own');
  const group = await createGroup(api, owner, name);
  const members: Array<Awaited<ReturnType<ApiHarness['user']>>> = [];
  for (let i = 0; i < n; i += 1) members.push(await api.user('mem'));
  await joinByInvite(api, group.id, owner, members);
  return { owner, members, group, groupId: group.id, converseId: group.panels[0]!.converseId };
}

/** Sends a message as `user` (a text, or a whole send body); it must be stored (201). */
export async function sendMessage(
  api: ApiHarness,
  user: Token,
  converseId: string,
  message: string | Record<string, unknown>,
): Promise<Message> {
  const body = typeof message === 'string' ? { content: message } : message;
  const res = await api.request<Message>('POST', apiPath('chat.send', { converseId }), { token: user.token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** The converse's history as `user` sees it (`query`: `?before=...` and the like). */
export async function readHistory(api: ApiHarness, user: Token, converseId: string, query = ''): Promise<Message[]> {
  const res = await api.request<Message[]>('GET', `${apiPath('chat.history', { converseId })}${query}`, {
    token: user.token,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
