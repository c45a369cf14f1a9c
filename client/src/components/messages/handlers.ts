import type { EphemeralMessage, Message } from '@im/protocol';
import type { PendingMessage } from '../../state/messages.ts';

/** What the message list asks of its owner; the list itself holds no data. */
export interface MessageHandlers {
  onLoadOlder(): void;
  onAtBottomChange(atBottom: boolean): void;
  onReact(message: Message, emoji: string): void;
  onReply(message: Message): void;
  onEdit(message: Message, content: string): Promise<boolean>;
  onDelete(message: Message): void;
  /** Someone else's message: asks for a reason and reports it to the moderators. */
  onReport(message: Message): void;
  onRetry(pending: PendingMessage): void;
  onDiscard(pending: PendingMessage): void;
  onOpenImage(fileId: string): void;
  /** Copies the message's permalink to the clipboard. */
  onCopyLink(message: Message): void;
  /** Hides an answer only I could see (the server never kept it). */
  onDismissEphemeral(message: EphemeralMessage): void;
  /** Opens a top-level message's thread in the pane (absent: threads are not offered). */
  onOpenThread?(message: Message): void;
  /** Pins or unpins (absent: the viewer may not pin here). */
  onTogglePin?(message: Message): void;
}

export const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '😮', '😢'] as const;
