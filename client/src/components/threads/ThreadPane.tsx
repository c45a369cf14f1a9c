import './threads.css';
import { useTranslation } from 'react-i18next';
import type { Message, PublicUser } from '@im/protocol';
import { useEffect, useMemo, useRef, useState } from 'react';
import { notifyTyping } from '../../state/conversations.ts';
import { draftOf, saveDraft, threadDraftKey } from '../../state/drafts.ts';
import { useStore } from '../../state/store.ts';
import { closeThread, sendThreadReply, useThreads } from '../../state/threads.ts';
import { Icon } from '../common/Icon.tsx';
import { CustomEmojiScope } from '../emoji/CustomEmojiContext.tsx';
import { Composer, type ComposerHandle } from '../messages/Composer.tsx';
import type { MessageHandlers } from '../messages/handlers.ts';
import { messageActions } from '../messages/message-actions.ts';
import { ImageViewer } from '../messages/ImageViewer.tsx';
import { MessageItem, type ItemContext } from '../messages/MessageItem.tsx';
import { ReportDialog } from '../messages/ReportDialog.tsx';
import { buildRows } from '../messages/rows.ts';
import { lastEditable, startEditing } from '../messages/editing.ts';
import { upload } from '../messages/upload.ts';
import { useMessageRoving } from '../messages/useMessageRoving.ts';
import { api } from '../../api/api.ts';

const NO_REPLIES: Message[] = [];
const ignore = (): void => undefined;

export interface ThreadPaneProps {
  converseId: string;
  /** Whom `@` offers in the thread's composer: the converse's members. */
  members: readonly PublicUser[];
  /** Group owner or admin: may delete anyone's reply. */
  canModerate: boolean;
}

/** The open thread beside its converse, or nothing. */
export function ThreadPane(props: ThreadPaneProps) {
  const open = useThreads((s) => s.open);
  // A thread belongs beside its own converse: it shows again on the way back there.
  if (!open || open.converseId !== props.converseId) return null;
  return <OpenThread key={open.rootId} {...props} rootId={open.rootId} />;
}

/**
 * One thread: its root and replies drawn by the timeline's message component
 * (actions, files, reactions, previews), and the timeline's composer, which
 * sends into the thread. Keyed by root, so a reply quoted or an image open
 * in one thread does not carry over to the next.
 */
function OpenThread(props: ThreadPaneProps & { rootId: string }) {
  const { t } = useTranslation();
  const { converseId, rootId } = props;
  const me = useStore((s) => s.me)!;
  const users = useStore((s) => s.users);
  const replies = useThreads((s) => s.replies[rootId]) ?? NO_REPLIES;
  const held = useStore((s) => s.converses[converseId]?.items.find((m) => m.id === rootId));
  const followedRoot = useThreads((s) => s.followed?.find((t) => t.root.id === rootId)?.root);
  const [fetched, setFetched] = useState<Message | null>(null);
  const root = held ?? followedRoot ?? fetched ?? undefined;
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [reporting, setReporting] = useState<Message | null>(null);
  // Bumped when a send fails: the composer comes back with the text that did not go.
  const [attempt, setAttempt] = useState(0);
  const composer = useRef<ComposerHandle>(null);
  // The root and its replies are one Tab stop, arrows between them, as the timeline.
  const roving = useMessageRoving();

  // A root that is not among the messages held (opened from the threads list) is asked for.
  useEffect(() => {
    if (held || followedRoot) return;
    let live = true;
    api.call('chat.getMessage', { messageId: rootId }).then(
      (m) => live && setFetched(m),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [rootId, held, followedRoot]);

  const handlers = useMemo<MessageHandlers>(
    () => ({
      ...messageActions({ composer, setReplyTo, setReporting, setViewing }),
      // The pane holds no pending copies, answers only I see, or pages to load:
      // a reply shows once the server stored it. No onOpenThread: replies do not
      // start threads, and the root's thread is this one.
      onLoadOlder: ignore,
      onAtBottomChange: ignore,
      onRetry: ignore,
      onDiscard: ignore,
      onDismissEphemeral: ignore,
    }),
    [],
  );
  const ctx = useMemo<ItemContext>(
    () => ({ me, users, canModerate: props.canModerate, handlers }),
    [me, users, props.canModerate, handlers],
  );
  const rootRow = useMemo(() => (root ? buildRows([root], [], me.id)[0] : undefined), [root, me.id]);
  const rows = useMemo(() => buildRows(replies, [], me.id), [replies, me.id]);
  const draftKey = threadDraftKey(rootId);
  // Counted as the root's summary counts them: a deleted reply stays in place but no longer counts.
  const count = replies.filter((m) => !m.deleted).length;

  return (
    <CustomEmojiScope converseId={converseId}>
      <aside className="thread-pane" aria-label={t('threads.thread')} data-testid="thread-pane">
        <header className="thread-pane-head">
          <h2>{t('threads.thread')}</h2>
          <button type="button" className="icon-button" aria-label={t('threads.close')} onClick={closeThread}>
            <Icon name="close" />
          </button>
        </header>
        <div className="thread-pane-body" ref={roving.scrollerRef}>
          {rootRow ? (
            <div className="thread-root" data-testid="thread-root">
              <MessageItem row={rootRow} ctx={ctx} />
            </div>
          ) : (
            <p className="hint">{t('common.loading')}</p>
          )}
          <p className="thread-count hint">{t('threads.replies', { count })}</p>
          <ol className="thread-replies">
            {rows.map((row) => (
              <li key={row.key} data-testid="thread-reply">
                <MessageItem row={row} ctx={ctx} />
              </li>
            ))}
          </ol>
        </div>
        <Composer
          key={attempt}
          ref={composer}
          label={t('threads.replyLabel')}
          placeholder={t('threads.replyPlaceholder')}
          members={props.members}
          me={me}
          users={users}
          replyTo={replyTo}
          initialDraft={draftOf(draftKey)}
          onDraftChange={(draft) => saveDraft(draftKey, draft)}
          onCancelReply={() => setReplyTo(null)}
          onSend={(content, extra) => {
            void sendThreadReply(converseId, rootId, content, extra).then((sent) => {
              if (sent) return;
              saveDraft(draftKey, content);
              setAttempt((n) => n + 1);
            });
          }}
          onTyping={() => notifyTyping(converseId)}
          upload={upload}
          onEditLast={() => {
            const last = lastEditable(replies, me.id);
            if (last) startEditing(last.id, document.activeElement as HTMLElement | null);
            return last !== undefined;
          }}
        />
        {reporting && (
          <ReportDialog message={reporting} author={users[reporting.authorId]} onClose={() => setReporting(null)} />
        )}
        {viewing && <ImageViewer fileId={viewing} onClose={() => setViewing(null)} />}
      </aside>
    </CustomEmojiScope>
  );
}
