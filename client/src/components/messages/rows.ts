import type { EphemeralMessage, Message } from '@im/protocol';
import type { PendingMessage } from '../../state/messages.ts';
import { sameDay } from './format.ts';

interface Layout {
  key: string;
  authorId: string;
  at: string;
  /** Starts an author group: the name and time are shown. */
  first: boolean;
  /** A day divider goes above the row. */
  newDay: boolean;
  /** The first unread message: the "New messages" divider goes above it. */
  newMessages?: boolean;
  /** The message a jump (a search result) brought into view, shown highlighted for a moment. */
  highlight?: boolean;
}

export type Row =
  | ({ kind: 'message'; message: Message } & Layout)
  | ({ kind: 'pending'; pending: PendingMessage } & Layout)
  | ({ kind: 'ephemeral'; ephemeral: EphemeralMessage } & Layout);

type WithoutLayout<R> = R extends Row ? Omit<R, 'first' | 'newDay'> : never;
type RowInput = WithoutLayout<Row>;

/** Messages within this long of the previous one by the same author share its header. */
const GROUP_GAP_MS = 5 * 60 * 1000;

/**
 * Who a row's header names: a webhook posts under many names through one
 * bot, and each name gets its own header.
 */
function speaker(row: RowInput): string {
  if (row.kind === 'message' && row.message.username) return `${row.authorId}\n${row.message.username}`;
  return row.authorId;
}

/**
 * The list's rows: confirmed messages by seq with the answers only I see
 * (ephemeral) placed by time among them, then what is still being sent.
 * An ephemeral answer always stands alone, with its own header.
 */
export function buildRows(
  messages: readonly Message[],
  pending: readonly PendingMessage[],
  meId: string,
  ephemeral: readonly EphemeralMessage[] = [],
  firstUnreadSeq?: number,
): Row[] {
  const rows: Row[] = [];
  let prevSpeaker = '';
  let prevAt = 0;
  let prevDate: Date | null = null;
  const push = (row: RowInput) => {
    const at = new Date(row.at);
    // An ephemeral answer and a call record stand alone: the message after either shows its header.
    const who = row.kind === 'ephemeral' || (row.kind === 'message' && row.message.call) ? '' : speaker(row);
    const newDay = prevDate === null || !sameDay(prevDate, at);
    const first = newDay || who === '' || who !== prevSpeaker || at.getTime() - prevAt > GROUP_GAP_MS;
    rows.push({ ...row, first, newDay } as Row);
    prevSpeaker = who;
    prevAt = at.getTime();
    prevDate = at;
  };
  const answers = [...ephemeral].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  let next = 0;
  const pushAnswersBefore = (time: number) => {
    while (next < answers.length && Date.parse(answers[next]!.createdAt) < time) {
      const e = answers[next++]!;
      push({ kind: 'ephemeral', key: `ephemeral:${e.id}`, ephemeral: e, authorId: e.authorId, at: e.createdAt });
    }
  };
  let divided = firstUnreadSeq === undefined;
  for (const message of messages) {
    pushAnswersBefore(Date.parse(message.createdAt));
    push({ kind: 'message', key: message.id, message, authorId: message.authorId, at: message.createdAt });
    // Above the first unread held (the one at the read position may be gone or not loaded).
    if (!divided && message.seq >= firstUnreadSeq!) {
      divided = true;
      rows[rows.length - 1] = { ...rows.at(-1)!, newMessages: true, first: true };
    }
  }
  pushAnswersBefore(Infinity);
  for (const p of pending) push({ kind: 'pending', key: p.clientMsgId, pending: p, authorId: meId, at: p.createdAt });
  return rows;
}
