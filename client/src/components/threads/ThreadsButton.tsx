import './threads.css';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  const followed = useThreads((s) => s.followed);
  const users = useStore((s) => s.users);
  const unread = followed?.reduce((n, entry) => n + entry.unread, 0) ?? 0;

  // Loaded once, so new replies raise the count even before the list is opened.
  useEffect(() => {
    if (useThreads.getState().followed === null) void loadFollowed();
  }, []);

  return (
    <div ref={ref} className="popover-anchor">
      <button
        type="button"
        className="icon-button"
        aria-label={unread > 0 ? t('threads.buttonUnread', { count: unread }) : t('threads.title')}
        aria-expanded={open}
        title={t('threads.title')}
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
        <div className="popover threads-popover" role="dialog" aria-label={t('threads.title')}>
          <h2>{t('threads.title')}</h2>
          {followed === null ? (
            <p className="hint">{t('common.loading')}</p>
          ) : followed.length === 0 ? (
            <p className="hint">{t('threads.none')}</p>
          ) : (
            <ul>
              {followed.map((entry) => (
                <li key={entry.root.id}>
                  <button
                    type="button"
                    className="popover-item"
                    data-testid="followed-thread"
                    onClick={() => {
                      setOpen(false);
                      navigate(placeOf(entry.converseId, getState()).route);
                      void openThread(entry.converseId, entry.root.id);
                    }}
                  >
                    <span className="popover-item-head">
                      <span className="author">{entry.root.username ?? displayName(users[entry.root.authorId])}</span>
                      <time dateTime={entry.lastReplyAt}>{formatTime(entry.lastReplyAt)}</time>
                      {entry.unread > 0 && <span className="badge">{entry.unread}</span>}
                    </span>
                    <span className="popover-item-text">
                      {entry.root.deleted ? t('threads.deletedRoot') : plainText(entry.root.content, 160)}
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
