import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ImArchiveError, openImArchive } from '../src/archive/index.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  converseFilePath,
  type ArchiveGroup,
  type ArchiveManifest,
  type ArchiveMessage,
} from '../src/archive/format.ts';
import { ArchiveZip } from '../src/export/archive-zip.ts';
import type { SourceMessage } from '../src/source/types.ts';
import { all } from './collect.ts';

const id = (n: number) => n.toString(16).padStart(24, '0');
const [OWNER, ADMIN, MEMBER, HELPER] = [id(1), id(2), id(3), id(4)];
const GROUP = id(10);
const [GENERAL, SECRET, VOICE, GONE] = [id(20), id(21), id(22), id(23)];
const ROLE = id(30);

const group: ArchiveGroup = {
  id: GROUP,
  name: 'Readers',
  description: 'Read it back',
  ownerId: OWNER,
  createdAt: '2026-01-01T00:00:00.000Z',
  panels: [
    { id: id(40), name: 'general', type: 'text', converseId: GENERAL },
    {
      id: id(41),
      name: 'secret',
      type: 'text',
      converseId: SECRET,
      private: true,
      allowUserIds: [MEMBER],
      allowRoleIds: [ROLE],
    },
    { id: id(42), name: 'talk', type: 'voice', converseId: VOICE },
    { id: id(43), name: 'lost', type: 'text', converseId: GONE },
  ],
  roles: [{ id: ROLE, name: 'helpers', permissions: [], position: 1 }],
  members: [
    { userId: OWNER, role: 'owner', joinedAt: '2026-01-01T00:00:00.000Z' },
    { userId: ADMIN, role: 'admin', joinedAt: '2026-01-01T00:00:00.000Z' },
    { userId: MEMBER, role: 'member', joinedAt: '2026-01-01T00:00:00.000Z' },
    { userId: HELPER, role: 'member', roleIds: [ROLE], joinedAt: '2026-01-01T00:00:00.000Z' },
  ],
  emoji: [{ name: 'blob_wave', path: 'emoji/blob_wave.png' }],
};

const message = (n: number, fields: Partial<ArchiveMessage>): ArchiveMessage => ({
  id: id(100 + n),
  seq: n,
  authorId: OWNER,
  createdAt: new Date(Date.UTC(2026, 0, 2, 0, n)).toISOString(),
  text: `message ${n}`,
  reactions: [],
  attachments: [],
  ...fields,
});

const general: ArchiveMessage[] = [
  message(1, {
    text: `hi @member and @Member. but not @memberx; :blob_wave:`,
    mentions: [MEMBER],
    reactions: [
      { emoji: '🎉', userIds: [MEMBER, ADMIN] },
      { emoji: ':blob_wave:', userIds: [OWNER] },
    ],
    pinned: true,
    editedAt: '2026-01-03T00:00:00.000Z',
  }),
  message(2, { authorId: MEMBER, threadId: id(101), text: 'in the thread' }),
  message(3, {
    authorId: ADMIN,
    replyTo: id(101),
    attachments: [{ id: id(200), name: 'plan.txt', path: `files/${id(200)}/plan.txt` }],
  }),
];

interface ArchiveOptions {
  kind?: 'group' | 'personal';
  version?: number;
}

async function writeArchive(file: string, options: ArchiveOptions = {}): Promise<void> {
  const zip = new ArchiveZip(file);
  const converses: ArchiveManifest['converses'] = [];
  for (const [converseId, messages] of [
    [GENERAL, general],
    [SECRET, [message(4, { authorId: HELPER, text: 'helpers only' })]],
  ] as const) {
    const out = zip.jsonArray(converseFilePath(converseId));
    for (const m of messages) await out.write(m);
    converses.push({ id: converseId, path: converseFilePath(converseId), kind: 'panel', messages: await out.end() });
  }
  // Listed, but its file never made it into the archive.
  converses.push({ id: GONE, path: converseFilePath(GONE), kind: 'panel', messages: 7 });
  zip.addJson('group.json', group);
  const users = zip.jsonArray('users.json');
  await users.write({ id: OWNER, username: 'owner', nickname: 'The Owner' });
  await users.write({ id: ADMIN, username: 'admin', nickname: 'Admin' });
  await users.write({ id: MEMBER, username: 'member', nickname: 'Member' });
  await users.write({ id: HELPER, username: `deleted-${HELPER}`, nickname: 'Gone', deleted: true });
  await users.end();
  zip.addLazy(`files/${id(200)}/plan.txt`, 9, async () => Readable.from([Buffer.from('the plan\n')]));
  zip.addLazy('emoji/blob_wave.png', 3, async () => Readable.from([Buffer.from('png')]));
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: options.version ?? ARCHIVE_VERSION,
    kind: options.kind ?? 'group',
    exportedAt: '2026-02-01T00:00:00.000Z',
    server: 'https://chat.example.org',
    groupId: GROUP,
    converses,
    counts: { users: 4, converses: 3, messages: 4, files: 1, emoji: 1 },
  };
  zip.addJson('manifest.json', manifest);
  await zip.finish();
}

async function text(open: () => Promise<Readable | undefined>): Promise<string | undefined> {
  const stream = await open();
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('the im archive reader', () => {
  let dir: string;
  let archive: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'im-archive-'));
    archive = join(dir, 'group.zip');
    await writeArchive(archive);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads the group, its users and its text panels (a private one for those who could see it)', async () => {
    const source = await openImArchive(archive);
    try {
      assert.equal(source.kind, 'im');
      assert.equal(source.origin, `https://chat.example.org/${GROUP}`);
      assert.deepEqual(await all(source.groups()), [{ key: GROUP, name: 'Readers', description: 'Read it back' }]);
      const users = await all(source.users());
      assert.deepEqual(
        users.map((u) => [u.key, u.username, u.displayName, u.deleted ?? false]),
        [
          [OWNER, 'owner', 'The Owner', false],
          [ADMIN, 'admin', 'Admin', false],
          [MEMBER, 'member', 'Member', false],
          [HELPER, `deleted-${HELPER}`, 'Gone', true],
        ],
      );
      const channels = await all(source.channels());
      assert.deepEqual(
        channels.map((c) => [c.key, c.kind, c.name, [...c.memberKeys].sort()]),
        [
          [GENERAL, 'public', 'general', [OWNER, ADMIN, MEMBER, HELPER].sort()],
          // The owner and admins, the people allowed, the holders of the roles allowed.
          [SECRET, 'private', 'secret', [OWNER, ADMIN, MEMBER, HELPER].sort()],
          [GONE, 'public', 'lost', [OWNER, ADMIN, MEMBER, HELPER].sort()],
        ],
      );
      assert.equal(channels.find((c) => c.key === SECRET)?.groupKey, GROUP);
      assert.deepEqual(
        (await all(source.emoji())).map((e) => e.name),
        ['blob_wave'],
      );
      assert.equal(await text((await all(source.emoji()))[0]!.open), 'png');
    } finally {
      await source.close();
    }
  });

  it('streams the messages in order with mentions, threads, replies, reactions, pins and files, the same on every pass', async () => {
    const source = await openImArchive(archive);
    try {
      const first = await all(source.messages());
      const again = await all(source.messages());
      const shape = (ms: SourceMessage[]) => ms.map((m) => [m.key, m.channelKey, m.authorKey]);
      assert.deepEqual(shape(first), [
        [id(101), GENERAL, OWNER],
        [id(102), GENERAL, MEMBER],
        [id(103), GENERAL, ADMIN],
        [id(104), SECRET, HELPER],
      ]);
      assert.deepEqual(shape(again), shape(first));

      const [root, reply, quoting] = first;
      // Both spellings of the mentioned person become their token; a longer name is someone else.
      assert.equal(
        root!.text,
        `hi \u{E000}${MEMBER}\u{E001} and \u{E000}${MEMBER}\u{E001}. but not @memberx; :blob_wave:`,
      );
      assert.equal(root!.createdAt.toISOString(), '2026-01-02T00:01:00.000Z');
      assert.equal(root!.editedAt?.toISOString(), '2026-01-03T00:00:00.000Z');
      assert.equal(root!.pinned, true);
      assert.deepEqual(root!.reactions, [
        { emoji: '🎉', userKeys: [MEMBER, ADMIN] },
        { emoji: 'blob_wave', userKeys: [OWNER] },
      ]);
      assert.equal(reply!.threadRootKey, id(101));
      assert.equal(quoting!.replyToKey, id(101));
      assert.deepEqual(
        quoting!.files.map((f) => [f.key, f.name]),
        [[id(200), 'plan.txt']],
      );
      assert.equal(await text(quoting!.files[0]!.open), 'the plan\n');

      // Passed over, with reasons: the voice panel; the listed converse whose file is missing.
      assert.deepEqual(source.skipped.toJSON(), {
        'converse file missing from the archive': 7,
        'voice panel': 1,
      });
    } finally {
      await source.close();
    }
  });

  it('refuses a personal archive, a newer format, and a file that is no archive of this platform, with clear errors', async () => {
    const personal = join(dir, 'personal.zip');
    await writeArchive(personal, { kind: 'personal' });
    await assert.rejects(openImArchive(personal), (err: Error) => {
      assert.ok(err instanceof ImArchiveError);
      assert.match(err.message, /personal export/);
      return true;
    });
    const newer = join(dir, 'newer.zip');
    await writeArchive(newer, { version: ARCHIVE_VERSION + 1 });
    await assert.rejects(openImArchive(newer), /newer than this server reads/);
    const other = join(dir, 'other.zip');
    const zip = new ArchiveZip(other);
    zip.addJson('manifest.json', { format: 'something-else' });
    await zip.finish();
    await assert.rejects(openImArchive(other), /not an export archive of this platform/);
    // A folder with no manifest at all.
    await assert.rejects(openImArchive(dir), ImArchiveError);
  });
});
