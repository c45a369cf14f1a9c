// A group archive in this platform's own export format (the folder a zip
// unpacks to), of N messages spread over C panels by U people, with threads
// and reactions: what `npm run import -- im` reads, so a benchmark has a big
// group to export without waiting on any other reader. Written in streams.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';

const hexId = (kind: number, n: number) => `${kind.toString(16).padStart(4, '0')}${n.toString(16).padStart(20, '0')}`;
const [USER, PANEL, CONVERSE, MESSAGE, GROUP] = [1, 2, 3, 4, 5];

const WORDS = 'the a plan meeting notes ship it today later ok thanks review build test deploy fix bug idea'.split(' ');

export async function generateImArchive(
  dir: string,
  messages: number,
  channels: number,
  users: number,
): Promise<{ dir: string; replies: number }> {
  mkdirSync(join(dir, 'converses'), { recursive: true });
  const userIds = Array.from({ length: users }, (_, i) => hexId(USER, i));
  const converseIds = Array.from({ length: channels }, (_, i) => hexId(CONVERSE, i));
  const groupId = hexId(GROUP, 1);
  writeFileSync(
    join(dir, 'users.json'),
    JSON.stringify(userIds.map((id, i) => ({ id, username: `member${i}`, nickname: `Member ${i}` }))),
  );
  writeFileSync(
    join(dir, 'group.json'),
    JSON.stringify({
      id: groupId,
      name: 'Exported',
      ownerId: userIds[0],
      createdAt: '2025-01-01T00:00:00.000Z',
      panels: converseIds.map((converseId, i) => ({
        id: hexId(PANEL, i),
        name: `panel-${i}`,
        type: 'text',
        converseId,
      })),
      roles: [],
      members: userIds.map((userId, i) => ({
        userId,
        role: i === 0 ? 'owner' : 'member',
        joinedAt: '2025-01-01T00:00:00.000Z',
      })),
      emoji: [],
    }),
  );
  const t0 = Date.UTC(2025, 0, 1);
  let replies = 0;
  let n = 0;
  const converses = [];
  for (let c = 0; c < channels; c += 1) {
    const count = Math.floor(messages / channels) + (c < messages % channels ? 1 : 0);
    const path = `converses/${converseIds[c]}.json`;
    const out = createWriteStream(join(dir, path));
    let root: string | undefined;
    for (let i = 0; i < count; i += 1, n += 1) {
      const id = hexId(MESSAGE, n);
      // Every 10th message opens a thread; the next three answer in it.
      const inThread = root !== undefined && i % 10 > 0 && i % 10 <= 3;
      if (inThread) replies += 1;
      if (i % 10 === 0) root = id;
      const message = {
        id,
        seq: i + 1,
        authorId: userIds[n % users],
        createdAt: new Date(t0 + n * 1000).toISOString(),
        text: Array.from({ length: 6 + (n % 10) }, (_, w) => WORDS[(n + w * 7) % WORDS.length]).join(' '),
        ...(inThread ? { threadId: root } : {}),
        reactions: n % 5 === 0 ? [{ emoji: '👍', userIds: [userIds[(n + 1) % users]] }] : [],
        attachments: [],
      };
      if (!out.write(`${i === 0 ? '[' : ','}${JSON.stringify(message)}\n`)) await once(out, 'drain');
    }
    out.end(count === 0 ? '[]' : ']');
    await once(out, 'finish');
    converses.push({ id: converseIds[c], path, kind: 'panel', messages: count });
  }
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      format: 'im-export',
      version: 1,
      kind: 'group',
      exportedAt: new Date().toISOString(),
      server: 'benchmark.invalid',
      groupId,
      converses,
      counts: { users, converses: channels, messages, files: 0, emoji: 0 },
    }),
  );
  return { dir, replies };
}
