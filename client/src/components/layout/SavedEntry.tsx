import '../messages/poll.css';
import { plainText } from '@im/markdown';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { openResult, placeOf } from '../../state/search.ts';
import { loadSaved, useSaved } from '../../state/saved.ts';
import { getState, useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { formatMoment } from '../messages/format.ts';

/** The sidebar's "Saved": my saved messages, newest saved first; one click jumps to the message. */
export function SavedEntry() {
  const { t } = useTranslation();
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  const items = useSaved((s) => s.items);
  const more = useSaved((s) => s.nextCursor !== null);
  const users = useStore((s) => s.users);

  // Loaded once, so "Save" / "Remove from saved" know what is saved before the list is opened.
  useEffect(() => {
    if (useSaved.getState().items === null) void loadSaved();
  }, []);

  return (
    <div ref={ref} className="saved-entry popover-anchor">
      <button
        type="button"
        className="saved-toggle"
        aria-expanded={open}
        onClick={() => {
          if (!open) void loadSaved();
          setOpen(!open);
        }}
      >
        <Icon name="bookmark" size={18} /> {t('saved.entry')}
      </button>
      {open && (
        <div className="popover saved-popover" role="dialog" aria-label={t('saved.title')}>
          <h2>{t('saved.title')}</h2>
          {items === null ? (
            <p className="hint">{t('common.loading')}</p>
          ) : items.length === 0 ? (
            <p className="hint">{t('saved.empty')}</p>
          ) : (
            <ul className="saved-list">
              {items.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    className="popover-item"
                    data-testid="saved-message"
                    onClick={() => {
                      setOpen(false);
                      openResult(m, getState());
                    }}
                  >
                    <span className="popover-item-head">
                      <span className="author">{m.username ?? displayName(users[m.authorId])}</span>
                      <span className="hint">{placeOf(m.converseId, getState()).label}</span>
                      <time dateTime={m.createdAt}>{formatMoment(m.createdAt)}</time>
                    </span>
                    <span className="popover-item-text">{plainText(m.content, 160)}</span>
                  </button>
                </li>
              ))}
              {more && (
                <li>
                  <button type="button" className="link" onClick={() => void loadSaved(true)}>
                    {t('saved.more')}
                  </button>
                </li>
              )}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
