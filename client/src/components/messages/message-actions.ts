import type { Message } from '@im/protocol';
import type { RefObject } from 'react';
import { deleteMessage, editMessage, toggleReaction } from '../../state/conversations.ts';
import { copyMessageLink } from '../../state/permalinks.ts';
import type { ComposerHandle } from './Composer.tsx';
import type { MessageHandlers } from './handlers.ts';

/** The view a message's actions act on: its composer and its dialogs. */
interface MessageView {
  composer: RefObject<ComposerHandle | null>;
  setReplyTo(message: Message): void;
  setReporting(message: Message): void;
  setViewing(fileId: string): void;
}

/** What a message offers wherever it is shown (the timeline and the thread pane alike). */
export const messageActions = (
  view: MessageView,
): Pick<
  MessageHandlers,
  'onReact' | 'onReply' | 'onEdit' | 'onDelete' | 'onReport' | 'onOpenImage' | 'onCopyLink'
> => ({
  onReact: (message, emoji) => void toggleReaction(message, emoji),
  onReply: (message) => {
    view.setReplyTo(message);
    view.composer.current?.focus();
  },
  onEdit: (message, content) => editMessage(message, content),
  onDelete: (message) => void deleteMessage(message),
  onReport: (message) => view.setReporting(message),
  onOpenImage: (fileId) => view.setViewing(fileId),
  onCopyLink: (message) => void copyMessageLink(message),
});
