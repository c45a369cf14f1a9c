import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Message, Panel, UnreadEntry } from '@im/protocol';
import { expectations, groupWithMembers, startApi, uploadAs, type ApiHarness } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** POST /api/messages/:id/forward (shared/API.md, "Notifications and personal organisation"). */
describe('forwarding', () => {
  let api: ApiHarness;
  const { ok, refused } = expectations(() => api);

  before(async () => {
    api = await startApi(import.meta.url, {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'im-forward-')),
      STORAGE: 'local',
    });
  });
  after(() => api.close());

  const send = (u: User, converseId: string, body: object) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, u, body, 201);
  const forward = (u: User, messageId: string, converseId: string) =>
    ok<Message>('POST', `/api/messages/${messageId}/forward`, u, { converseId }, 201);
  const dmOf = async (a: User, b: User) => (await ok<{ id: string }>('POST', '/api/dms', a, { userId: b.id })).id;
  const fileStatus = async (id: string, u: User) =>
    (await fetch(`${api.base}/api/files/${id}`, { headers: { authorization: `Bearer ${u.token}` } })).status;

  it('copies the message into the target, naming its origin, in the answer and in history', async () => {
    const { members, converseId } = await groupWithMembers(api, 2);
    const [a, c] = members as [User, User];
    const original = await send(c, converseId, { content: 'the release is out' });
    const dm = await dmOf(a, c);
    const copy = await forward(a, original.id, dm);
    assert.equal(copy.converseId, dm);
    assert.equal(copy.authorId, a.id);
    assert.equal(copy.content, 'the release is out');
    assert.deepEqual(copy.forwarded, {
      messageId: original.id,
      converseId,
      authorId: c.id,
      createdAt: original.createdAt,
    });
    const history = await ok<Message[]>('GET', `/api/converses/${dm}/messages`, c);
    assert.deepEqual(history.at(-1)!.forwarded, copy.forwarded);

    // A forward of a forward keeps the first origin.
    const { owner: other, converseId: elsewhere, groupId } = await groupWithMembers(api, 0);
    const invite = await ok<{ code: string }>('POST', `/api/groups/${groupId}/invites`, other, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, c);
    const again = await forward(c, copy.id, elsewhere);
    assert.deepEqual(again.forwarded, copy.forwarded);
  });

  it('mentions nobody again', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 2);
    const [a, b] = members as [User, User];
    const original = await send(owner, converseId, { content: `@${b.username} and @all, look` });
    assert.deepEqual(original.mentions, [b.id]);
    await ok('POST', `/api/converses/${converseId}/ack`, b, { seq: original.seq }, 204);
    const copy = await forward(a, original.id, converseId);
    assert.deepEqual(copy.mentions, []);
    assert.equal(copy.mentionsAll, undefined);
    const unread = await ok<UnreadEntry[]>('GET', '/api/unread', b);
    assert.equal(unread.find((e) => e.converseId === converseId)?.mentions ?? 0, 0);
  });

  it('the original must be readable (404) and the target writable (as a send)', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 2);
    const [a, outsider] = members as [User, User];
    const secret = await ok<Panel>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      { name: 'secret', type: 'text', private: true, allowUserIds: [a.id] },
      201,
    );
    const hidden = await send(owner, secret.converseId, { content: 'for the few' });
    const shown = await send(owner, converseId, { content: 'for all' });
    // Not readable: 404, as for any message the caller cannot see.
    await refused('POST', `/api/messages/${hidden.id}/forward`, outsider, 404, 'IM_ERR_NOT_FOUND', { converseId });
    // Into a private panel the caller may not see: 404.
    await refused('POST', `/api/messages/${shown.id}/forward`, outsider, 404, 'IM_ERR_NOT_FOUND', {
      converseId: secret.converseId,
    });
    // Into a converse of a group the caller is not in: 404.
    const foreign = await groupWithMembers(api, 0);
    await refused('POST', `/api/messages/${shown.id}/forward`, a, 404, 'IM_ERR_NOT_FOUND', {
      converseId: foreign.converseId,
    });
    // A read-only panel refuses plain members; a mute refuses the muted.
    const news = await ok<Panel>('POST', `/api/groups/${groupId}/panels`, owner, { name: 'news', type: 'text' }, 201);
    await ok('PATCH', `/api/groups/${groupId}/panels/${news.id}`, owner, { postingRole: 'admin' });
    await refused('POST', `/api/messages/${shown.id}/forward`, a, 403, 'IM_ERR_FORBIDDEN', {
      converseId: news.converseId,
    });
    await ok('PUT', `/api/groups/${groupId}/members/${a.id}/mute`, owner, { seconds: 600 }, 204);
    await refused('POST', `/api/messages/${shown.id}/forward`, a, 403, 'IM_ERR_MUTED', { converseId });
    // A deleted message is gone.
    await ok('DELETE', `/api/messages/${shown.id}`, owner, undefined, 204);
    await refused('POST', `/api/messages/${shown.id}/forward`, owner, 404, 'IM_ERR_NOT_FOUND', { converseId });
    await refused('POST', `/api/messages/${hidden.id}/forward`, owner, 400, 'IM_ERR_VALIDATION', {
      converseId: 'nope',
    });
  });

  it('the forwarded files become readable in the target, and stay unreadable to those who read neither', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const [a] = members as [User];
    const stranger = await api.user('fwdstr');
    const file = await uploadAs(api, owner.token, Buffer.from('quarterly numbers'), 'numbers.txt');
    const original = await send(owner, converseId, { content: 'numbers attached', attachments: [file.id] });
    assert.equal(await fileStatus(file.id, stranger), 404);
    const dm = await dmOf(a, stranger);
    const copy = await forward(a, original.id, dm);
    assert.deepEqual(copy.attachments, [file.id]);
    assert.equal(await fileStatus(file.id, stranger), 200);
    const third = await api.user('fwdthird');
    assert.equal(await fileStatus(file.id, third), 404);
  });
});
