import type { Notification } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../../i18n/locales/en/index.ts';
import { describeError } from '../../api/errors.ts';
import { loadInbox, markEntryRead, markInboxRead, useAttention } from '../../state/attention.ts';
import { jumpToMessage } from '../../state/catch-up.ts';
import { formatTime } from '../messages/format.ts';
import { navigate } from '../../state/navigation.ts';
import { placeOf } from '../../state/search.ts';
import { notify, useStore } from '../../state/store.ts';
import { displayName, ensureUsers } from '../../state/users.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import './attention.css';

/** Why an entry is in the inbox, as a sentence about its author. */
const WHY: Record<Notification['type'], MessageKey> = {
  mention: 'attention.why.mention',
  reply: 'attention.why.reply',
  reminder: 'attention.why.reminder',
  dm: 'attention.why.dm',
};

/** The top bar's bell: how many inbox entries I have not read; opens the inbox. */
export function InboxBell() {
  const { t } = useTranslation();
  const unread = useAttention((s) => s.inboxUnread);
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  return (
    <div ref={ref} className="popover-anchor inbox-bell">
      <button
        type="button"
        className="icon-button"
        aria-label={unread > 0 ? t('attention.inbox.unread', { count: unread }) : t('attention.inbox')}
        aria-expanded={open}
        title={t('attention.inbox')}
        data-testid="inbox-bell"
        onClick={() => setOpen(!open)}
      >
        <Icon name="bell" />
        {unread > 0 && (
          <span className="badge mention" data-testid="inbox-count">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && <InboxPopover onClose={() => setOpen(false)} />}
    </div>
  );
}

/** Mentions, replies in threads I follow, reminders and missed DMs, newest first; one click jumps to the message. */
export function InboxPopover(props: { onClose: () => void }) {
  const { t } = useTranslation();
  const items = useAttention((s) => s.inbox);
  const unread = useAttention((s) => s.inboxUnread);
  const app = useStore((s) => s);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    loadInbox().catch((err: unknown) => setError(describeError(err)));
  }, []);
  useEffect(() => {
    if (items) ensureUsers(items.map((n) => n.authorId));
  }, [items]);

  const open = (entry: Notification) => {
    props.onClose();
    // Asked for before the view opens, so it opens at the message rather than at the unread.
    void jumpToMessage(entry.converseId, entry.seq);
    navigate(placeOf(entry.converseId, app).route);
    void markEntryRead(entry).catch(() => undefined);
  };

  return (
    <div className="popover inbox-popover" role="dialog" aria-label={t('attention.inbox')}>
      <header className="inbox-head">
        <h2>{t('attention.inbox')}</h2>
        <button
          type="button"
          className="link-button"
          disabled={unread === 0}
          data-testid="inbox-mark-all-read"
          onClick={() => void markInboxRead().catch((err: unknown) => notify(describeError(err)))}
        >
          {t('attention.markAllRead')}
        </button>
      </header>
      {error ? (
        <p className="error">{error}</p>
      ) : items === null ? (
        <p className="hint">{t('common.loading')}</p>
      ) : items.length === 0 ? (
        <p className="hint">{t('attention.inbox.empty')}</p>
      ) : (
        <ul>
          {items.map((n) => {
            const author = app.users[n.authorId];
            return (
              <li key={n.id}>
                <button
                  type="button"
                  className={n.read ? 'popover-item' : 'popover-item unread'}
                  data-testid="inbox-entry"
                  data-type={n.type}
                  onClick={() => open(n)}
                >
                  <span className="popover-item-head">
                    <span className={n.type === 'reminder' ? 'author' : undefined}>
                      {t(WHY[n.type], { author: displayName(author, '…') })}
                    </span>
                    <span className="inbox-where"> · {placeOf(n.converseId, app).label}</span>
                    <time dateTime={n.createdAt}> · {formatTime(n.createdAt)}</time>
                  </span>
                  <span className="popover-item-text">{n.preview}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
