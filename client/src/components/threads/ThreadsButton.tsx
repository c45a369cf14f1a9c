import './threads.css';
import { plainText } from '@im/markdown';
import { useEffect } from 'react';
import { navigate } from '../../state/navigation.ts';
import { placeOf } from '../../state/search.ts';
import { getState, useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { loadFollowed, openThread, useThreads } from '../../state/threads.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { formatTime } from '../messages/format.ts';

/** The header's "Threads": the threads I follow with their unread replies; one opens in the pane. */
export function ThreadsButton() {
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  const followed = useThreads((s) => s.followed);
  const users = useStore((s) => s.users);
  const unread = followed?.reduce((n, t) => n + t.unread, 0) ?? 0;

  // Loaded once, so new replies raise the count even before the list is opened.
  useEffect(() => {
    if (useThreads.getState().followed === null) void loadFollowed();
  }, []);

  return (
    <div ref={ref} className="popover-anchor">
      <button
        type="button"
        className="icon-button"
        aria-label={unread > 0 ? `Threads, ${unread} unread` : 'Threads'}
        aria-expanded={open}
        title="Threads"
        onClick={() => {
          if (!open) void loadFollowed();
          setOpen(!open);
        }}
      >
        <Icon name="thread" />
        {unread > 0 && (
          <span className="badge" data-testid="threads-unread">
            {unread}
          </span>
        )}
      </button>
      {open && (
        <div className="popover threads-popover" role="dialog" aria-label="Threads">
          <h2>Threads</h2>
          {followed === null ? (
            <p className="hint">Loading…</p>
          ) : followed.length === 0 ? (
            <p className="hint">No threads yet. Reply in a thread to follow it.</p>
          ) : (
            <ul>
              {followed.map((t) => (
                <li key={t.root.id}>
                  <button
                    type="button"
                    className="popover-item"
                    data-testid="followed-thread"
                    onClick={() => {
                      setOpen(false);
                      navigate(placeOf(t.converseId, getState()).route);
                      void openThread(t.converseId, t.root.id);
                    }}
                  >
                    <span className="popover-item-head">
                      <span className="author">{t.root.username ?? displayName(users[t.root.authorId])}</span>
                      <time dateTime={t.lastReplyAt}>{formatTime(t.lastReplyAt)}</time>
                      {t.unread > 0 && <span className="badge">{t.unread}</span>}
                    </span>
                    <span className="popover-item-text">
                      {t.root.deleted ? 'Deleted message' : plainText(t.root.content, 160)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
