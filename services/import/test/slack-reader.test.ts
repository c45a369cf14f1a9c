import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { openExportFiles } from '../src/source/export-files.ts';
import { mentionToken } from '../src/source/mention-token.ts';
import type { ImportSource, SourceMessage } from '../src/source/types.ts';
import { openSlackExport } from '../src/sources/slack/index.ts';
import { all, bytes } from './collect.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/slack/Acme Slack export Mar 1 2024 - Mar 3 2024', import.meta.url));
const ROOT = 'C01GENERAL:1709280060.000200';

const text = async (stream: Readable | undefined) => (await bytes(stream))?.toString('utf8');

/** The fixture folder zipped, the way Slack hands an export over (or inside a folder, as people zip it again). */
async function zipFolder(folder: string, zipPath: string, inside = ''): Promise<void> {
  const files = await openExportFiles(folder);
  const zip = new yazl.ZipFile();
  for (const name of files.names) zip.addReadStream((await files.open(name))!, inside + name);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(zipPath));
}

/** Messages without their file handles, which cannot be compared. */
const plain = (messages: SourceMessage[]) =>
  messages.map(({ files, ...m }) => ({ ...m, files: files.map((f) => ({ key: f.key, name: f.name })) }));

const EXPECTED_MESSAGES = [
  {
    key: ROOT,
    channelKey: 'C01GENERAL',
    authorKey: 'U01ALICE',
    createdAt: new Date('2024-03-01T08:01:00.000Z'),
    editedAt: new Date('2024-03-01T08:02:00.000Z'),
    text: 'Hello @all! Read **the plan** in #random and #general, *soon*, ~~old~~: [the plan doc](https://example.com/plan?a=1&b=2) <tag> & `code *not bold*` :rocket:',
    reactions: [
      { emoji: '+1', userKeys: ['U02BOB', 'U03CAROL', 'U01ALICE'] },
      { emoji: 'party_parrot', userKeys: ['U01ALICE'] },
      { emoji: 'no_such_emoji_anywhere', userKeys: ['U02BOB'] },
    ],
    pinned: true,
    files: [],
  },
  {
    key: 'C01GENERAL:1709280180.000300',
    channelKey: 'C01GENERAL',
    authorKey: 'U02BOB',
    createdAt: new Date('2024-03-01T08:03:00.000Z'),
    text: `${mentionToken('U01ALICE')} agreed, see https://example.org`,
    threadRootKey: ROOT,
    reactions: [],
    files: [],
  },
  {
    key: 'C01GENERAL:1709280240.000400',
    channelKey: 'C01GENERAL',
    authorKey: 'B99HOOK',
    createdAt: new Date('2024-03-01T08:04:00.000Z'),
    text: 'Build **#42** passed',
    reactions: [],
    files: [],
  },
  {
    key: 'C01GENERAL:1709280300.000500',
    channelKey: 'C01GENERAL',
    authorKey: 'U01ALICE',
    createdAt: new Date('2024-03-01T08:05:00.000Z'),
    text: 'the plan file',
    reactions: [],
    files: [{ key: 'C01GENERAL:1709280300.000500:F01PRESENT', name: 'plan.txt' }],
  },
  {
    key: 'C01GENERAL:1709280360.000600',
    channelKey: 'C01GENERAL',
    authorKey: 'U02BOB',
    createdAt: new Date('2024-03-01T08:06:00.000Z'),
    text: '*budget.xlsx* (file not in the export)',
    reactions: [],
    files: [],
  },
  {
    key: 'C01GENERAL:1709280420.000700',
    channelKey: 'C01GENERAL',
    authorKey: 'U03CAROL',
    createdAt: new Date('2024-03-01T08:07:00.000Z'),
    text: `me too ${mentionToken('U09GHOST')}`,
    threadRootKey: ROOT,
    reactions: [],
    files: [],
  },
  {
    key: 'C01GENERAL:1709280480.000800',
    channelKey: 'C01GENERAL',
    authorKey: 'U01ALICE',
    createdAt: new Date('2024-03-01T08:08:00.000Z'),
    text: 'waves',
    reactions: [],
    emote: true,
    files: [],
  },
  {
    key: 'C01GENERAL:1709280540.000900',
    channelKey: 'C01GENERAL',
    authorKey: 'U09GHOST',
    createdAt: new Date('2024-03-01T08:09:00.000Z'),
    text: `boo ${mentionToken('U08NOBODY')}`,
    reactions: [{ emoji: 'eyes', userKeys: ['U08NOBODY'] }],
    files: [],
  },
  {
    key: 'C01GENERAL:1709280660.001100',
    channelKey: 'C01GENERAL',
    authorKey: 'U04DEPLOY',
    createdAt: new Date('2024-03-01T08:11:00.001Z'),
    text: 'Deployed:\n```\nline1\n<b> *x*\n```\ndone',
    reactions: [],
    files: [],
  },
  {
    key: 'C01GENERAL:1709452800.000100',
    channelKey: 'C01GENERAL',
    authorKey: 'U01ALICE',
    createdAt: new Date('2024-03-03T08:00:00.000Z'),
    text: 'a later reply',
    threadRootKey: ROOT,
    reactions: [],
    files: [],
  },
  {
    key: 'C01GENERAL:1709452860.000200',
    channelKey: 'C01GENERAL',
    authorKey: 'U02BOB',
    createdAt: new Date('2024-03-03T08:01:00.000Z'),
    text: 'a reply to a thread older than the export',
    threadRootKey: 'C01GENERAL:1700000000.000000',
    reactions: [],
    files: [],
  },
  {
    key: 'C02RANDOM:1709280000.000500',
    channelKey: 'C02RANDOM',
    authorKey: 'U02BOB',
    createdAt: new Date('2024-03-01T08:00:00.000Z'),
    text: 'notes attached',
    reactions: [],
    files: [{ key: 'C02RANDOM:1709280000.000500:F03DUMP', name: 'notes.md' }],
  },
  {
    key: 'C02RANDOM:1709280003.000000',
    channelKey: 'C02RANDOM',
    authorKey: 'U01ALICE',
    createdAt: new Date('2024-03-01T08:00:03.000Z'),
    text: 'a question, from an export that marks no roots',
    reactions: [],
    files: [],
  },
  {
    key: 'C02RANDOM:1709280004.000000',
    channelKey: 'C02RANDOM',
    authorKey: 'U02BOB',
    createdAt: new Date('2024-03-01T08:00:04.000Z'),
    text: 'an answer',
    threadRootKey: 'C02RANDOM:1709280003.000000',
    reactions: [],
    files: [],
  },
  {
    key: 'G01SECRET:1709290000.000100',
    channelKey: 'G01SECRET',
    authorKey: 'U01ALICE',
    createdAt: new Date('2024-03-01T10:46:40.000Z'),
    text: 'secret **stuff**',
    reactions: [],
    files: [],
  },
  {
    key: 'G02MPIM:1709290100.000100',
    channelKey: 'G02MPIM',
    authorKey: 'U03CAROL',
    createdAt: new Date('2024-03-01T10:48:20.000Z'),
    text: 'hi all three',
    reactions: [],
    files: [],
  },
  {
    key: 'D01AB:1709290200.000100',
    channelKey: 'D01AB',
    authorKey: 'U02BOB',
    createdAt: new Date('2024-03-01T10:50:00.000Z'),
    text: `psst ${mentionToken('U01ALICE')}`,
    reactions: [],
    files: [],
  },
];

const EXPECTED_SKIPPED = {
  'system message': 2,
  'message in a channel the export does not list': 2,
  'file missing from the export': 1,
  'file deleted at the source': 1,
  'unreadable day file': 1,
  'message without an author': 1,
  'empty message': 1,
};

describe('the Slack export reader', () => {
  let dir: string;
  let zipPath: string;
  let rezipped: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slack-reader-'));
    zipPath = join(dir, 'Acme Slack export Mar 1 2024 - Mar 3 2024.zip');
    await zipFolder(FIXTURE, zipPath);
    rezipped = join(dir, 'Acme-slack-export.zip');
    await zipFolder(FIXTURE, rezipped, 'Acme Slack export Mar 1 2024 - Mar 3 2024/');
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  for (const [shape, path] of [
    ['folder', () => FIXTURE],
    ['zip', () => zipPath],
    ['zip made again around its folder', () => rezipped],
  ] as const) {
    describe(`read from its ${shape}`, () => {
      let source: ImportSource;
      before(async () => {
        source = await openSlackExport(path());
      });
      after(async () => source.close());

      it('names the workspace by its team id and the export file name', async () => {
        assert.equal(source.kind, 'slack');
        assert.equal(source.origin, 'T0ACME');
        assert.deepEqual(await all(source.groups()), [{ key: 'T0ACME', name: 'Acme' }]);
      });

      it('yields the listed people, then the authors the list lacks', async () => {
        assert.deepEqual(await all(source.users()), [
          { key: 'U01ALICE', username: 'alice', displayName: 'Ali', email: 'alice@acme.test' },
          { key: 'U02BOB', username: 'bob', displayName: 'Bob Baker', email: 'bob@acme.test' },
          { key: 'U03CAROL', username: 'carol', displayName: 'Carol Clark', deleted: true },
          { key: 'U04DEPLOY', username: 'deploybot', displayName: 'Deploy Bot', bot: true },
          { key: 'B99HOOK', username: 'CI Bot', displayName: 'CI Bot', bot: true },
          { key: 'U09GHOST', username: 'ghost', displayName: 'gus' },
        ]);
      });

      it('yields public and private channels in the group, group DMs and DMs outside it', async () => {
        assert.deepEqual(await all(source.channels()), [
          {
            key: 'C01GENERAL',
            groupKey: 'T0ACME',
            kind: 'public',
            name: 'general',
            topic: 'Company-wide news',
            memberKeys: ['U01ALICE', 'U02BOB', 'U03CAROL'],
          },
          {
            key: 'C02RANDOM',
            groupKey: 'T0ACME',
            kind: 'public',
            name: 'random',
            topic: 'Off topic',
            memberKeys: ['U01ALICE', 'U02BOB'],
          },
          {
            key: 'G01SECRET',
            groupKey: 'T0ACME',
            kind: 'private',
            name: 'secret-plans',
            topic: 'Just us',
            memberKeys: ['U01ALICE', 'U03CAROL'],
          },
          {
            key: 'G02MPIM',
            kind: 'dm',
            name: 'mpdm-alice--bob--carol-1',
            topic: 'Group messaging',
            memberKeys: ['U01ALICE', 'U02BOB', 'U03CAROL'],
          },
          { key: 'D01AB', kind: 'dm', name: 'D01AB', memberKeys: ['U01ALICE', 'U02BOB'] },
        ]);
      });

      it('yields every message once, translated, and counts what it passed over once', async () => {
        const first = await all(source.messages());
        assert.deepEqual(plain(first), EXPECTED_MESSAGES);
        assert.deepEqual(source.skipped.toJSON(), EXPECTED_SKIPPED);

        const second = await all(source.messages());
        assert.deepEqual(plain(second), EXPECTED_MESSAGES, 'the same messages in the same order on every pass');
        assert.deepEqual(source.skipped.toJSON(), EXPECTED_SKIPPED, 'a second pass counts nothing again');
      });

      it('opens the files the export holds, in either layout', async () => {
        const files = (await all(source.messages())).flatMap((m) => m.files);
        assert.deepEqual(await Promise.all(files.map(async (f) => text(await f.open()))), ['the plan\n', '# Notes\n']);
      });

      it('offers the custom emoji whose images the export holds', async () => {
        const emoji = await all(source.emoji());
        assert.deepEqual(
          emoji.map((e) => e.name),
          ['party_parrot'],
        );
        const image = await bytes(await emoji[0]!.open());
        assert.deepEqual(image, await readFile(join(FIXTURE, 'emojis', 'party_parrot.png')));
      });
    });
  }

  it('takes fields of the wrong type as missing, and never throws on them', async () => {
    const messy = join(dir, 'messy');
    await mkdir(join(messy, 'general'), { recursive: true });
    await writeFile(join(messy, 'users.json'), JSON.stringify([{ id: 'U1', name: 7, profile: 'x' }, 'nobody', null]));
    await writeFile(
      join(messy, 'channels.json'),
      JSON.stringify([{ id: 'C1', name: 'general', members: 'U1', topic: 3 }]),
    );
    await writeFile(join(messy, 'groups.json'), '{"not": "a list"}');
    await writeFile(
      join(messy, 'general', '2024-03-01.json'),
      JSON.stringify([
        { ts: '1709280000.000100', user: 'U1', text: 42, reactions: 'x', files: {}, pinned_to: 5, edited: 'never' },
        { ts: 1709280001, user: 'U1', text: 'a number for a ts' },
        { ts: '1709280002.000100', user: 'U1', text: 'ok', reactions: [{ name: 'eyes', users: ['U1', 2] }, 'x'] },
        17,
      ]),
    );
    const source = await openSlackExport(messy);
    try {
      assert.equal(source.origin, 'channel:C1', 'no team id: known by its default channel');
      assert.deepEqual(await all(source.users()), [{ key: 'U1', username: 'U1' }]);
      assert.deepEqual(await all(source.channels()), [
        { key: 'C1', groupKey: 'channel:C1', kind: 'public', name: 'general', memberKeys: [] },
      ]);
      assert.deepEqual(plain(await all(source.messages())), [
        {
          key: 'C1:1709280002.000100',
          channelKey: 'C1',
          authorKey: 'U1',
          createdAt: new Date('2024-03-01T08:00:02.000Z'),
          text: 'ok',
          reactions: [{ emoji: 'eyes', userKeys: ['U1'] }],
          files: [],
        },
      ]);
      assert.deepEqual(source.skipped.toJSON(), {
        'unreadable groups.json': 1,
        'empty message': 1,
        'message without a valid ts': 1,
      });
    } finally {
      await source.close();
    }
  });

  it('refuses a folder that is no Slack export', async () => {
    await assert.rejects(openSlackExport(join(FIXTURE, 'emojis')), /not a Slack export/);
  });
});
