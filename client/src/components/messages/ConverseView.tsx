import type { Message, PublicUser } from '@im/protocol';
import { useEffect, useMemo, useRef, useState } from 'react';
import { http } from '../../api/http.ts';
import { uploadFile } from '../../api/upload.ts';
import {
  deleteMessage,
  discardMessage,
  editMessage,
  loadOlder,
  notifyTyping,
  openConverse,
  retryMessage,
  sendMessage,
  setAtBottom,
  setViewedConverse,
  toggleReaction,
} from '../../state/conversations.ts';
import { rememberFile } from '../../state/files.ts';
import { emptyConverse } from '../../state/messages.ts';
import { useStore } from '../../state/store.ts';
import { Composer, type ComposerHandle, type Uploader } from './Composer.tsx';
import type { MessageHandlers } from './handlers.ts';
import { ImageViewer } from './ImageViewer.tsx';
import { MessageList } from './MessageList.tsx';
import { usePosting, type PostingInput } from './posting.ts';
import { ReportDialog } from './ReportDialog.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';

const drafts = new Map<string, string>();
const EMPTY = emptyConverse();

const upload: Uploader = (file, onProgress) => {
  const handle = uploadFile(file, http.getToken(), onProgress);
  // Known at once, so the sent message shows the file without asking for it.
  void handle.promise.then(rememberFile, () => undefined);
  return handle;
};

/** One open converse: its messages, who is typing, and the composer. Mount one per converse (key it by id). */
export function ConverseView(props: {
  converseId: string;
  title: string;
  members: readonly PublicUser[];
  canModerate: boolean;
  /** My role, the panel's posting role and my mute: whether the composer is offered. */
  posting?: PostingInput;
}) {
  const { converseId } = props;
  const me = useStore((s) => s.me)!;
  const users = useStore((s) => s.users);
  const converse = useStore((s) => s.converses[converseId]) ?? EMPTY;
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [reporting, setReporting] = useState<Message | null>(null);
  const posting = usePosting(props.posting ?? {});
  const composer = useRef<ComposerHandle>(null);

  useEffect(() => {
    setViewedConverse(converseId);
    void openConverse(converseId);
    return () => setViewedConverse(null);
  }, [converseId]);

  const handlers = useMemo<MessageHandlers>(
    () => ({
      onLoadOlder: () => void loadOlder(converseId),
      onAtBottomChange: (atBottom) => setAtBottom(converseId, atBottom),
      onReact: (message, emoji) => void toggleReaction(message, emoji),
      onReply: (message) => {
        setReplyTo(message);
        composer.current?.focus();
      },
      onEdit: (message, content) => editMessage(message, content),
      onDelete: (message) => void deleteMessage(message),
      onReport: (message) => setReporting(message),
      onRetry: (pending) => retryMessage(converseId, pending.clientMsgId),
      onDiscard: (pending) => discardMessage(converseId, pending.clientMsgId),
      onOpenImage: (fileId) => setViewing(fileId),
    }),
    [converseId],
  );

  return (
    <section
      className="converse"
      aria-label={props.title}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        composer.current?.addFiles([...e.dataTransfer.files]);
      }}
    >
      <MessageList
        messages={converse.items}
        pending={converse.pending}
        me={me}
        users={users}
        canModerate={props.canModerate}
        hasOlder={converse.hasOlder}
        loadingOlder={converse.loadingOlder}
        handlers={handlers}
      />
      <TypingIndicator converseId={converseId} />
      {posting.mode === 'read-only' ? (
        <p className="composer-locked" role="status" data-testid="composer-locked">
          {posting.text}
        </p>
      ) : (
        <Composer
          ref={composer}
          disabled={posting.mode === 'muted'}
          notice={posting.mode === 'muted' ? posting.text : undefined}
          placeholder={`Message ${props.title}`}
          members={props.members}
          me={me}
          users={users}
          replyTo={replyTo}
          initialDraft={drafts.get(converseId)}
          onDraftChange={(draft) => drafts.set(converseId, draft)}
          onCancelReply={() => setReplyTo(null)}
          onSend={(content, extra) => sendMessage(converseId, content, extra)}
          onTyping={() => notifyTyping(converseId)}
          upload={upload}
        />
      )}
      {reporting && (
        <ReportDialog message={reporting} author={users[reporting.authorId]} onClose={() => setReporting(null)} />
      )}
      {viewing && <ImageViewer fileId={viewing} onClose={() => setViewing(null)} />}
    </section>
  );
}
