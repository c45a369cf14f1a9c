import type { Message, PollBody } from '@im/protocol';
import { describeError } from '../api/errors.ts';
import { patchConverse, receiveMessages } from './conversations.ts';
import { newClientMsgId, updateMessage } from './messages.ts';
import { notify } from './store.ts';
import { api, storedMessage } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';

/** Sends a poll to a converse (its text is the question); shown once the server stored it. */
export async function sendPoll(converseId: string, poll: PollBody): Promise<void> {
  const message = storedMessage(await api.call('chat.send', { converseId, poll, clientMsgId: newClientMsgId() }));
  receiveMessages(converseId, [message]);
}

/** The server's answer to my vote or close is the poll as I see it (with my votes): taken as is. */
function takeMine(message: Message): void {
  patchConverse(message.converseId, (c) => ({ items: updateMessage(c.items, message.id, () => message) }));
}

/** Replaces my vote (an empty list withdraws it). */
export async function votePoll(message: Message, options: number[]): Promise<void> {
  try {
    takeMine(await api.call('chat.vote', { messageId: message.id, options }));
  } catch (err) {
    notify(t('notices.vote', { reason: describeError(err) }));
  }
}

/** The author closes their poll before its time. */
export async function closePoll(message: Message): Promise<void> {
  try {
    takeMine(await api.call('chat.closePoll', { messageId: message.id }));
  } catch (err) {
    notify(t('notices.closePoll', { reason: describeError(err) }));
  }
}
