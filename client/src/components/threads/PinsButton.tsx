import { useTranslation } from 'react-i18next';
import { plainText } from '@im/markdown';
import './threads.css';
import type { Message } from '@im/protocol';
import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { jumpToMessage } from '../../state/catch-up.ts';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { loadPins } from '../../state/threads.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';

/** The header's pins: the converse's pinned messages, newest pin first; one click jumps to it. */
export function PinsButton(props: { converseId: string }) {
  const { t } = useTranslation();
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  return (
    <div ref={ref} className="popover-anchor">
      <button
        type="button"
        className="icon-button"
        aria-label={t('threads.pins')}
        aria-expanded={open}
        title={t('threads.pins')}
        onClick={() => setOpen(!open)}
      >
        <Icon name="pin" />
      </button>
      {open && <PinsPopover converseId={props.converseId} onClose={() => setOpen(false)} />}
    </div>
  );
}

export function PinsPopover(props: { converseId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { converseId } = props;
  const [pins, setPins] = useState<Message[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const users = useStore((s) => s.users);
  // Pins change while it is open (someone pins): the held messages say which are still pinned.
  const held = useStore((s) => s.converses[converseId]?.items);

  useEffect(() => {
    let live = true;
    loadPins(converseId).then(
      (list) => live && setPins(list),
      (err: unknown) => live && setError(describeError(err)),
    );
    return () => {
      live = false;
    };
  }, [converseId]);

  const shown = pins?.filter((p) => {
    const now = held?.find((m) => m.id === p.id);
    return !now || (now.pinned && !now.deleted);
  });
  return (
    <div className="popover pins-popover" role="dialog" aria-label={t('threads.pins')}>
      <h2>{t('threads.pins')}</h2>
      {error ? (
        <p className="error">{error}</p>
      ) : shown === undefined ? (
        <p className="hint">{t('common.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="hint">{t('threads.noPins')}</p>
      ) : (
        <ul>
          {shown.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="popover-item"
                data-testid="pinned-message"
                onClick={() => {
                  props.onClose();
                  void jumpToMessage(converseId, m.seq);
                }}
              >
                <span className="popover-item-head">
                  <span className="author">{m.username ?? displayName(users[m.authorId])}</span>
                </span>
                <span className="popover-item-text">{plainText(m.content, 160)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
