import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DmConverse, FileInfo, Group, Invite } from '@im/protocol';
import sharp from 'sharp';
import { startApi, uploadAs, type ApiHarness } from '../api/harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
type Err = { error: { code: string } };

/** GET /api/files/:fileId/info (extension): the upload's answer, with the download's access rule. */
describe('GET /api/files/:fileId/info', () => {
  let api: ApiHarness;
  let owner: User;

  before(async () => {
    api = await startApi(import.meta.url, {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'im-file-info-')),
      STORAGE: 'local',
    });
    owner = await api.user('finfo');
  });
  after(() => api.close());

  const upload = (bytes: Uint8Array, name: string, token = owner.token) => uploadAs(api, token, bytes, name);
  const info = (id: string, token = owner.token, query = '') =>
    api.request<FileInfo & Err>('GET', `/api/files/${id}/info${query}`, { token });
  const download = (id: string, token: string) =>
    fetch(`${api.base}/api/files/${id}`, { headers: { authorization: `Bearer ${token}` } });

  it('answers the uploader what the upload answered', async () => {
    const up = await upload(Buffer.from('plain words'), 'words.txt');
    const res = await info(up.id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, up);
    assert.deepEqual(res.body, {
      id: up.id,
      name: 'words.txt',
      size: 11,
      mime: 'text/plain',
      url: `/api/files/${up.id}`,
    });
  });

  it('has the access rule of the bytes: members of a converse where it is attached, no one else', async () => {
    const member = await api.user('fimem');
    const outsider = await api.user('fiout');
    const dmPeer = await api.user('fidm');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Info' } }))
      .body;
    const { code } = (
      await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
    ).body;
    assert.equal((await api.request('POST', `/api/invites/${code}/accept`, { token: member.token })).status, 200);
    const up = await upload(Buffer.from('for the group'), 'group.txt');

    // Not attached yet: only the uploader.
    for (const user of [member, outsider, dmPeer]) {
      const res = await info(up.id, user.token);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'IM_ERR_NOT_FOUND');
      assert.equal((await download(up.id, user.token)).status, 404);
    }

    const sent = await api.request('POST', `/api/converses/${group.panels[0]!.converseId}/messages`, {
      token: owner.token,
      body: { content: 'attached', attachments: [up.id] },
    });
    assert.equal(sent.status, 201);
    const seen = await info(up.id, member.token);
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body, up);
    assert.equal((await download(up.id, member.token)).status, 200);
    for (const user of [outsider, dmPeer]) {
      assert.equal((await info(up.id, user.token)).status, 404);
      assert.equal((await download(up.id, user.token)).status, 404);
    }

    // Attached in a DM as well: its other member may read it, the outsider still not.
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: owner.token, body: { userId: dmPeer.id } }))
      .body;
    const dmSent = await api.request('POST', `/api/converses/${dm.id}/messages`, {
      token: owner.token,
      body: { content: 'here too', attachments: [up.id] },
    });
    assert.equal(dmSent.status, 201);
    assert.deepEqual((await info(up.id, dmPeer.token)).body, up);
    assert.equal((await info(up.id, outsider.token)).status, 404);
  });

  it('answers 404 for an unknown file, 400 for a malformed id or a query parameter, 401 without a token', async () => {
    const up = await upload(Buffer.from('x'), 'x.txt');
    const unknown = await info(new (await import('mongoose')).Types.ObjectId().toHexString());
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'IM_ERR_NOT_FOUND');
    for (const bad of [
      'not-an-id',
      '0123456789ABCDEF01234567',
      '0123456789abcdef0123456',
      encodeURIComponent('{"$gt":""}'),
    ]) {
      const res = await info(bad);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'IM_ERR_VALIDATION', bad);
    }
    for (const query of ['?access_token=abc', '?fileId[$gt]=', '?x=1']) {
      const res = await info(up.id, owner.token, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'IM_ERR_VALIDATION', query);
    }
    assert.equal((await api.request('GET', `/api/files/${up.id}/info`)).status, 401);
  });

  it('gives thumbnailUrl only once the thumbnail exists', async () => {
    // Sniffed as PNG but undecodable: no thumbnail is ever made.
    const broken = await upload(
      Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]),
      'broken.png',
    );
    assert.equal(broken.mime, 'image/png');

    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    const up = await upload(png, 'photo.png');
    assert.equal(up.thumbnailUrl, undefined);
    let body: FileInfo | undefined;
    for (let i = 0; i < 100; i += 1) {
      const res = await info(up.id);
      assert.equal(res.status, 200);
      body = res.body;
      // The info is never ahead of the thumbnail: once it names one, it is served.
      const thumb = await fetch(`${api.base}/api/files/${up.id}/thumbnail`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      if (body.thumbnailUrl) {
        assert.equal(thumb.status, 200);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(body, { ...up, thumbnailUrl: `/api/files/${up.id}/thumbnail` });
    const thumb = await fetch(`${api.base}${body!.thumbnailUrl!}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/webp');

    // The undecodable image never gets one.
    const still = await info(broken.id);
    assert.equal(still.status, 200);
    assert.equal('thumbnailUrl' in still.body, false);
    assert.equal(
      (
        await fetch(`${api.base}/api/files/${broken.id}/thumbnail`, {
          headers: { authorization: `Bearer ${owner.token}` },
        })
      ).status,
      404,
    );
  });
});
