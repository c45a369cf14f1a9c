import type { Message } from '@im/protocol';
import { call, ImError, type ActionCaller } from '@im/sdk';

/** Sends a message as a bot of the group, through the same send path as everyone (limits, mentions, events). */
export async function postAsBot(
  caller: ActionCaller,
  bot: { botId: string; groupId: string },
  converseId: string,
  content: string,
  username?: string,
): Promise<Message> {
  const sent = await call(
    caller,
    'chat.send',
    { converseId, content, ...(username ? { username } : {}) },
    { meta: { user: { id: bot.botId, botGroupId: bot.groupId } } },
  );
  // A bot's text never runs a command, so this is always a message.
  if (!('id' in sent)) throw new ImError('IM_ERR_INTERNAL', 'A bot post was taken for a command');
  return sent;
}
