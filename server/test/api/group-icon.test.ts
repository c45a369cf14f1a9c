import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { Group, Me } from '@im/protocol';
import { Types } from 'mongoose';
import sharp from 'sharp';
import { connectClient, record, until } from '../realtime/client.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { type ApiErrorBody } from './harness.ts';

const square = (color: string) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .png()
    .toBuffer();

/** Group icons: managers upload one; everyone signed in may read it, like a profile picture. */
describe('group icons', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);
  let owner: User;
  let admin: User;
  let member: User;
  let outsider: User;
  let group: Group;

  const putIcon = async (user: User, bytes: Uint8Array, groupId = group.id, init: RequestInit = {}) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'icon.png');
    const res = await fetch(`${api.base}/api/groups/${groupId}/icon`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
      ...init,
    });
    return { status: res.status, body: (await res.json()) as Group & ApiErrorBody };
  };
  const read = (fileId: string, user?: User) =>
    fetch(`${api.base}/api/files/${fileId}`, user ? { headers: { authorization: `Bearer ${user.token}` } } : {});
  const iconSeenBy = async (user: User) => (await ok<Group>('GET', `/api/groups/${group.id}`, user)).icon;

  before(async () => {
    [owner, admin, member, outsider] = await Promise.all([
      api.user('ico'),
      api.user('ica'),
      api.user('icm'),
      api.user('icx'),
    ]);
    group = await ok<Group>('POST', '/api/groups', owner, { name: 'icons' }, 201);
    const invite = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, admin);
    await ok('POST', `/api/invites/${invite.code}/accept`, member);
    await ok('PUT', `/api/groups/${group.id}/members/${admin.id}/role`, owner, { role: 'admin' });
  });

  it("sets the icon: the caller's view of the group, readable by anyone signed in, live in members' apps", async () => {
    const usedBefore = (await ok<Me>('GET', '/api/users/me', owner)).storage.used;
    const socket = await connectClient(api.base, member.token);
    try {
      const updates = record(socket, 'group:updated');
      const image = await square('#2255aa');
      const set = await putIcon(owner, image);
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.match(set.body.icon ?? '', /^[0-9a-f]{24}$/);
      assert.equal(set.body.id, group.id);
      assert.equal(set.body.myRole, 'owner');
      const fileId = set.body.icon!;

      await until('group:updated with the icon', () => updates.some((g) => g.icon === fileId));
      assert.equal(await iconSeenBy(member), fileId);
      // Counted as the uploader's upload.
      assert.equal((await ok<Me>('GET', '/api/users/me', owner)).storage.used, usedBefore + image.length);

      // Someone who shares nothing with the group reads the bytes, as with a profile picture.
      const bytes = await read(fileId, outsider);
      assert.equal(bytes.status, 200);
      assert.equal(bytes.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), image);
      assert.equal((await read(fileId)).status, 401, 'not without signing in');
    } finally {
      socket.disconnect();
    }
  });

  it('an admin replaces it: the old image goes back to a private, unused upload', async () => {
    const old = (await iconSeenBy(owner))!;
    const set = await putIcon(admin, await square('#aa5522'));
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.myRole, 'admin');
    assert.notEqual(set.body.icon, old);
    assert.equal(await iconSeenBy(member), set.body.icon);
    assert.equal((await read(old, outsider)).status, 404);
    assert.equal((await read(old, member)).status, 404);
    assert.equal((await read(old, owner)).status, 200, 'still its uploader’s file until the cleanup');
    assert.equal((await read(set.body.icon!, outsider)).status, 200);
  });

  it('the cleanup of unused uploads removes a replaced icon and leaves the current one, however old', async () => {
    const first = await putIcon(owner, await square('#123456'));
    const second = await putIcon(owner, await square('#654321'));
    assert.equal(second.status, 200);
    // Both older than the grace period (a day by default), as if uploaded long ago.
    const files = api.node.app.mongo!.collection('files');
    const longAgo = new Date(Date.now() - 7 * 24 * 3600 * 1000);
    await files.updateMany(
      { _id: { $in: [first.body.icon!, second.body.icon!].map((id) => new Types.ObjectId(id)) } },
      { $set: { createdAt: longAgo } },
    );
    await api.broker.call('file.cleanup', {});
    assert.equal((await read(first.body.icon!, owner)).status, 404, 'the replaced icon is gone');
    assert.equal((await read(second.body.icon!, outsider)).status, 200, 'the icon stays');
  });

  it('refuses plain members (403), non-members (404), non-images (400), large images (413), changing nothing', async () => {
    const current = await iconSeenBy(owner);
    assert.ok(current);
    const image = await square('#11aa11');
    const byMember = await putIcon(member, image);
    assert.equal(byMember.status, 403);
    assert.equal(byMember.body.error.code, 'IM_ERR_FORBIDDEN');
    const byOutsider = await putIcon(outsider, image);
    assert.equal(byOutsider.status, 404);
    assert.equal(byOutsider.body.error.code, 'IM_ERR_NOT_FOUND');
    const noGroup = await putIcon(owner, image, '0123456789abcdef01234567');
    assert.equal(noGroup.status, 404);

    for (const bytes of [
      Buffer.from('just some text, not a picture'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.alloc(0),
    ]) {
      const bad = await putIcon(owner, bytes);
      assert.equal(bad.status, 400, bytes.toString());
      assert.equal(bad.body.error.code, 'IM_ERR_VALIDATION');
    }
    // A PNG over 1 MB: by the declared length, and (just over, within the framing slack) as it is read.
    const noise = await sharp(randomBytes(1200 * 1200 * 3), { raw: { width: 1200, height: 1200, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const justOver = Buffer.concat([image, Buffer.alloc(1024 * 1024 + 100 - image.length)]);
    for (const big of [noise, justOver]) {
      const tooBig = await putIcon(owner, big);
      assert.equal(tooBig.status, 413, `${big.length} bytes`);
      assert.equal(tooBig.body.error.code, 'IM_ERR_PAYLOAD_TOO_LARGE');
    }
    const raw = await fetch(`${api.base}/api/groups/${group.id}/icon`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'image/png' },
      body: image,
    });
    assert.equal(raw.status, 415);
    await refused('PUT', '/api/groups/not-an-id/icon', owner, 400, 'IM_ERR_VALIDATION');
    // The form has one part, file (the document says no other): any other refuses it.
    const extra = new FormData();
    extra.append('file', new Blob([image]), 'icon.png');
    extra.append('caption', 'green');
    const withExtra = await putIcon(owner, image, group.id, { body: extra });
    assert.equal(withExtra.status, 400);
    assert.equal(withExtra.body.error.code, 'IM_ERR_VALIDATION');

    assert.equal(await iconSeenBy(owner), current);
  });

  it('removing it: managers only; the group shows no icon, the image is private again; once is enough', async () => {
    const fileId = (await iconSeenBy(owner))!;
    await refused('DELETE', `/api/groups/${group.id}/icon`, member, 403, 'IM_ERR_FORBIDDEN');
    await refused('DELETE', `/api/groups/${group.id}/icon`, outsider, 404, 'IM_ERR_NOT_FOUND');
    const socket = await connectClient(api.base, member.token);
    try {
      const updates = record(socket, 'group:updated');
      await ok('DELETE', `/api/groups/${group.id}/icon`, admin, undefined, 204);
      await until('group:updated without the icon', () => updates.length === 1);
      assert.equal(updates[0]!.icon, undefined);
      assert.equal(await iconSeenBy(member), undefined);
      assert.equal((await read(fileId, outsider)).status, 404);
      // Nothing to remove: still 204.
      await ok('DELETE', `/api/groups/${group.id}/icon`, owner, undefined, 204);
    } finally {
      socket.disconnect();
    }
  });

  it("deleting the group removes its icon file and gives its bytes back to the uploader's storage use", async () => {
    const doomed = await ok<Group>('POST', '/api/groups', owner, { name: 'short lived' }, 201);
    const usedBefore = (await ok<Me>('GET', '/api/users/me', owner)).storage.used;
    const image = await square('#777777');
    const set = await putIcon(owner, image, doomed.id);
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await ok<Me>('GET', '/api/users/me', owner)).storage.used, usedBefore + image.length);
    await ok('DELETE', `/api/groups/${doomed.id}`, owner, undefined, 204);
    assert.equal((await read(set.body.icon!, owner)).status, 404);
    assert.equal((await ok<Me>('GET', '/api/users/me', owner)).storage.used, usedBefore);
  });
});
