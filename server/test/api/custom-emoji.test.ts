import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { CustomEmoji, Group, Message, Reaction } from '@im/protocol';
import sharp from 'sharp';
import { connectClient, record, until } from '../realtime/client.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { createGroup, joinByInvite } from '../support/conversations.ts';
import { type ApiErrorBody } from './harness.ts';

const png = (seed: number) =>
  sharp({ create: { width: 32, height: 32, channels: 4, background: { r: seed % 256, g: 80, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();

describe('custom emoji', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);
  let owner: User;
  let member: User;
  let outsider: User;
  let group: Group;

  const upload = async (
    user: User,
    name: string | undefined,
    bytes: Uint8Array,
    groupId = group.id,
    extra?: (form: FormData) => void,
  ) => {
    const form = new FormData();
    if (name !== undefined) form.append('name', name);
    form.append('file', new Blob([bytes], { type: 'image/png' }), 'emoji.png');
    extra?.(form);
    const res = await fetch(`${api.base}/api/groups/${groupId}/emoji`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as CustomEmoji & ApiErrorBody };
  };

  before(async () => {
    [owner, member, outsider] = await Promise.all([api.user('emo'), api.user('emm'), api.user('emx')]);
    group = await createGroup(api, owner, 'emoji land');
    await joinByInvite(api, group.id, owner, [member]);
  });

  it('an admin uploads one; members list it and can read its image; outsiders cannot', async () => {
    const image = await png(1);
    const added = await upload(owner, 'party_parrot', image);
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.name, 'party_parrot');
    assert.equal(added.body.url, `/api/files/${added.body.fileId}`);

    const list = await ok<CustomEmoji[]>('GET', `/api/groups/${group.id}/emoji`, member);
    assert.deepEqual(list, [added.body]);
    await refused('GET', `/api/groups/${group.id}/emoji`, outsider, 404, 'IM_ERR_NOT_FOUND');

    // A member who did not upload it reads the bytes, directly and through a signed URL.
    const bytes = await fetch(api.base + added.body.url, { headers: { authorization: `Bearer ${member.token}` } });
    assert.equal(bytes.status, 200);
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), image);
    const signed = await ok<{ url: string }>('GET', `/api/files/${added.body.fileId}/url`, member);
    assert.equal((await fetch(api.base + signed.url)).status, 200);
    await refused('GET', `/api/files/${added.body.fileId}/url`, outsider, 404, 'IM_ERR_NOT_FOUND');
  });

  it("tells members' sockets when the group's emoji change, and nobody else", async () => {
    const [atMember, atOutsider] = await Promise.all([
      connectClient(api.base, member.token),
      connectClient(api.base, outsider.token),
    ]);
    try {
      const [memberSaw, outsiderSaw] = [record(atMember, 'emoji:changed'), record(atOutsider, 'emoji:changed')];
      assert.equal((await upload(owner, 'wave_hello', await png(7))).status, 201);
      await until('emoji:changed on add', () => memberSaw.length === 1);
      await ok('DELETE', `/api/groups/${group.id}/emoji/wave_hello`, owner, undefined, 204);
      await until('emoji:changed on delete', () => memberSaw.length === 2);
      assert.deepEqual(memberSaw, [{ groupId: group.id }, { groupId: group.id }]);
      assert.equal(outsiderSaw.length, 0);
    } finally {
      atMember.disconnect();
      atOutsider.disconnect();
    }
  });

  it('refuses plain members, duplicates, bad names, non-images and images over 256 KB', async () => {
    const image = await png(2);
    const byMember = await upload(member, 'mine', image);
    assert.equal(byMember.status, 403);
    assert.equal(byMember.body.error.code, 'IM_ERR_FORBIDDEN');
    const byOutsider = await upload(outsider, 'theirs', image);
    assert.equal(byOutsider.status, 404);

    const duplicate = await upload(owner, 'party_parrot', image);
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.body.error.code, 'IM_ERR_CONFLICT');

    for (const name of ['A', 'Caps', 'with-dash', 'x'.repeat(33), '', undefined]) {
      const bad = await upload(owner, name, image);
      assert.equal(bad.status, 400, `name ${String(name)}`);
      assert.equal(bad.body.error.code, 'IM_ERR_VALIDATION');
    }

    const text = await upload(owner, 'not_image', Buffer.from('just some text, not a picture'));
    assert.equal(text.status, 400);
    assert.equal(text.body.error.code, 'IM_ERR_VALIDATION');
    const svg = await upload(owner, 'vector', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'));
    assert.equal(svg.status, 400);

    const big = Buffer.concat([image, Buffer.alloc(300 * 1024)]);
    const tooBig = await upload(owner, 'too_big', big);
    assert.equal(tooBig.status, 413);
    assert.equal(tooBig.body.error.code, 'IM_ERR_PAYLOAD_TOO_LARGE');

    const names = (await ok<CustomEmoji[]>('GET', `/api/groups/${group.id}/emoji`, owner)).map((e) => e.name);
    assert.deepEqual(names, ['party_parrot']);
  });

  it('refuses a form with a part besides name and file (as the document declares), storing nothing', async () => {
    const image = await png(3);
    const before = await ok<{ storage: { used: number } }>('GET', '/api/users/me', owner);
    for (const [what, extra] of [
      ['a text field', (form: FormData) => form.append('colour', 'red')],
      ['a second file', (form: FormData) => form.append('file', new Blob([image], { type: 'image/png' }), 'b.png')],
      ['a file under another name', (form: FormData) => form.append('other', new Blob([image]), 'c.png')],
    ] as const) {
      const res = await upload(owner, 'extra_part', image, group.id, extra);
      assert.equal(res.status, 400, what);
      assert.equal(res.body.error.code, 'IM_ERR_VALIDATION', what);
    }
    const names = (await ok<CustomEmoji[]>('GET', `/api/groups/${group.id}/emoji`, owner)).map((e) => e.name);
    assert.ok(!names.includes('extra_part'));
    const after = await ok<{ storage: { used: number } }>('GET', '/api/users/me', owner);
    assert.equal(after.storage.used, before.storage.used);
  });

  it('a known :name: is a reaction in the group; an unknown one is 400; Unicode emoji still work', async () => {
    const panel = group.panels[0]!;
    const msg = await ok<Message>(
      'POST',
      `/api/converses/${panel.converseId}/messages`,
      member,
      { content: 'hi' },
      201,
    );
    const reactions = await ok<Reaction[]>('PUT', `/api/messages/${msg.id}/reactions/:party_parrot:`, member);
    assert.deepEqual(reactions, [{ emoji: ':party_parrot:', count: 1, me: true }]);
    await refused('PUT', `/api/messages/${msg.id}/reactions/:no_such_one:`, member, 400, 'IM_ERR_VALIDATION');
    await refused('PUT', `/api/messages/${msg.id}/reactions/:Bad-Name:`, member, 400, 'IM_ERR_VALIDATION');
    const both = await ok<Reaction[]>('PUT', `/api/messages/${msg.id}/reactions/${encodeURIComponent('🎉')}`, member);
    assert.deepEqual(
      both.map((r) => r.emoji),
      [':party_parrot:', '🎉'],
    );

    // In a DM no custom emoji exists.
    const dm = await ok<{ id: string }>('POST', '/api/dms', owner, { userId: member.id });
    const dmMsg = await ok<Message>('POST', `/api/converses/${dm.id}/messages`, owner, { content: 'psst' }, 201);
    await refused('PUT', `/api/messages/${dmMsg.id}/reactions/:party_parrot:`, member, 400, 'IM_ERR_VALIDATION');
  });

  it('only admins delete one; afterwards it is no longer a valid reaction', async () => {
    const image = await png(3);
    assert.equal((await upload(owner, 'short_lived', image)).status, 201);
    await refused('DELETE', `/api/groups/${group.id}/emoji/short_lived`, member, 403, 'IM_ERR_FORBIDDEN');
    await ok('DELETE', `/api/groups/${group.id}/emoji/short_lived`, owner, undefined, 204);
    await refused('DELETE', `/api/groups/${group.id}/emoji/short_lived`, owner, 404, 'IM_ERR_NOT_FOUND');
    const msg = await ok<Message>(
      'POST',
      `/api/converses/${group.panels[0]!.converseId}/messages`,
      owner,
      { content: 'later' },
      201,
    );
    await refused('PUT', `/api/messages/${msg.id}/reactions/:short_lived:`, member, 400, 'IM_ERR_VALIDATION');
    // The name is free again.
    assert.equal((await upload(owner, 'short_lived', image)).status, 201);
  });
});
