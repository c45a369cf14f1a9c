import { MarkUnreadAction } from '../attention/MarkUnreadAction.tsx';
import type { Message, PublicUser } from '@im/protocol';
import { manyMentionNames, mentionsMe as mentionsMeOf } from '../../state/mentions-me.ts';
import { memo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { plainText } from '@im/markdown';
import type { PendingMessage } from '../../state/messages.ts';
import { emoteOf } from '../../state/commands.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { CallRecordLine } from '../calls/CallRecordLine.tsx';
import { Attachment } from './Attachment.tsx';
import { AuthorName, shownName } from './AuthorName.tsx';
import { EphemeralItem } from './EphemeralItem.tsx';
import { formatDay } from './format.ts';
import { EditedMark, MessageTime } from './MessageTime.tsx';
import type { MessageHandlers } from './handlers.ts';
import { LinkPreviewCard } from './LinkPreviewCard.tsx';
import { ReactionPicker } from '../emoji/ReactionPicker.tsx';
import { removeLinkPreview } from '../../state/link-previews.ts';
import { ReactionChip } from './ReactionChip.tsx';
import { ReplyQuote } from './ReplyQuote.tsx';
import { RichText } from './RichText.tsx';
import { QueuedStatus } from '../../offline/QueuedStatus.tsx';
import type { Row } from './rows.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { RemindMeButton } from '../scheduled/RemindMeButton.tsx';
import { ThreadSummaryLink } from '../threads/ThreadSummaryLink.tsx';
import { ForwardButton } from './ForwardButton.tsx';
import { ForwardedFrom } from './ForwardedFrom.tsx';
import { CopyLinkButton } from './CopyLinkButton.tsx';
import { useMentionHandles } from './useMentionHandles.ts';
import { PollCard } from './PollCard.tsx';
import { SaveButton } from './SaveButton.tsx';
import { startEditing, stopEditing, useEditing } from './editing.ts';
import { focusNextMessage } from './useMessageRoving.ts';
import { BlockedGate } from '../safety/BlockedGate.tsx';
import { whenConfirmed } from '../common/confirm.ts';

/** How much of a message its accessible name reads out. */
const NAME_MAX = 300;

export interface ItemContext {
  me: PublicUser;
  users: Record<string, PublicUser>;
  /** Group owner or admin: may delete anyone's message. */
  canModerate: boolean;
  handlers: MessageHandlers;
}

export const MessageItem = memo(function MessageItem(props: { row: Row; ctx: ItemContext }) {
  const { row, ctx } = props;
  const { t } = useTranslation();
  const author = ctx.users[row.authorId];
  return (
    <div className={`row${row.first ? ' first' : ''}${row.highlight ? ' highlight' : ''}`}>
      {row.newMessages && (
        <div
          className="new-messages-divider"
          role="separator"
          aria-label={t('keyboard.newMessages')}
          data-testid="new-messages"
        >
          <span>{t('keyboard.newMessages')}</span>
        </div>
      )}
      {row.newDay && (
        <div className="day-divider" role="separator">
          <span>{formatDay(row.at)}</span>
        </div>
      )}
      {row.kind === 'message' &&
        (row.message.call && !row.message.deleted ? (
          <CallRecordLine
            record={row.message.call}
            mine={row.message.authorId === ctx.me.id}
            at={row.message.createdAt}
          />
        ) : (
          <BlockedGate authorId={row.message.authorId}>
            <ConfirmedMessage rowKey={row.key} message={row.message} author={author} first={row.first} ctx={ctx} />
          </BlockedGate>
        ))}
      {row.kind === 'pending' && (
        <PendingItem rowKey={row.key} pending={row.pending} author={ctx.me} first={row.first} ctx={ctx} />
      )}
      {row.kind === 'ephemeral' && (
        <EphemeralItem
          ephemeral={row.ephemeral}
          author={author}
          onDismiss={() => ctx.handlers.onDismissEphemeral(row.ephemeral)}
        />
      )}
    </div>
  );
});

function Header(props: { author?: PublicUser; username?: string; at: string; first: boolean }) {
  if (!props.first) return null;
  return (
    <div className="message-head">
      <AuthorName author={props.author} username={props.username} />
      <MessageTime at={props.at} />
    </div>
  );
}

function ConfirmedMessage(props: {
  rowKey: string;
  message: Message;
  author?: PublicUser;
  first: boolean;
  ctx: ItemContext;
}) {
  const { message, ctx } = props;
  const { t } = useTranslation();
  const article = useRef<HTMLElement>(null);
  const editing = useEditing((s) => s.id === message.id);
  const endEdit = () => stopEditing(article.current);
  const { open: picking, setOpen: setPicking, ref: actions } = useMenu<HTMLDivElement>();
  const mine = message.authorId === ctx.me.id;
  const mentionNames = new Set([
    ...message.mentions.map((id) => ctx.users[id]?.username).filter((n): n is string => n !== undefined),
    ...manyMentionNames(message),
    ...useMentionHandles(message),
  ]);
  const mentionsMe = mentionsMeOf(message, ctx.me.id);
  const name = shownName(props.author, message.username);
  const emote = message.emote && !message.deleted;
  return (
    <article
      ref={article}
      className={`message${mentionsMe ? ' mentions-me' : ''}${message.deleted ? ' deleted' : ''}`}
      data-seq={message.seq}
      data-message-key={props.rowKey}
      data-testid="message"
      aria-label={t(
        message.deleted ? 'keyboard.message.deleted' : emote ? 'keyboard.message.emote' : 'keyboard.message',
        {
          name,
          at: new Date(message.createdAt),
          text: plainText(message.content, NAME_MAX),
        },
      )}
    >
      <div className="gutter">{props.first ? <Avatar user={props.author} name={message.username} /> : null}</div>
      <div className="message-main">
        <Header author={props.author} username={message.username} at={message.createdAt} first={props.first} />
        {message.replyTo && (
          <ReplyQuote converseId={message.converseId} messageId={message.replyTo} users={ctx.users} />
        )}
        {message.forwarded && !message.deleted && <ForwardedFrom origin={message.forwarded} />}
        {message.pinned && !message.deleted && (
          <div className="pin-marker" data-testid="pin-marker">
            <Icon name="pin" size={14} /> {t('keyboard.pinned')}
          </div>
        )}
        {message.deleted ? (
          <p className="content tombstone">{t('keyboard.deletedMessage')}</p>
        ) : editing ? (
          <EditBox
            initial={message.content}
            onCancel={endEdit}
            onSave={async (content) => {
              if (content === message.content || (await ctx.handlers.onEdit(message, content))) endEdit();
            }}
          />
        ) : emote ? (
          // `/me`: an action, said as "<name> <text>" in italics.
          <p className="content emote" data-testid="message-content">
            <em>
              {name} <RichText text={message.content} mentionNames={mentionNames} myName={ctx.me.username} inline />
            </em>
            {message.editedAt && <EditedMark at={message.editedAt} />}
          </p>
        ) : (
          <div className="content" data-testid="message-content">
            <RichText text={message.content} mentionNames={mentionNames} myName={ctx.me.username} />
            {message.editedAt && <EditedMark at={message.editedAt} />}
          </div>
        )}
        {message.poll && <PollCard message={message} me={ctx.me} users={ctx.users} />}
        {!message.deleted && message.attachments.length > 0 && (
          <div className="attachments">
            {message.attachments.map((id) => (
              <Attachment key={id} fileId={id} onOpenImage={ctx.handlers.onOpenImage} />
            ))}
          </div>
        )}
        {!message.deleted && message.preview && (
          <LinkPreviewCard
            preview={message.preview}
            onRemove={mine ? () => void removeLinkPreview(message.id) : undefined}
          />
        )}
        {!message.deleted && message.reactions.length > 0 && (
          <div className="reactions">
            {message.reactions.map((r) => (
              <ReactionChip
                key={r.emoji}
                messageId={message.id}
                reaction={r}
                onToggle={() => ctx.handlers.onReact(message, r.emoji)}
              />
            ))}
          </div>
        )}
        {ctx.handlers.onOpenThread && (
          <ThreadSummaryLink message={message} onOpen={() => ctx.handlers.onOpenThread!(message)} />
        )}
      </div>
      {!message.deleted && !editing && (
        <div ref={actions} className="message-actions" role="toolbar" aria-label={t('keyboard.actions')}>
          <button
            type="button"
            aria-label={t('keyboard.action.react')}
            aria-expanded={picking}
            onClick={() => setPicking(!picking)}
          >
            <Icon name="smile" size={18} />
          </button>
          <RemindMeButton message={message} />
          <button type="button" aria-label={t('keyboard.action.reply')} onClick={() => ctx.handlers.onReply(message)}>
            <Icon name="reply" size={18} />
          </button>
          <MarkUnreadAction message={message} />
          {ctx.handlers.onOpenThread && !message.threadId && (
            <button
              type="button"
              aria-label={t('keyboard.action.thread')}
              onClick={() => ctx.handlers.onOpenThread!(message)}
            >
              <Icon name="thread" size={18} />
            </button>
          )}
          <ForwardButton message={message} />
          <CopyLinkButton message={message} onCopy={ctx.handlers.onCopyLink} />
          {ctx.handlers.onTogglePin && (
            <button
              type="button"
              aria-label={t(message.pinned ? 'keyboard.action.unpin' : 'keyboard.action.pin')}
              onClick={() => ctx.handlers.onTogglePin!(message)}
            >
              <Icon name="pin" size={18} />
            </button>
          )}
          <SaveButton message={message} />
          {mine && !message.poll && (
            <button type="button" aria-label={t('keyboard.action.edit')} onClick={() => startEditing(message.id)}>
              <Icon name="edit" size={18} />
            </button>
          )}
          {!mine && (
            <button
              type="button"
              aria-label={t('keyboard.action.report')}
              onClick={() => ctx.handlers.onReport(message)}
            >
              <Icon name="flag" size={18} />
            </button>
          )}
          {(mine || ctx.canModerate) && (
            <button
              type="button"
              aria-label={t('keyboard.action.delete')}
              onClick={() => {
                whenConfirmed({ message: 'shell.confirm.deleteMessage' }, () => {
                  ctx.handlers.onDelete(message);
                  // The Delete button goes with the message's text: on to the next message.
                  focusNextMessage(article.current);
                });
              }}
            >
              <Icon name="trash" size={18} />
            </button>
          )}
          {picking && (
            <ReactionPicker
              onPick={(emoji) => {
                setPicking(false);
                ctx.handlers.onReact(message, emoji);
              }}
            />
          )}
        </div>
      )}
    </article>
  );
}

function EditBox(props: { initial: string; onSave: (content: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(props.initial);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Escape ends the edit only: it does not also reach the message list.
      event.preventDefault();
      event.stopPropagation();
      props.onCancel();
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      if (value.trim()) props.onSave(value);
    }
  };
  return (
    <div className="edit-box">
      <textarea
        aria-label={t('keyboard.editMessage')}
        value={value}
        maxLength={4000}
        autoFocus
        // The caret at the end, as when typing on.
        onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="hint">{t('keyboard.editHint')}</div>
    </div>
  );
}

function PendingItem(props: {
  rowKey: string;
  pending: PendingMessage;
  author: PublicUser;
  first: boolean;
  ctx: ItemContext;
}) {
  const { pending, ctx } = props;
  const { t } = useTranslation();
  const name = displayName(props.author);
  const emote = emoteOf(pending.content);
  return (
    <article
      className={`message pending ${pending.status}`}
      data-testid="message"
      data-pending={pending.status}
      data-message-key={props.rowKey}
      aria-label={t(emote ? 'keyboard.message.emote' : 'keyboard.message', {
        name,
        at: new Date(pending.createdAt),
        text: plainText(emote ?? pending.content, NAME_MAX),
      })}
    >
      <div className="gutter">{props.first ? <Avatar user={props.author} /> : null}</div>
      <div className="message-main">
        <Header author={props.author} at={pending.createdAt} first={props.first} />
        {emote ? (
          <p className="content emote" data-testid="message-content">
            <em>
              {name} <RichText text={emote} inline />
            </em>
          </p>
        ) : (
          <div className="content" data-testid="message-content">
            <RichText text={pending.content} />
          </div>
        )}
        {pending.status === 'sending' ? (
          <div className="status">{t('keyboard.sending')}</div>
        ) : pending.status === 'queued' ? (
          <QueuedStatus onCancel={() => ctx.handlers.onDiscard(pending)} />
        ) : (
          <div className="status failed" role="alert">
            {pending.error ?? t('keyboard.notSent')} ·{' '}
            <button type="button" className="link" onClick={() => ctx.handlers.onRetry(pending)}>
              {t('keyboard.retry')}
            </button>{' '}
            ·{' '}
            <button type="button" className="link" onClick={() => ctx.handlers.onDiscard(pending)}>
              {t('keyboard.discard')}
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
