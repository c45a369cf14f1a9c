import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { mentionToken } from '../src/source/mention-token.ts';
import type { ImportSource, SourceMessage } from '../src/source/types.ts';
import { openDiscordExport } from '../src/sources/discord/index.ts';
import { all } from './collect.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/discord/', import.meta.url));
const GENERAL_JSON = 'Garden Club - Text Channels - general [700000000000000001].json';

const ALICE = '110000000000000001';
const BOB = '110000000000000002';
const CAROL = '110000000000000003';
const HELPER = '110000000000000005';
const GONE = '456226577798135808';
const GUILD = '900000000000000001';
const GENERAL = '700000000000000001';
const PLANS = '700000000000000002';
const DM = '300000000000000001';
const GROUP_DM = '300000000000000002';

async function bytes(stream: Readable | undefined): Promise<Buffer> {
  assert.ok(stream, 'the export holds the file');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A message without its files' open functions, for deepEqual. */
const plain = (m: SourceMessage): Omit<SourceMessage, 'files'> & { files: Array<{ key: string; name: string }> } => ({
  ...m,
  files: m.files.map(({ key, name }) => ({ key, name })),
});

function exportFile(guild: object, channel: object, messages: object[]): string {
  return JSON.stringify({ guild, channel, messages, messageCount: messages.length }, null, 2);
}

function message(id: string, author: string, content: string, extra: object = {}): object {
  return {
    id,
    type: 'Default',
    timestamp: `2024-04-0${id.slice(-1)}T12:00:00+00:00`,
    timestampEdited: null,
    isPinned: false,
    content,
    author: { id: author, name: `user${author}`, discriminator: '0000', nickname: null, isBot: false },
    attachments: [],
    reactions: [],
    mentions: [],
    ...extra,
  };
}

describe('the Discord reader on a test export of a small server', () => {
  let source: ImportSource;
  before(async () => {
    source = await openDiscordExport(FIXTURE);
  });
  after(() => source.close());

  it('makes one group of the server, named after it, the server id as origin', async () => {
    assert.equal(source.kind, 'discord');
    assert.equal(source.origin, GUILD);
    assert.deepEqual(await all(source.groups()), [{ key: GUILD, name: 'Garden Club' }]);
  });

  it('makes public panels of text channels and DMs of direct conversations; the thread is no panel', async () => {
    assert.deepEqual(await all(source.channels()), [
      // Only alice wrote there: the others are known by the names the conversation is named after.
      { key: GROUP_DM, kind: 'dm', name: 'Bobby, carol', memberKeys: [ALICE, BOB, CAROL] },
      { key: DM, kind: 'dm', name: 'bob', memberKeys: [ALICE, BOB] },
      {
        key: GENERAL,
        groupKey: GUILD,
        kind: 'public',
        name: 'general',
        topic: 'Everything about the garden',
        memberKeys: [ALICE, BOB, HELPER, CAROL, GONE],
      },
      { key: PLANS, groupKey: GUILD, kind: 'public', name: 'plans', memberKeys: [CAROL, ALICE] },
    ]);
  });

  it('knows every author, mentioned and reacting person: name, shown name, bot, deleted', async () => {
    assert.deepEqual(await all(source.users()), [
      { key: ALICE, username: 'alice', displayName: 'Alice A.' },
      { key: BOB, username: 'bob', displayName: 'Bobby' },
      { key: CAROL, username: 'carol' },
      { key: HELPER, username: 'Helper', bot: true },
      { key: GONE, username: 'Deleted User 1f2e3d4c', displayName: 'Deleted User', deleted: true },
    ]);
  });

  it('yields the written messages with their times, edits, pins, replies, mentions, reactions and files', async () => {
    const messages = await all(source.messages());
    assert.deepEqual(messages.map(plain), [
      {
        key: '800000000000000401',
        channelKey: GROUP_DM,
        authorKey: ALICE,
        createdAt: new Date('2024-03-04T18:30:00Z'),
        text: 'Seed swap on Saturday?',
        reactions: [],
        files: [],
      },
      {
        key: '800000000000000301',
        channelKey: DM,
        authorKey: ALICE,
        createdAt: new Date('2024-03-03T08:00:00Z'),
        text: 'Can you feed the cat?',
        reactions: [],
        files: [],
      },
      {
        key: '800000000000000303',
        channelKey: DM,
        authorKey: BOB,
        createdAt: new Date('2024-03-03T08:02:00Z'),
        text: 'Sure',
        reactions: [],
        files: [],
      },
      {
        key: '800000000000000001',
        channelKey: GENERAL,
        authorKey: ALICE,
        createdAt: new Date('2024-03-01T09:00:00.123Z'),
        editedAt: new Date('2024-03-01T09:05:00Z'),
        text: `Hello ${mentionToken(BOB)} and @all, plans are in #plans :seedparty:`,
        reactions: [
          { emoji: '👍', userKeys: [BOB, CAROL] },
          { emoji: 'seedparty', userKeys: [ALICE] },
          { emoji: 'ghost_dance', userKeys: [BOB] },
        ],
        pinned: true,
        files: [],
      },
      {
        key: '800000000000000003',
        channelKey: GENERAL,
        authorKey: BOB,
        createdAt: new Date('2024-03-01T09:02:00Z'),
        text: `Thanks ${mentionToken(ALICE)}! Photos attached, @here`,
        replyToKey: '800000000000000001',
        reactions: [],
        files: [{ key: '810000000000000001', name: 'seedlings.png' }],
      },
      {
        key: '800000000000000004',
        channelKey: GENERAL,
        authorKey: HELPER,
        createdAt: new Date('2024-03-01T09:03:00Z'),
        text: 'Reminder: water the :spin: tomatoes 2024-03-01T11:00:00Z',
        reactions: [],
        files: [],
      },
      {
        key: '800000000000000201',
        channelKey: PLANS,
        authorKey: CAROL,
        createdAt: new Date('2024-03-02T09:00:00Z'),
        text: 'Spring plan: beans, peas, kale',
        reactions: [],
        files: [],
      },
      {
        key: '800000000000000202',
        channelKey: PLANS,
        authorKey: ALICE,
        createdAt: new Date('2024-03-02T09:30:00Z'),
        text: 'Add :ghost_dance: squash',
        reactions: [],
        files: [],
      },
      // The thread's messages: replies in its parent channel, under the message it was started from.
      {
        key: '800000000000000102',
        channelKey: GENERAL,
        authorKey: CAROL,
        createdAt: new Date('2024-03-01T09:07:00Z'),
        text: 'Mondays and Thursdays?',
        threadRootKey: '800000000000000001',
        reactions: [],
        files: [],
      },
      {
        key: '800000000000000103',
        channelKey: GENERAL,
        authorKey: GONE,
        createdAt: new Date('2024-03-01T09:08:00Z'),
        text: 'Thursday works',
        threadRootKey: '800000000000000001',
        replyToKey: '800000000000000102',
        reactions: [],
        files: [],
      },
    ]);
  });

  it('reads an attached file from beside the JSON file', async () => {
    const [reply] = (await all(source.messages())).filter((m) => m.key === '800000000000000003');
    const png = await bytes(await reply!.files[0]!.open());
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  });

  it('yields the custom emoji whose image the export holds, and only those', async () => {
    const emoji = await all(source.emoji());
    assert.deepEqual(
      emoji.map((e) => e.name),
      ['seedparty'],
    );
    const png = await bytes(await emoji[0]!.open());
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  });

  it('counts what it passed over, by reason, once however often the messages are read', async () => {
    await all(source.messages());
    assert.deepEqual(source.skipped.toJSON(), {
      // A member joined, a pin notice, "started a thread", the thread's starter stub, a call.
      'system message': 5,
      'reaction without the people who reacted': 1,
      'file only linked, its media not exported': 1,
      'file missing from the export': 1,
    });
  });

  it('yields the same messages in the same order on every read', async () => {
    const first = (await all(source.messages())).map(plain);
    const second = (await all(source.messages())).map(plain);
    assert.deepEqual(second, first);
  });
});

describe('the Discord reader on messy and partial exports', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'discord-reader-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads one JSON file given on its own, with its media beside it', async () => {
    const copy = join(dir, 'single');
    await cp(FIXTURE, copy, { recursive: true });
    const source = await openDiscordExport(join(copy, GENERAL_JSON));
    try {
      assert.deepEqual(
        (await all(source.channels())).map((c) => c.key),
        [GENERAL],
      );
      const messages = await all(source.messages());
      assert.deepEqual(
        messages.map((m) => m.key),
        ['800000000000000001', '800000000000000003', '800000000000000004'],
      );
      // The other channel's name is unknown to this file alone.
      assert.match(messages[0]!.text, /plans are in #deleted-channel/);
      assert.equal((await bytes(await messages[1]!.files[0]!.open())).length > 0, true);
      assert.deepEqual(
        (await all(source.emoji())).map((e) => e.name),
        ['seedparty'],
      );
    } finally {
      await source.close();
    }
  });

  it('reads the same export zipped, its media included', async () => {
    const zipPath = join(dir, 'export.zip');
    const zip = new yazl.ZipFile();
    for (const entry of await readdir(FIXTURE, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) {
        const path = join(entry.parentPath, entry.name);
        zip.addFile(path, relative(FIXTURE, path).split(sep).join('/'));
      }
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(zipPath));
    const [zipped, folder] = await Promise.all([openDiscordExport(zipPath), openDiscordExport(FIXTURE)]);
    try {
      assert.deepEqual((await all(zipped.messages())).map(plain), (await all(folder.messages())).map(plain));
      assert.deepEqual(await all(zipped.channels()), await all(folder.channels()));
      assert.deepEqual(zipped.skipped.toJSON(), folder.skipped.toJSON());
      const reply = (await all(zipped.messages())).find((m) => m.key === '800000000000000003');
      assert.ok((await bytes(await reply!.files[0]!.open())).length > 0);
    } finally {
      await Promise.all([zipped.close(), folder.close()]);
    }
  });

  it('makes a panel of a forum whose posts were exported without it: each post is a root, its messages replies', async () => {
    const folder = join(dir, 'forum');
    await cp(FIXTURE, folder, { recursive: true, filter: (src) => !src.endsWith('.json') });
    const guild = { id: '42', name: 'Forum server' };
    const post = (id: string, name: string): object => ({
      id,
      type: 'GuildPublicThread',
      categoryId: '4200',
      category: 'help-forum',
      name,
    });
    await writeFile(
      join(folder, 'help-forum - First post [4201].json'),
      exportFile(guild, post('4201', 'First post'), [
        message('4211', '7', 'How do I prune?'),
        message('4212', '8', 'Like this'),
      ]),
    );
    await writeFile(
      join(folder, 'help-forum - Second post [4202].json'),
      exportFile(guild, post('4202', 'Second post'), [message('4223', '8', 'When to sow?')]),
    );
    // The first post exported again later, overlapping: read first (name order), yet its oldest message stays the root.
    await writeFile(
      join(folder, 'help-forum - First post (later) [4201].json'),
      exportFile(guild, post('4201', 'First post'), [
        message('4212', '8', 'Like this'),
        message('4213', '7', 'Thanks'),
      ]),
    );
    const source = await openDiscordExport(folder);
    try {
      assert.deepEqual(await all(source.channels()), [
        { key: '4200', groupKey: '42', kind: 'public', name: 'help-forum', memberKeys: ['8', '7'] },
      ]);
      assert.deepEqual(
        (await all(source.messages())).map((m) => [m.key, m.channelKey, m.threadRootKey]),
        [
          ['4212', '4200', '4211'],
          ['4213', '4200', '4211'],
          ['4211', '4200', undefined],
          ['4223', '4200', undefined],
        ],
      );
      assert.deepEqual(source.skipped.toJSON(), { 'message in two files of one channel (overlapping exports)': 1 });
    } finally {
      await source.close();
    }
  });

  it('tells apart people who share a pre-2023 username by their discriminator', async () => {
    const folder = join(dir, 'legacy');
    await mkdir(folder);
    const by = (id: string, name: string, discriminator: string): object => ({
      author: { id, name, discriminator, nickname: null, isBot: false },
    });
    await writeFile(
      join(folder, 'old [4400].json'),
      exportFile({ id: '44', name: 'Old server' }, { id: '4400', type: 'GuildTextChat', name: 'old' }, [
        message('4401', '1', 'hi', by('1', 'ann', '1234')),
        message('4402', '2', 'hello', by('2', 'ann', '5678')),
        message('4403', '3', 'hey', by('3', 'bea', '0000')),
      ]),
    );
    const source = await openDiscordExport(folder);
    try {
      assert.deepEqual(
        (await all(source.users())).map((u) => u.username),
        ['ann1234', 'ann5678', 'bea'],
      );
    } finally {
      await source.close();
    }
  });

  it('reads two overlapping exports of one channel, each message once', async () => {
    const folder = join(dir, 'overlap');
    await mkdir(folder);
    const guild = { id: '45', name: 'Twice' };
    const channel = { id: '4500', type: 'GuildTextChat', name: 'chat' };
    const ids = (list: string[]) => list.map((id) => message(id, '7', `m${id}`));
    await writeFile(join(folder, 'chat until March.json'), exportFile(guild, channel, ids(['4501', '4502', '4503'])));
    await writeFile(
      join(folder, 'chat since February.json'),
      exportFile(guild, channel, ids(['4502', '4503', '4504'])),
    );
    const source = await openDiscordExport(folder);
    try {
      const keys = (await all(source.messages())).map((m) => m.key);
      // Files are read in name order: "since February" first.
      assert.deepEqual(keys, ['4502', '4503', '4504', '4501']);
      assert.deepEqual(
        (await all(source.messages())).map((m) => m.key),
        keys,
      );
      assert.deepEqual(source.skipped.toJSON(), { 'message in two files of one channel (overlapping exports)': 2 });
    } finally {
      await source.close();
    }
  });

  it('passes over files that are not exports, reads a cut-short file up to the damage, and skips incomplete messages', async () => {
    const folder = join(dir, 'messy');
    await cp(FIXTURE, folder, { recursive: true, filter: (src) => !src.endsWith('.json') });
    const guild = { id: '43', name: 'Messy server' };
    const channel = { id: '4300', type: 'GuildTextChat', name: 'chat' };
    const whole = exportFile(guild, channel, [
      message('4301', '7', 'first'),
      { ...(message('4302', '7', 'no time') as Record<string, unknown>), timestamp: 'yesterday' },
      { id: '4303', type: 'Default', content: 'no author', timestamp: '2024-04-03T00:00:00Z' },
      message('4304', '8', 'fourth'),
      message('4305', '8', 'lost in the cut'),
    ]);
    await writeFile(join(folder, 'chat [4300].json'), whole.slice(0, whole.indexOf('lost in the cut')));
    await writeFile(join(folder, 'notes.json'), JSON.stringify({ hello: 'world' }));
    await writeFile(join(folder, 'broken.json'), '{"guild": {');
    const source = await openDiscordExport(folder);
    try {
      const first = (await all(source.messages())).map((m) => m.key);
      assert.deepEqual(first, ['4301', '4304']);
      assert.deepEqual(
        (await all(source.messages())).map((m) => m.key),
        first,
      );
      assert.deepEqual(source.skipped.toJSON(), {
        'file that is not a DiscordChatExporter export': 2,
        'message without its id, time or author': 2,
        'file cut short or broken (read up to the damage)': 1,
      });
    } finally {
      await source.close();
    }
  });
});
