import { CustomEmojiScope } from '../emoji/CustomEmojiContext.tsx';
import type { Message, PublicUser } from '@im/protocol';
import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { dropCommandNote } from '../../state/command-sends.ts';
import { commandFor, commandSuggestions, loadCommands } from '../../state/commands.ts';
import {
  discardMessage,
  loadOlder,
  notifyTyping,
  retryMessage,
  sendCommand,
  sendMessage,
  setAtBottom,
  setViewedConverse,
} from '../../state/conversations.ts';
import { enterConverse, jumpToPresent, loadNewer, showingConverse, useCatchUp } from '../../state/catch-up.ts';
import { dismissEphemeral } from '../../state/ephemeral.ts';
import { JumpToPresent } from '../catch-up/JumpToPresent.tsx';
import { emptyConverse } from '../../state/messages.ts';
import { useStore } from '../../state/store.ts';
import { openThread, togglePin } from '../../state/threads.ts';
import { CommandNotes } from './commands/CommandNotes.tsx';
import { Composer, type ComposerHandle } from './Composer.tsx';
import { upload } from './upload.ts';
import { PollComposer } from './PollComposer.tsx';
import type { MessageHandlers } from './handlers.ts';
import { messageActions } from './message-actions.ts';
import { ImageViewer } from './ImageViewer.tsx';
import { MessageList } from './MessageList.tsx';
import { usePosting, type PostingInput } from './posting.ts';
import { ReportDialog } from './ReportDialog.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';
import { SeenBy } from '../receipts/SeenBy.tsx';
import { scheduleMessage } from '../../state/scheduled.ts';
import { ScheduledHint } from '../scheduled/ScheduledHint.tsx';
import { draftOf, saveDraft } from '../../state/drafts.ts';
import { openPermalink, permalinkIn } from '../../state/permalinks.ts';
import { lastEditable, startEditing } from './editing.ts';

const EMPTY = emptyConverse();

/**
 * One open converse: its messages (with answers only I see), who is typing,
 * my running commands, and the composer. Mount one per converse (key it by id).
 */
export function ConverseView(props: {
  converseId: string;
  /** The group of a panel: its slash commands are offered and sent as commands. */
  groupId?: string;
  title: string;
  members: readonly PublicUser[];
  canModerate: boolean;
  /** Group admins, or either member of a DM: Pin / Unpin is offered. */
  canPin?: boolean;
  /** My role, the panel's posting role and my mute: whether the composer is offered. */
  posting?: PostingInput;
}) {
  const { converseId } = props;
  const { t } = useTranslation();
  const me = useStore((s) => s.me)!;
  const users = useStore((s) => s.users);
  const converse = useStore((s) => s.converses[converseId]) ?? EMPTY;
  const ephemeral = useStore((s) => s.ephemeral[converseId]);
  const notes = useStore((s) => s.commandNotes[converseId]);
  const groupCommands = useStore((s) => (props.groupId ? s.commands[props.groupId] : undefined));
  const suggestions = useMemo(() => commandSuggestions(groupCommands), [groupCommands]);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [reporting, setReporting] = useState<Message | null>(null);
  const [polling, setPolling] = useState(false);
  const posting = usePosting(props.posting ?? {});
  const composer = useRef<ComposerHandle>(null);

  const place = useCatchUp((s) => s.places[converseId]);
  const firstUnreadSeq = useCatchUp((s) => s.dividers[converseId]);
  // Whether the newest messages are in view: when not, "Jump to present" is offered.
  const [atBottom, setAtBottomShown] = useState(true);
  useEffect(() => setAtBottomShown(!place?.focus), [place]);
  // Away from the newest, what arrives is not read: the unread count is what waits below.
  const waiting = useStore((s) => s.unread[converseId]?.unread ?? 0);

  // Once per visit (StrictMode runs effects twice): it decides where the list opens.
  const entered = useRef(false);
  useEffect(() => {
    setViewedConverse(converseId);
    showingConverse(converseId);
    if (!entered.current) {
      entered.current = true;
      void enterConverse(converseId);
    }
    return () => {
      setViewedConverse(null);
      showingConverse(null);
    };
  }, [converseId]);

  const { groupId } = props;
  useEffect(() => {
    if (groupId) void loadCommands(groupId);
  }, [groupId]);

  const handlers = useMemo<MessageHandlers>(
    () => ({
      onLoadOlder: () => void loadOlder(converseId),
      onAtBottomChange: (bottom) => {
        setAtBottomShown(bottom);
        setAtBottom(converseId, bottom);
      },
      ...messageActions({ composer, setReplyTo, setReporting, setViewing }),
      onRetry: (pending) => retryMessage(converseId, pending.clientMsgId),
      onDiscard: (pending) => discardMessage(converseId, pending.clientMsgId),
      onDismissEphemeral: (message) => dismissEphemeral(converseId, message.id),
      onOpenThread: (message) => void openThread(converseId, message.id),
      ...(props.canPin ? { onTogglePin: (message: Message) => void togglePin(message) } : {}),
    }),
    [converseId, props.canPin],
  );
  // Thread replies stay in the converse's history (sync counts seqs) but show only in the thread pane.
  const timeline = useMemo(() => converse.items.filter((m) => !m.threadId), [converse.items]);

  return (
    <CustomEmojiScope converseId={converseId}>
      <section
        className="converse"
        aria-label={props.title}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          composer.current?.addFiles([...e.dataTransfer.files]);
        }}
        onClick={openPermalinkClicked}
      >
        <MessageList
          key={place?.token ?? 0}
          firstUnreadSeq={firstUnreadSeq}
          focus={place?.focus}
          hasNewer={converse.hasNewer}
          onLoadNewer={() => void loadNewer(converseId)}
          messages={timeline}
          pending={converse.pending}
          ephemeral={ephemeral}
          me={me}
          users={users}
          canModerate={props.canModerate}
          hasOlder={converse.hasOlder}
          loadingOlder={converse.loadingOlder}
          handlers={handlers}
        />
        {!converse.hasNewer && <SeenBy converseId={converseId} messages={converse.items} me={me} users={users} />}
        {(!atBottom || converse.hasNewer) && converse.items.length > 0 && (
          <JumpToPresent count={waiting} onJump={() => void jumpToPresent(converseId)} />
        )}
        <TypingIndicator converseId={converseId} />
        <ScheduledHint converseId={converseId} />
        <CommandNotes notes={notes} onDismiss={(note) => dropCommandNote(converseId, note.id)} />
        {posting.mode === 'read-only' ? (
          <p className="composer-locked" role="status" data-testid="composer-locked">
            {posting.text}
          </p>
        ) : (
          <Composer
            ref={composer}
            disabled={posting.mode === 'muted'}
            notice={posting.mode === 'muted' ? posting.text : undefined}
            placeholder={t('timeline.composerPlaceholder', { name: props.title })}
            members={props.members}
            commands={suggestions}
            me={me}
            users={users}
            replyTo={replyTo}
            initialDraft={draftOf(converseId)}
            onDraftChange={(draft) => saveDraft(converseId, draft)}
            onCancelReply={() => setReplyTo(null)}
            onSend={(content, extra) => {
              // Attachments do not go to a command: text with files is sent as a message.
              const command = extra.attachments.length === 0 ? commandFor(content, groupCommands) : undefined;
              if (command) sendCommand(converseId, content, command);
              else sendMessage(converseId, content, extra);
            }}
            onSendLater={(content, extra, at) => void scheduleMessage(converseId, content, extra, at)}
            onTyping={() => notifyTyping(converseId)}
            upload={upload}
            onPoll={() => setPolling(true)}
            onEditLast={() => {
              const last = lastEditable(timeline, me.id);
              if (last) startEditing(last.id, document.activeElement as HTMLElement | null);
              return last !== undefined;
            }}
          />
        )}
        {reporting && (
          <ReportDialog message={reporting} author={users[reporting.authorId]} onClose={() => setReporting(null)} />
        )}
        {polling && <PollComposer converseId={converseId} onClose={() => setPolling(false)} />}
        {viewing && <ImageViewer fileId={viewing} onClose={() => setViewing(null)} />}
      </section>
    </CustomEmojiScope>
  );
}

/** A permalink of this app clicked in a message opens here, at its message, rather than in a new tab. */
function openPermalinkClicked(event: MouseEvent<HTMLElement>): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const anchor = (event.target as Element).closest?.('a[href]');
  const link = anchor ? permalinkIn(anchor.getAttribute('href')!) : null;
  if (!link) return;
  event.preventDefault();
  void openPermalink(link.converseId, link.messageId, false);
}
