// A Slack export of a given size, written as the folder a Slack zip unpacks
// to: users.json, channels.json and a JSON file per channel and day. Made
// up here (names, texts), deterministic for a seed. Every tenth message is a
// thread reply, one in twenty has reactions, one in twenty mentions someone.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GeneratedExport {
  dir: string;
  messages: number;
  replies: number;
  channels: number;
  users: number;
  bytes: number;
}

const PER_DAY = 250;
const WORDS = [
  'deploy',
  'review',
  'lunch',
  'meeting',
  'build',
  'release',
  'ticket',
  'design',
  'coffee',
  'docs',
  'test',
  'fix',
];

export function generateSlackExport(
  dir: string,
  messages: number,
  channels: number,
  users: number,
  seed = 1,
): GeneratedExport {
  let state = seed >>> 0 || 1;
  const rand = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  mkdirSync(dir, { recursive: true });
  const userIds = Array.from({ length: users }, (_, i) => `U${String(i).padStart(6, '0')}`);
  let bytes = 0;
  const write = (file: string, data: unknown) => {
    const text = JSON.stringify(data);
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, file), text);
  };
  write(
    'users.json',
    userIds.map((id, i) => ({
      id,
      team_id: 'TBENCH',
      name: `member${i}`,
      real_name: `Member ${i}`,
      deleted: false,
      is_bot: false,
      profile: { real_name: `Member ${i}`, display_name: `member${i}`, email: `member${i}@bench.example` },
    })),
  );
  const channelNames = Array.from({ length: channels }, (_, i) => `channel-${i}`);
  write(
    'channels.json',
    channelNames.map((name, i) => ({
      id: `C${String(i).padStart(6, '0')}`,
      name,
      created: 1_600_000_000,
      creator: userIds[0],
      is_archived: false,
      is_general: i === 0,
      members: userIds,
      topic: { value: `About ${name}`, creator: userIds[0], last_set: 0 },
      purpose: { value: '', creator: '', last_set: 0 },
    })),
  );
  let replies = 0;
  const start = Date.UTC(2022, 0, 1) / 1000;
  for (const [c, name] of channelNames.entries()) {
    mkdirSync(join(dir, name), { recursive: true });
    const count = Math.floor(messages / channels) + (c < messages % channels ? 1 : 0);
    const roots: string[] = [];
    for (let done = 0, day = 0; done < count; day++) {
      const n = Math.min(PER_DAY, count - done);
      const dayStart = start + day * 86_400;
      const list: unknown[] = [];
      for (let k = 0; k < n; k++) {
        const ts = `${dayStart + k * 300 + (c % 300)}.${String(k).padStart(6, '0')}`;
        const user = pick(userIds);
        const words = Array.from({ length: 4 + Math.floor(rand() * 8) }, () => pick(WORDS)).join(' ');
        const message: Record<string, unknown> = { type: 'message', user, text: words, ts };
        const r = rand();
        if (r < 0.1 && roots.length > 0) {
          message.thread_ts = pick(roots.slice(-20));
          replies++;
        } else roots.push(ts);
        if (rand() < 0.05) message.text = `<@${pick(userIds)}> ${words}`;
        if (rand() < 0.05) message.reactions = [{ name: 'thumbsup', users: [pick(userIds), pick(userIds)], count: 2 }];
        list.push(message);
      }
      write(join(name, `${new Date(dayStart * 1000).toISOString().slice(0, 10)}.json`), list);
      done += n;
    }
  }
  return { dir, messages, replies, channels, users, bytes };
}
