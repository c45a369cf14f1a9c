import type { Message, PollBody } from '@im/protocol';
import { describeError } from '../api/errors.ts';
import { http, path } from '../api/http.ts';
import { patchConverse, receiveMessages } from './conversations.ts';
import { newClientMsgId, updateMessage } from './messages.ts';
import { notify } from './store.ts';

/** Sends a poll to a converse (its text is the question); shown once the server stored it. */
export async function sendPoll(converseId: string, poll: PollBody): Promise<void> {
  const message = await http.post<Message>(path`/api/converses/${converseId}/messages`, {
    poll,
    clientMsgId: newClientMsgId(),
  });
  receiveMessages(converseId, [message]);
}

/** The server's answer to my vote or close is the poll as I see it (with my votes): taken as is. */
function takeMine(message: Message): void {
  patchConverse(message.converseId, (c) => ({ items: updateMessage(c.items, message.id, () => message) }));
}

/** Replaces my vote (an empty list withdraws it). */
export async function votePoll(message: Message, options: number[]): Promise<void> {
  try {
    takeMine(await http.put<Message>(path`/api/messages/${message.id}/poll/votes`, { options }));
  } catch (err) {
    notify(`Could not vote: ${describeError(err)}`);
  }
}

/** The author closes their poll before its time. */
export async function closePoll(message: Message): Promise<void> {
  try {
    takeMine(await http.post<Message>(path`/api/messages/${message.id}/poll/close`));
  } catch (err) {
    notify(`Could not close the poll: ${describeError(err)}`);
  }
}
