import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';

/**
 * Writes a DiscordChatExporter-shaped export of `messages` messages into
 * `dir`: `channels` channel files of one server, and a thread file per
 * channel (one message in a hundred is in a thread). Messages mention people,
 * carry reactions and reply now and then, like a busy server's. Written as
 * a stream: an export of millions of messages never sits in memory.
 */
export async function writeDiscordExport(
  dir: string,
  options: { messages: number; channels?: number; people?: number },
): Promise<{ files: number; messages: number; replies: number; channels: number; users: number; bytes: number }> {
  const channels = options.channels ?? 4;
  const people = options.people ?? 200;
  await mkdir(dir, { recursive: true });
  const guild = { id: '9000', name: 'Generated server' };
  const person = (i: number): object => ({
    id: String(100000 + (i % people)),
    name: `member${i % people}`,
    discriminator: '0000',
    nickname: `Member ${i % people}`,
    isBot: false,
  });
  let next = 0;
  const start = Date.UTC(2023, 0, 1);
  let files = 0;
  let replies = 0;
  let bytes = 0;
  for (let c = 0; c < channels; c++) {
    const count = Math.floor(options.messages / channels) + (c < options.messages % channels ? 1 : 0);
    const threadCount = Math.floor(count / 100);
    replies += threadCount;
    const channelId = String(7000 + c);
    const threadId = String(8_000_000 + c); // a message of the channel's: the thread was started from it
    const main = fileWriter(join(dir, `Generated server - c${c} [${channelId}].json`), guild, {
      id: channelId,
      type: 'GuildTextChat',
      name: `c${c}`,
    });
    const thread = fileWriter(join(dir, `Generated server - c${c} - thread [${threadId}].json`), guild, {
      id: threadId,
      type: 'GuildPublicThread',
      categoryId: channelId,
      category: `c${c}`,
      name: 'thread',
    });
    files += 2;
    for (let i = 0; i < count; i++) {
      const n = next++;
      const inThread = i > 0 && i <= threadCount;
      const id = i === 0 ? threadId : String(10_000_000 + n);
      const message = {
        id,
        type: n % 20 === 3 ? 'Reply' : 'Default',
        timestamp: new Date(start + n * 1000).toISOString(),
        timestampEdited: null,
        isPinned: n % 500 === 0,
        content: `Message ${n} for <@${100000 + ((n + 1) % people)}>: some words about the garden, the weather and the plans`,
        author: person(n),
        attachments: [],
        embeds: [],
        stickers: [],
        reactions:
          n % 10 === 0 ? [{ emoji: { id: null, name: '👍', code: 'thumbsup' }, count: 1, users: [person(n + 2)] }] : [],
        mentions: [person(n + 1)],
        ...(n % 20 === 3 && { reference: { messageId: String(10_000_000 + n - 1), channelId, guildId: guild.id } }),
      };
      await (inThread ? thread : main).write(message);
    }
    bytes += (await main.end()) + (await thread.end());
  }
  return { files, messages: options.messages, replies, channels, users: people, bytes };
}

function fileWriter(path: string, guild: object, channel: object) {
  const out = createWriteStream(path);
  let first = true;
  let written = 0;
  const put = async (text: string): Promise<void> => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  const header = `{"guild":${JSON.stringify(guild)},"channel":${JSON.stringify(channel)},"messages":[`;
  let count = 0;
  return {
    async write(message: object): Promise<void> {
      await put((first ? header : ',') + JSON.stringify(message));
      first = false;
      count++;
    },
    /** Closes the file; its size in bytes. */
    async end(): Promise<number> {
      if (first) await put(header);
      const tail = `],"messageCount":${count}}`;
      out.end(tail);
      await once(out, 'finish');
      return written + Buffer.byteLength(tail);
    },
  };
}
