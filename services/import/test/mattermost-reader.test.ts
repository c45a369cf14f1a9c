import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { mentionToken as m } from '../src/source/mention-token.ts';
import type { ImportSource, SourceMessage } from '../src/source/types.ts';
import { openMattermostExport } from '../src/sources/mattermost/index.ts';
import { all, bytes } from './collect.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/mattermost/', import.meta.url));
const JSONL = join(FIXTURE, 'export.jsonl');
const DATA_FILES = [
  'data/20231114/teams/acme/notes.txt',
  'data/20231114/teams/acme/rules.png',
  'data/emoji/parrot/image',
];

/** A message as plain data: its files as key, name and bytes. */
async function plain(message: SourceMessage) {
  const files = [];
  for (const f of message.files) files.push({ key: f.key, name: f.name, bytes: await bytes(await f.open()) });
  return { ...message, files };
}

const fixtureFile = (name: string) => readFile(join(FIXTURE, name));

const root = 'acme/town-square|1700000100000|alice|0';
const groupRoot = 'dm:alice,bob,carol|1700000800000|carol|0';

async function expectedMessages() {
  const base = { reactions: [], files: [] };
  return [
    {
      ...base,
      key: root,
      channelKey: 'acme/town-square',
      authorKey: 'alice',
      createdAt: new Date(1700000100000),
      text: `Hello ${m('bob')} and @all! Mail bob@example.com, see \`@carol\` in code, thanks ${m('carol')}.`,
      reactions: [
        { emoji: '+1', userKeys: ['bob', 'carol'] },
        { emoji: 'party_parrot', userKeys: ['bob'] },
      ],
    },
    {
      ...base,
      key: `${root}>1700000200000|bob|0`,
      channelKey: 'acme/town-square',
      authorKey: 'bob',
      createdAt: new Date(1700000200000),
      editedAt: new Date(1700000250000),
      text: `Hi ${m('alice')}`,
      threadRootKey: root,
    },
    {
      ...base,
      key: `${root}>1700000300000|carol|0`,
      channelKey: 'acme/town-square',
      authorKey: 'carol',
      createdAt: new Date(1700000300000),
      text: '@here the notes',
      files: [
        {
          key: `${root}>1700000300000|carol|0:20231114/teams/acme/notes.txt`,
          name: 'notes.txt',
          bytes: await fixtureFile('data/20231114/teams/acme/notes.txt'),
        },
      ],
      threadRootKey: root,
    },
    {
      ...base,
      key: 'acme/town-square|1700000150000|bob|0',
      channelKey: 'acme/town-square',
      authorKey: 'bob',
      createdAt: new Date(1700000150000),
      text: 'The rules',
      pinned: true,
      files: [
        {
          key: 'acme/town-square|1700000150000|bob|0:20231114/teams/acme/rules.png',
          name: 'rules.png',
          bytes: await fixtureFile('data/20231114/teams/acme/rules.png'),
        },
      ],
    },
    {
      ...base,
      key: 'acme/town-square|1700000150000|bob|1',
      channelKey: 'acme/town-square',
      authorKey: 'bob',
      createdAt: new Date(1700000150000),
      text: 'Sent in the same millisecond',
    },
    {
      ...base,
      key: 'acme/board|1700000400000|carol|0',
      channelKey: 'acme/board',
      authorKey: 'carol',
      createdAt: new Date(1700000400000),
      editedAt: new Date(1700000450000),
      text: 'The board meets :party_parrot:',
    },
    {
      ...base,
      key: 'hobby/town-square|1690000000000|dave|0',
      channelKey: 'hobby/town-square',
      authorKey: 'dave',
      createdAt: new Date(1690000000000),
      text: 'Goodbye everyone',
    },
    {
      ...base,
      key: 'hobby/town-square|1690000100000|erin|0',
      channelKey: 'hobby/town-square',
      authorKey: 'erin',
      createdAt: new Date(1690000100000),
      text: 'Nobody lists me',
    },
    {
      ...base,
      key: 'hobby/town-square|1690000200000|helper-bot|0',
      channelKey: 'hobby/town-square',
      authorKey: 'helper-bot',
      createdAt: new Date(1690000200000),
      text: `Reminder: meet ${m('alice')} at noon`,
    },
    {
      ...base,
      key: 'dm:alice,bob|1700000700000|alice|0',
      channelKey: 'dm:alice,bob',
      authorKey: 'alice',
      createdAt: new Date(1700000700000),
      text: `Psst ${m('bob')}`,
      reactions: [{ emoji: 'heart', userKeys: ['bob'] }],
    },
    {
      ...base,
      key: groupRoot,
      channelKey: 'dm:alice,bob,carol',
      authorKey: 'carol',
      createdAt: new Date(1700000800000),
      text: 'Group plans',
    },
    {
      ...base,
      key: `${groupRoot}>1700000900000|alice|0`,
      channelKey: 'dm:alice,bob,carol',
      authorKey: 'alice',
      createdAt: new Date(1700000900000),
      text: 'Count me in',
      threadRootKey: groupRoot,
    },
    {
      ...base,
      key: 'dm:bob,dave|1700001000000|dave|0',
      channelKey: 'dm:bob,dave',
      authorKey: 'dave',
      createdAt: new Date(1700001000000),
      text: 'A DM whose channel line is missing',
    },
  ];
}

const EXPECTED_SKIPPED = {
  'permission scheme or role': 2,
  'direct messages with oneself': 2,
  'post in a channel the export does not list': 2,
  'line that is not JSON': 1,
  'line without a type': 1,
  'line of an unknown type': 1,
  'channel of a team the export does not list': 1,
  'custom emoji image missing from the export': 1,
  'system message': 1,
  'file missing from the export': 1,
};

/** Everything a reader yields, as plain data. */
async function readAll(source: ImportSource) {
  const messages = [];
  for (const message of await all(source.messages())) messages.push(await plain(message));
  const emoji = [];
  for (const e of await all(source.emoji())) emoji.push({ name: e.name, bytes: await bytes(await e.open()) });
  return {
    kind: source.kind,
    origin: source.origin,
    groups: await all(source.groups()),
    users: await all(source.users()),
    channels: await all(source.channels()),
    messages,
    emoji,
    skipped: source.skipped.toJSON(),
  };
}

async function expectedExport() {
  return {
    kind: 'mattermost',
    origin: 'acme,hobby',
    groups: [
      { key: 'acme', name: 'Acme Inc', description: 'Where Acme works' },
      { key: 'hobby', name: 'Hobby club' },
    ],
    users: [
      { key: 'alice', username: 'alice', displayName: 'Alice Archer', email: 'alice@example.com' },
      { key: 'bob', username: 'bob', displayName: 'Bobby', email: 'bob@example.com' },
      { key: 'carol', username: 'carol', displayName: 'Carol', email: 'carol@example.com' },
      { key: 'dave', username: 'dave', displayName: 'Dave Gone', email: 'dave@example.com', deleted: true },
      { key: 'helper-bot', username: 'helper-bot', displayName: 'Helper', bot: true },
    ],
    channels: [
      {
        key: 'acme/town-square',
        groupKey: 'acme',
        kind: 'public',
        name: 'Town Square',
        topic: 'Everything about Acme',
        memberKeys: ['alice', 'bob', 'carol'],
      },
      {
        key: 'acme/board',
        groupKey: 'acme',
        kind: 'private',
        name: 'Board room',
        topic: 'Only the board',
        memberKeys: ['alice', 'carol'],
      },
      {
        key: 'hobby/town-square',
        groupKey: 'hobby',
        kind: 'public',
        name: 'Hobby square',
        memberKeys: ['alice', 'dave'],
      },
      { key: 'dm:alice,bob', kind: 'dm', name: 'alice, bob', memberKeys: ['alice', 'bob'] },
      { key: 'dm:alice,bob,carol', kind: 'dm', name: 'alice, bob, carol', memberKeys: ['alice', 'bob', 'carol'] },
      { key: 'dm:bob,dave', kind: 'dm', name: 'bob, dave', memberKeys: ['bob', 'dave'] },
    ],
    messages: await expectedMessages(),
    emoji: [{ name: 'party_parrot', bytes: await fixtureFile('data/emoji/parrot/image') }],
    skipped: EXPECTED_SKIPPED,
  };
}

let scratch: string;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mattermost-reader-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function zipOf(entries: Record<string, Buffer>, name: string): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [path, content] of Object.entries(entries)) zip.addBuffer(content, path);
  zip.end();
  const file = join(scratch, name);
  await new Promise<void>((resolve, reject) =>
    zip.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject),
  );
  return file;
}

async function fixtureEntries(prefix = ''): Promise<Record<string, Buffer>> {
  const entries: Record<string, Buffer> = { [`${prefix}export.jsonl`]: await readFile(JSONL) };
  for (const name of DATA_FILES) entries[prefix + name] = await fixtureFile(name);
  return entries;
}

describe('the Mattermost bulk export reader', () => {
  it('reads a .jsonl with its data/ folder beside it: teams, people, channels, DMs, posts, replies, files, emoji', async () => {
    const source = await openMattermostExport(JSONL);
    try {
      assert.deepEqual(await readAll(source), await expectedExport());
    } finally {
      await source.close();
    }
  });

  it('reads the same from a zip (at its root or in a folder; known by its first bytes) and from the folder holding the .jsonl', async () => {
    const expected = await expectedExport();
    for (const path of [
      await zipOf(await fixtureEntries(), 'export.zip'),
      await zipOf(await fixtureEntries('mattermost_export/'), 'nested.zip'),
      await zipOf(await fixtureEntries(), 'uploaded-without-extension'),
      FIXTURE,
    ]) {
      const source = await openMattermostExport(path);
      try {
        assert.deepEqual(await readAll(source), expected, path);
      } finally {
        await source.close();
      }
    }
  });

  it('yields the same messages each pass and counts what it skips once', async () => {
    const source = await openMattermostExport(JSONL);
    try {
      const first = (await all(source.messages())).map((msg) => msg.key);
      const second = (await all(source.messages())).map((msg) => msg.key);
      assert.deepEqual(second, first);
      assert.equal(new Set(first).size, first.length);
      assert.deepEqual(source.skipped.toJSON(), EXPECTED_SKIPPED);
    } finally {
      await source.close();
    }
  });

  it('reads a file saved with a byte order mark and Windows line ends', async () => {
    const dir = await mkdtemp(join(scratch, 'crlf-'));
    const lines = [
      { type: 'team', team: { name: 't', display_name: 'T' } },
      { type: 'channel', channel: { team: 't', name: 'c', type: 'O' } },
      { type: 'user', user: { username: 'u' } },
      { type: 'post', post: { team: 't', channel: 'c', user: 'u', message: 'one', create_at: 1 } },
    ];
    await writeFile(join(dir, 'export.jsonl'), '\uFEFF' + lines.map((l) => JSON.stringify(l)).join('\r\n') + '\r\n');
    const source = await openMattermostExport(join(dir, 'export.jsonl'));
    try {
      assert.deepEqual(
        (await all(source.groups())).map((g) => g.key),
        ['t'],
      );
      assert.deepEqual(
        (await all(source.messages())).map((msg) => msg.text),
        ['one'],
      );
      assert.deepEqual(source.skipped.toJSON(), {});
    } finally {
      await source.close();
    }
  });

  it('never reads a file outside the export, whatever a line names', async () => {
    const dir = await mkdtemp(join(scratch, 'escape-'));
    await writeFile(join(scratch, 'secret.txt'), 'not part of the export');
    const lines = [
      { type: 'team', team: { name: 't', display_name: 'T' } },
      { type: 'channel', channel: { team: 't', name: 'c', type: 'O' } },
      { type: 'user', user: { username: 'u', teams: [{ name: 't', channels: [{ name: 'c' }] }] } },
      {
        type: 'post',
        post: {
          team: 't',
          channel: 'c',
          user: 'u',
          message: 'x',
          create_at: 1,
          attachments: [{ path: '../secret.txt' }, { path: '/etc/hostname' }, { path: 'data/../../secret.txt' }],
        },
      },
    ];
    await writeFile(join(dir, 'export.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    const source = await openMattermostExport(join(dir, 'export.jsonl'));
    try {
      const [message] = await all(source.messages());
      assert.deepEqual(message?.files, []);
      assert.deepEqual(source.skipped.toJSON(), { 'file missing from the export': 3 });
    } finally {
      await source.close();
    }
  });

  it('streams a long export and gives every post its own key', async () => {
    const dir = await mkdtemp(join(scratch, 'long-'));
    const head = [
      { type: 'team', team: { name: 't', display_name: 'T' } },
      { type: 'channel', channel: { team: 't', name: 'c', type: 'O' } },
      { type: 'user', user: { username: 'u' } },
    ].map((l) => JSON.stringify(l));
    const posts = 20_000;
    const out = createWriteStream(join(dir, 'export.jsonl'));
    out.write(head.join('\n') + '\n');
    for (let i = 0; i < posts; i++) {
      // Ten posts share each millisecond: their keys differ by position only.
      const post = { team: 't', channel: 'c', user: 'u', message: `post ${i}`, create_at: 1 + Math.floor(i / 10) };
      out.write(JSON.stringify({ type: 'post', post }) + '\n');
    }
    await new Promise<void>((resolve, reject) => out.end(resolve).on('error', reject));
    const source = await openMattermostExport(join(dir, 'export.jsonl'));
    try {
      const keys = new Set<string>();
      let last = '';
      for await (const message of source.messages()) {
        keys.add(message.key);
        last = message.text;
      }
      assert.equal(keys.size, posts);
      assert.equal(last, `post ${posts - 1}`);
      assert.ok(keys.has('t/c|2000|u|9'));
    } finally {
      await source.close();
    }
  });
});
