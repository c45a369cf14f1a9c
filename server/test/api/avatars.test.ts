import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { PublicUser } from '@im/protocol';
import sharp from 'sharp';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { uploadAs, type ApiErrorBody } from './harness.ts';

/** Profile pictures: one of my uploads becomes my avatar, which everyone signed in may see. */
describe('avatars', () => {
  const { api } = apiSuite(import.meta.url, { FILE_UNATTACHED_GRACE_SEC: '1' });
  let owner: User;
  let stranger: User;

  before(async () => {
    [owner, stranger] = await Promise.all([api.user('ava'), api.user('avs')]);
  });

  const upload = (bytes: Uint8Array, name: string, token = owner.token) => uploadAs(api, token, bytes, name);
  const square = (color: string) =>
    sharp({ create: { width: 128, height: 128, channels: 3, background: color } })
      .png()
      .toBuffer();
  const setAvatar = (avatar: string, token = owner.token) =>
    api.request<PublicUser & ApiErrorBody>('PATCH', '/api/users/me', { token, body: { avatar } });
  const read = (fileId: string, token: string) =>
    fetch(`${api.base}/api/files/${fileId}`, { headers: { authorization: `Bearer ${token}` } });

  it('makes my uploaded image my picture, readable by someone who shares nothing with me', async () => {
    const file = await upload(await square('#3366aa'), 'me.png');
    assert.equal((await read(file.id, stranger.token)).status, 404, 'an unattached upload is private');
    const res = await setAvatar(`/api/files/${file.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.avatar, `/api/files/${file.id}`);
    const seen = await api.request<PublicUser>('GET', `/api/users/${owner.id}`, { token: stranger.token });
    assert.equal(seen.body.avatar, `/api/files/${file.id}`);
    const bytes = await read(file.id, stranger.token);
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), 'image/png');
    // Past the grace period, the cleanup of never-attached uploads leaves a picture alone.
    await new Promise((r) => setTimeout(r, 1100));
    await api.broker.call('file.cleanup', {});
    assert.equal((await read(file.id, stranger.token)).status, 200);
  });

  it("refuses someone else's file, a file that is not an image, and one over 1 MB, changing nothing", async () => {
    const before = (await api.request<PublicUser>('GET', '/api/users/me', { token: owner.token })).body.avatar;
    const theirs = await upload(await square('#aa3366'), 'theirs.png', stranger.token);
    const text = await upload(new TextEncoder().encode('not a picture'), 'notes.txt');
    const huge = await upload(
      await sharp(randomBytes(700 * 700 * 3), { raw: { width: 700, height: 700, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
      'noise.png',
    );
    assert.ok(huge.size > 1024 * 1024);
    for (const file of [theirs, text, huge]) {
      const res = await setAvatar(`/api/files/${file.id}`);
      assert.equal(res.status, 400, file.name);
      assert.equal(res.body.error.code, 'IM_ERR_VALIDATION');
      assert.match(res.body.error.message, /avatar/);
    }
    assert.equal((await read(theirs.id, owner.token)).status, 404, 'trying did not make it readable');
    const after = (await api.request<PublicUser>('GET', '/api/users/me', { token: owner.token })).body.avatar;
    assert.equal(after, before);
  });

  it('a new picture sends the old one back to private, unused uploads', async () => {
    const first = await upload(await square('#118811'), 'first.png');
    const second = await upload(await square('#881111'), 'second.png');
    assert.equal((await setAvatar(`/api/files/${first.id}`)).status, 200);
    assert.equal((await setAvatar(`/api/files/${second.id}`)).status, 200);
    assert.equal((await read(first.id, stranger.token)).status, 404);
    assert.equal((await read(second.id, stranger.token)).status, 200);
  });
});
