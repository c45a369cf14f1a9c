import type { Message } from '@im/protocol';
import type { PendingMessage } from '../../state/messages.ts';
import { sameDay } from './format.ts';

export type Row =
  | { kind: 'message'; key: string; message: Message; authorId: string; at: string; first: boolean; newDay: boolean }
  | {
      kind: 'pending';
      key: string;
      pending: PendingMessage;
      authorId: string;
      at: string;
      first: boolean;
      newDay: boolean;
    };

type WithoutLayout<R> = R extends Row ? Omit<R, 'first' | 'newDay'> : never;
type RowInput = WithoutLayout<Row>;

/** Messages within this long of the previous one by the same author share its header. */
const GROUP_GAP_MS = 5 * 60 * 1000;

/**
 * The list's rows: confirmed messages by seq, then what is still being sent.
 * `first` starts an author group (name and time shown); `newDay` puts a day
 * divider above the row.
 */
export function buildRows(messages: readonly Message[], pending: readonly PendingMessage[], meId: string): Row[] {
  const rows: Row[] = [];
  let prevAuthor = '';
  let prevAt = 0;
  let prevDate: Date | null = null;
  const push = (row: RowInput) => {
    const at = new Date(row.at);
    const newDay = prevDate === null || !sameDay(prevDate, at);
    const first = newDay || row.authorId !== prevAuthor || at.getTime() - prevAt > GROUP_GAP_MS;
    rows.push({ ...row, first, newDay } as Row);
    prevAuthor = row.authorId;
    prevAt = at.getTime();
    prevDate = at;
  };
  for (const message of messages) {
    push({ kind: 'message', key: message.id, message, authorId: message.authorId, at: message.createdAt });
  }
  for (const p of pending) push({ kind: 'pending', key: p.clientMsgId, pending: p, authorId: meId, at: p.createdAt });
  return rows;
}
