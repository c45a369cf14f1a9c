import './threads.css';
import type { Message, PublicUser } from '@im/protocol';
import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useStore } from '../../state/store.ts';
import { closeThread, sendThreadReply, useThreads } from '../../state/threads.ts';
import { Icon } from '../common/Icon.tsx';
import { AuthorName } from '../messages/AuthorName.tsx';
import { formatTime } from '../messages/format.ts';
import { RichText } from '../messages/RichText.tsx';
import { api } from '../../api/api.ts';

const NO_REPLIES: Message[] = [];

/** The open thread beside the converse: its root, its replies, and a composer that replies in it. */
export function ThreadPane(props: { converseId: string }) {
  const open = useThreads((s) => s.open);
  const replies = useThreads((s) => (open ? s.replies[open.rootId] : undefined)) ?? NO_REPLIES;
  const held = useStore((s) =>
    open ? s.converses[open.converseId]?.items.find((m) => m.id === open.rootId) : undefined,
  );
  const followedRoot = useThreads((s) => s.followed?.find((t) => t.root.id === open?.rootId)?.root);
  const users = useStore((s) => s.users);
  const [fetched, setFetched] = useState<Message | null>(null);
  const root = held ?? followedRoot ?? (fetched?.id === open?.rootId ? fetched : undefined);
  const rootId = open?.rootId;

  // A root that is not among the messages held (opened from the threads list) is asked for.
  useEffect(() => {
    if (!rootId || held || followedRoot) return;
    let live = true;
    api.call('chat.getMessage', { messageId: rootId }).then(
      (m) => live && setFetched(m),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [rootId, held, followedRoot]);

  // A thread belongs beside its own converse: it shows again on the way back there.
  if (!open || open.converseId !== props.converseId) return null;
  return (
    <aside className="thread-pane" aria-label="Thread" data-testid="thread-pane">
      <header className="thread-pane-head">
        <h2>Thread</h2>
        <button type="button" className="icon-button" aria-label="Close thread" onClick={closeThread}>
          <Icon name="close" />
        </button>
      </header>
      <div className="thread-pane-body">
        {root ? <ThreadMessage message={root} users={users} root /> : <p className="hint">Loading…</p>}
        <p className="thread-count hint">{replies.length === 1 ? '1 reply' : `${replies.length} replies`}</p>
        <ol className="thread-replies">
          {replies.map((m) => (
            <li key={m.id}>
              <ThreadMessage message={m} users={users} />
            </li>
          ))}
        </ol>
      </div>
      <ThreadComposer key={open.rootId} converseId={open.converseId} rootId={open.rootId} />
    </aside>
  );
}

function ThreadMessage(props: { message: Message; users: Record<string, PublicUser>; root?: boolean }) {
  const { message } = props;
  const author = props.users[message.authorId];
  return (
    <article
      className={`thread-message${props.root ? ' thread-root' : ''}`}
      data-testid={props.root ? 'thread-root' : 'thread-reply'}
    >
      <div className="message-head">
        <AuthorName author={author} username={message.username} />
        <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
      </div>
      {message.deleted ? (
        <p className="content tombstone">This message was deleted.</p>
      ) : (
        <div className="content">
          <RichText text={message.content} />
        </div>
      )}
    </article>
  );
}

function ThreadComposer(props: { converseId: string; rootId: string }) {
  const [value, setValue] = useState('');
  const [sending, setSending] = useState(false);
  const send = async () => {
    const content = value.trim();
    if (!content || sending) return;
    setSending(true);
    if (await sendThreadReply(props.converseId, props.rootId, content)) setValue('');
    setSending(false);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <form className="thread-composer" onSubmit={onSubmit}>
      <textarea
        aria-label="Reply in thread"
        placeholder="Reply…"
        value={value}
        maxLength={4000}
        rows={2}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="primary" disabled={sending || !value.trim()} aria-label="Send reply">
        <Icon name="send" size={18} />
      </button>
    </form>
  );
}
