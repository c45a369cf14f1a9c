import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Types } from 'mongoose';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CustomEmoji, ExportAccepted, ExportJob, Group, Message, Panel, ThreadSummary } from '@im/protocol';
import {
  announceImport,
  EXPORT_STALE_MS,
  exportModels,
  failStaleExports,
  ImArchiveError,
  openExportFiles,
  openImArchive,
  readJson,
  runImport,
  type ExportFiles,
} from '@im/service-import';
import sharp from 'sharp';
import { eventually, expectations, startApi, uploadAs, type ApiHarness } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

interface ArchiveMessage {
  id: string;
  seq: number;
  authorId: string;
  createdAt: string;
  text: string;
  mentions?: string[];
  threadId?: string;
  reactions: Array<{ emoji: string; userIds: string[] }>;
  pinned?: true;
  attachments: Array<{ id: string; name: string; path: string }>;
}

async function bytesOf(files: ExportFiles, name: string): Promise<Buffer> {
  const stream = await files.open(name);
  assert.ok(stream, `${name} is in the archive`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('group and personal exports', () => {
  let api: ApiHarness;
  let owner: User;
  let member: User;
  let outsider: User;
  let admin: User;
  let group: Group;
  let general: string;
  let staff: Panel;
  let scratch: string;
  const { ok, refused } = expectations(() => api);
  const sent: Record<string, Message> = {};
  const note = Buffer.from('minutes of the meeting\n');
  let emojiImage: Buffer;

  const send = (user: User, converseId: string, body: Record<string, unknown>) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, user, body, 201);

  /** Asks for an export as `user`, waits until it is no longer running, downloads it; answers the opened zip. */
  const exportAndDownload = async (user: User, path: string): Promise<{ job: ExportJob; files: ExportFiles }> => {
    const accepted = await ok<ExportAccepted>('POST', path, user, undefined, 202);
    const job = await eventually(
      () => ok<ExportJob>('GET', `/api/exports/${accepted.id}`, user),
      (j) => j.status !== 'running',
      60_000,
    );
    assert.equal(job.status, 'done', JSON.stringify(job));
    assert.ok(job.url?.startsWith(`/api/exports/${accepted.id}/archive?`));
    // A browser opens it: no token.
    const res = await fetch(api.base + job.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename=".+\.zip"$/);
    const file = join(scratch, `${accepted.id}.zip`);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return { job, files: await openExportFiles(file) };
  };

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'export-test-'));
    api = await startApi(import.meta.url, { ADMIN_USERNAMES: 'exportadmin' });
    [owner, member, outsider] = await Promise.all([api.user('exo'), api.user('exm'), api.user('exx')]);
    const registered = await api.request<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
      body: { username: 'exportadmin', password: 'correct horse battery' },
    });
    assert.equal(registered.status, 201);
    admin = { token: registered.body.token, id: registered.body.user.id, username: 'exportadmin' };

    group = await ok<Group>('POST', '/api/groups', owner, { name: 'Archive club' }, 201);
    await ok('PATCH', `/api/groups/${group.id}`, owner, { description: 'We keep it all' });
    general = group.panels[0]!.converseId;
    const invite = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, member);
    staff = await ok<Panel>(
      'POST',
      `/api/groups/${group.id}/panels`,
      owner,
      { name: 'staff', type: 'text', private: true, allowUserIds: [member.id] },
      201,
    );

    sent.hello = await send(owner, general, { content: `hello @${member.username}` });
    sent.reply = await send(member, general, { content: 'a reply in the thread', threadId: sent.hello.id });
    const file = await uploadAs(api, owner.token, note, 'minutes.txt');
    sent.withFile = await send(owner, general, { content: 'the minutes', attachments: [file.id] });
    sent.secret = await send(member, staff.converseId, { content: 'staff only' });
    await ok('PUT', `/api/messages/${sent.hello.id}/reactions/${encodeURIComponent('👍')}`, member);
    await ok('PUT', `/api/messages/${sent.hello.id}/pin`, owner);

    emojiImage = await sharp({
      create: { width: 16, height: 16, channels: 4, background: { r: 250, g: 80, b: 20, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('name', 'party_parrot');
    form.append('file', new Blob([new Uint8Array(emojiImage)], { type: 'image/png' }), 'parrot.png');
    const picture = await uploadAs(api, owner.token, emojiImage, 'me.png');
    await ok('PATCH', '/api/users/me', owner, { avatar: `/api/files/${picture.id}` });
    const emoji = await fetch(`${api.base}/api/groups/${group.id}/emoji`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
      body: form,
    });
    assert.equal(emoji.status, 201);
  });
  after(async () => {
    await api.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("refuses a group's other members (403) and everyone else (404), and shows a job only to its asker", async () => {
    await refused('POST', `/api/groups/${group.id}/export`, member, 403, 'IM_ERR_FORBIDDEN');
    await refused('POST', `/api/groups/${group.id}/export`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', `/api/groups/${'0'.repeat(24)}/export`, admin, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', '/api/groups/not-an-id/export', owner, 400, 'IM_ERR_VALIDATION');
    const mine = await ok<ExportAccepted>('POST', `/api/groups/${group.id}/export`, owner, undefined, 202);
    await refused('GET', `/api/exports/${mine.id}`, member, 404, 'IM_ERR_NOT_FOUND');
    await refused('GET', `/api/exports/${mine.id}`, outsider, 404, 'IM_ERR_NOT_FOUND');
    // The archive's address without its signature, or with a wrong one, gives nothing.
    assert.equal((await fetch(`${api.base}/api/exports/${mine.id}/archive`)).status, 400);
    const forged = await fetch(`${api.base}/api/exports/${mine.id}/archive?exp=9999999999&sig=${'A'.repeat(43)}`);
    assert.equal(forged.status, 401);
  });

  it("writes the owner's group archive: panels, messages in order, thread, reaction, pin, files, emoji", async () => {
    const { job, files } = await exportAndDownload(owner, `/api/groups/${group.id}/export`);
    try {
      assert.equal(job.kind, 'group');
      const manifest = await readJson<{
        format: string;
        version: number;
        kind: string;
        groupId: string;
        converses: Array<{ id: string; path: string; messages: number }>;
      }>(files, 'manifest.json');
      assert.equal(manifest?.format, 'im-export');
      assert.equal(manifest.kind, 'group');
      assert.equal(manifest.groupId, group.id);

      const archived = await readJson<{
        name: string;
        description: string;
        panels: Array<{ name: string; converseId: string; private?: true; allowUserIds?: string[] }>;
        members: Array<{ userId: string; role: string }>;
        emoji: Array<{ name: string; path: string }>;
      }>(files, 'group.json');
      assert.equal(archived?.name, 'Archive club');
      assert.equal(archived.description, 'We keep it all');
      const staffPanel = archived.panels.find((p) => p.name === 'staff');
      assert.deepEqual(staffPanel && { private: staffPanel.private, allow: staffPanel.allowUserIds }, {
        private: true,
        allow: [member.id],
      });
      assert.deepEqual(
        archived.members.map((m) => [m.userId, m.role]).sort(),
        [
          [owner.id, 'owner'],
          [member.id, 'member'],
        ].sort(),
      );
      assert.deepEqual(archived.emoji, [{ name: 'party_parrot', path: 'emoji/party_parrot.png' }]);
      assert.deepEqual(await bytesOf(files, 'emoji/party_parrot.png'), emojiImage);

      const messages = await readJson<ArchiveMessage[]>(files, `converses/${general}.json`);
      assert.deepEqual(
        messages?.map((m) => [m.id, m.authorId, m.text]),
        [
          [sent.hello!.id, owner.id, `hello @${member.username}`],
          [sent.reply!.id, member.id, 'a reply in the thread'],
          [sent.withFile!.id, owner.id, 'the minutes'],
        ],
      );
      const [hello, reply, withFile] = messages;
      assert.ok(hello!.seq < reply!.seq && reply!.seq < withFile!.seq);
      assert.equal(hello!.createdAt, sent.hello!.createdAt);
      assert.deepEqual(hello!.mentions, [member.id]);
      assert.deepEqual(hello!.reactions, [{ emoji: '👍', userIds: [member.id] }]);
      assert.equal(hello!.pinned, true);
      assert.equal(reply!.threadId, hello!.id);
      assert.equal(withFile!.attachments.length, 1);
      assert.equal(withFile!.attachments[0]!.name, 'minutes.txt');
      assert.deepEqual(await bytesOf(files, withFile!.attachments[0]!.path), note);
      const secret = await readJson<ArchiveMessage[]>(files, `converses/${staff.converseId}.json`);
      assert.deepEqual(
        secret?.map((m) => m.text),
        ['staff only'],
      );

      const users = await readJson<Array<{ id: string; username: string; email?: string; avatar?: string }>>(
        files,
        'users.json',
      );
      assert.deepEqual(users?.map((u) => u.id).sort(), [owner.id, member.id].sort());
      const ownerEntry = users.find((u) => u.id === owner.id);
      assert.equal(ownerEntry?.avatar, `avatars/${owner.id}.png`);
      assert.deepEqual(await bytesOf(files, ownerEntry.avatar), emojiImage);
      assert.equal(users.find((u) => u.id === member.id)?.avatar, undefined);
      assert.ok(
        users.every((u) => u.email === undefined),
        'a group export carries no e-mail addresses',
      );
    } finally {
      await files.close();
    }
  });

  it('reads the archive back as an import source: the group, its panels (private ones for their people), messages, files', async () => {
    const { job } = await exportAndDownload(admin, `/api/groups/${group.id}/export`);
    const source = await openImArchive(join(scratch, `${job.id}.zip`));
    try {
      assert.equal(source.kind, 'im');
      assert.match(source.origin, new RegExp(`/${group.id}$`));
      const groups = [];
      for await (const g of source.groups()) groups.push(g);
      assert.deepEqual(groups, [{ key: group.id, name: 'Archive club', description: 'We keep it all' }]);
      const channels = [];
      for await (const c of source.channels()) channels.push(c);
      const byName = new Map(channels.map((c) => [c.name, c]));
      assert.equal(byName.get('staff')?.kind, 'private');
      assert.deepEqual(byName.get('staff')?.memberKeys.sort(), [owner.id, member.id].sort());
      assert.equal(byName.get(group.panels[0]!.name)?.kind, 'public');

      const messages = [];
      for await (const m of source.messages()) messages.push(m);
      const hello = messages.find((m) => m.key === sent.hello!.id);
      assert.equal(hello?.text, `hello \u{E000}${member.id}\u{E001}`);
      assert.equal(hello.pinned, true);
      assert.deepEqual(hello.reactions, [{ emoji: '👍', userKeys: [member.id] }]);
      assert.equal(messages.find((m) => m.key === sent.reply!.id)?.threadRootKey, hello.key);
      const withFile = messages.find((m) => m.key === sent.withFile!.id);
      const stream = await withFile?.files[0]?.open();
      assert.ok(stream);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      assert.deepEqual(Buffer.concat(chunks), note);

      const users = [];
      for await (const u of source.users()) users.push(u.key);
      assert.deepEqual(users.sort(), [owner.id, member.id].sort());
      const emoji = [];
      for await (const e of source.emoji()) emoji.push(e.name);
      assert.deepEqual(emoji, ['party_parrot']);
    } finally {
      await source.close();
    }
  });

  it("writes a person's own data: profile, their DMs, their own messages in panels, their files", async () => {
    const dm = await ok<{ id: string }>('POST', '/api/dms', member, { userId: owner.id });
    const fromOwner = await send(owner, dm.id, { content: 'just between us' });
    const fromMember = await send(member, dm.id, { content: 'indeed' });
    const upload = await uploadAs(api, member.token, Buffer.from('my own notes'), 'mine.txt');

    const { job, files } = await exportAndDownload(member, '/api/users/me/export');
    try {
      assert.equal(job.kind, 'personal');
      const manifest = await readJson<{
        kind: string;
        userId: string;
        converses: Array<{ id: string; kind: string; onlyOwnMessages?: true }>;
      }>(files, 'manifest.json');
      assert.equal(manifest?.kind, 'personal');
      assert.equal(manifest.userId, member.id);
      assert.equal(manifest.converses.find((c) => c.id === dm.id)?.kind, 'dm');

      const dmMessages = await readJson<ArchiveMessage[]>(files, `converses/${dm.id}.json`);
      assert.deepEqual(
        dmMessages?.map((m) => m.id),
        [fromOwner.id, fromMember.id],
      );
      const inGeneral = await readJson<ArchiveMessage[]>(files, `converses/${general}.json`);
      assert.deepEqual(
        inGeneral?.map((m) => m.id),
        [sent.reply!.id],
        'only their own messages of a group panel',
      );
      assert.ok(files.names.some((n) => n.startsWith(`files/${upload.id}/`)));
      const users = await readJson<Array<{ id: string }>>(files, 'users.json');
      assert.ok(users?.some((u) => u.id === member.id));

      // Not an archive to make a group from.
      await assert.rejects(openImArchive(join(scratch, `${job.id}.zip`)), ImArchiveError);
    } finally {
      await files.close();
    }
  });

  it('round-trips a group: its archive imported (kind im) reads back the same through the API, and again adds nothing', async () => {
    const { job } = await exportAndDownload(owner, `/api/groups/${group.id}/export`);
    const archive = join(scratch, `${job.id}.zip`);
    const db = api.node.app.mongo!.db!;
    const storage = api.node.app.storage!;
    const importOnce = async () => {
      const source = await openImArchive(archive);
      try {
        return await runImport(db, storage, source, { owner: owner.username });
      } finally {
        await source.close();
      }
    };
    const first = await importOnce();
    assert.equal(first.groupIds.length, 1);
    assert.deepEqual(
      { ...first.summary, skipped: 0 },
      { groups: 1, panels: 2, users: 0, messages: 4, replies: 1, reactions: 1, files: 2, skipped: 0 },
    );
    await announceImport(api.broker, first);

    const copyId = first.groupIds[0]!.toHexString();
    assert.notEqual(copyId, group.id);
    const copy = await ok<Group>('GET', `/api/groups/${copyId}`, owner);
    assert.equal(copy.name, 'Archive club');
    assert.equal(copy.description, 'We keep it all');
    const original = await ok<Group>('GET', `/api/groups/${group.id}`, owner);
    assert.deepEqual(
      copy.panels.map((p) => [p.name, p.private ?? false]).sort(),
      original.panels.map((p) => [p.name, p.private ?? false]).sort(),
    );
    const copyGeneral = copy.panels.find((p) => p.name === original.panels[0]!.name)!;
    const copyStaff = copy.panels.find((p) => p.name === 'staff')!;

    const history = (
      await ok<Message[]>('GET', `/api/converses/${copyGeneral.converseId}/messages?limit=50`, owner)
    ).sort((a, b) => a.seq - b.seq);
    assert.deepEqual(
      history.map((m) => [m.content, m.authorId, m.createdAt]),
      [sent.hello!, sent.reply!, sent.withFile!].map((m) => [m.content, m.authorId, m.createdAt]),
      'same texts, authors (matched to their accounts) and times, in the same order',
    );
    const [hello, reply, withFile] = history;
    assert.deepEqual(hello!.mentions, [member.id]);
    assert.ok(hello!.pinned, 'the pin came back');
    assert.deepEqual(
      hello!.reactions.map((r) => [r.emoji, r.count]),
      [['👍', 1]],
    );
    assert.equal((hello!.thread as ThreadSummary).replyCount, 1);
    assert.equal(reply!.threadId, hello!.id);
    assert.equal(withFile!.attachments.length, 1);
    const bytes = await fetch(`${api.base}/api/files/${withFile!.attachments[0]}`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    assert.equal(bytes.status, 200);
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), note);

    // The private panel: the member allowed reads it (the owner too); custom emoji came along.
    const secret = await ok<Message[]>('GET', `/api/converses/${copyStaff.converseId}/messages`, member);
    assert.deepEqual(
      secret.map((m) => [m.content, m.authorId]),
      [['staff only', member.id]],
    );
    const emoji = await ok<CustomEmoji[]>('GET', `/api/groups/${copyId}/emoji`, owner);
    assert.deepEqual(
      emoji.map((e) => e.name),
      ['party_parrot'],
    );

    const second = await importOnce();
    assert.deepEqual(
      { ...second.summary, skipped: 0 },
      { groups: 0, panels: 0, users: 0, messages: 0, replies: 0, reactions: 0, files: 0, skipped: 0 },
    );
  });

  it('fails a job whose node stopped touching it (a restart under another id), and leaves a live one running', async () => {
    const models = exportModels(api.node.app.mongo!);
    const now = Date.now();
    const job = (updatedAt: number) => ({
      _id: new Types.ObjectId(),
      kind: 'personal' as const,
      requestedBy: new Types.ObjectId(owner.id),
      status: 'running' as const,
      nodeId: 'a-node-that-stopped',
      createdAt: new Date(now - EXPORT_STALE_MS * 2),
      updatedAt: new Date(updatedAt),
    });
    const [lost, live] = [job(now - EXPORT_STALE_MS - 1000), job(now)];
    await models.exports.create([lost, live]);
    assert.equal(await failStaleExports(models, now), 1);
    const seen = await ok<ExportJob>('GET', `/api/exports/${lost._id.toHexString()}`, owner);
    assert.equal(seen.status, 'failed');
    assert.equal(seen.error?.code, 'IM_ERR_SERVICE_UNAVAILABLE');
    assert.equal(seen.url, undefined);
    const still = await ok<ExportJob>('GET', `/api/exports/${live._id.toHexString()}`, owner);
    assert.equal(still.status, 'running');
    await models.exports.deleteOne({ _id: live._id });
  });
});
