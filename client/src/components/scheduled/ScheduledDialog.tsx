import type { ScheduledEntry } from '@im/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t as translate } from '../../i18n/i18n.ts';
import {
  cancelScheduled,
  formatWhen,
  openScheduled,
  sendScheduledNow,
  updateScheduled,
  useScheduled,
} from '../../state/scheduled.ts';
import { useStore } from '../../state/store.ts';
import { Dialog } from '../common/Dialog.tsx';
import { Icon } from '../common/Icon.tsx';
import { fromLocalInput, toLocalInput } from '../messages/later-times.ts';
import { whenConfirmed } from '../common/confirm.ts';

/** Where a scheduled message goes, as I know the converse ("Group › #panel", a DM's other member). */
function useConverseName(converseId: string): string {
  return useStore((s) => {
    for (const group of Object.values(s.groups)) {
      const panel = group.panels.find((p) => p.converseId === converseId);
      if (panel) return translate('account.feeds.panel', { group: group.name, panel: panel.name });
    }
    const dm = s.dms[converseId];
    const other = dm?.memberIds.find((id) => id !== s.me?.id);
    const user = other ? s.users[other] : undefined;
    return user ? `@${user.username}` : translate('scheduled.someConverse');
  });
}

function ScheduledRow(props: { entry: ScheduledEntry }) {
  const { t } = useTranslation();
  const { entry } = props;
  const where = useConverseName(entry.converseId);
  const [editing, setEditing] = useState(false);
  const [content, setContent] = useState(entry.content);
  const [when, setWhen] = useState(toLocalInput(new Date(entry.sendAt)));
  const save = async () => {
    const at = fromLocalInput(when);
    const moved = at && at.getTime() !== new Date(entry.sendAt).getTime() ? at : undefined;
    const changed = content !== entry.content ? content : undefined;
    if (moved || changed !== undefined || entry.status === 'failed') {
      const ok = await updateScheduled(entry.id, {
        ...(changed !== undefined ? { content: changed } : {}),
        ...(moved ? { sendAt: moved } : {}),
      });
      if (!ok) return;
    }
    setEditing(false);
  };
  return (
    <li className={`scheduled-row ${entry.status}`} data-testid="scheduled-row">
      <div className="scheduled-meta">
        <strong>{formatWhen(new Date(entry.sendAt))}</strong> · {where}
        {entry.status === 'failed' && (
          <span className="error"> · {t('scheduled.row.notSent', { reason: entry.failure ?? '' })}</span>
        )}
      </div>
      {editing ? (
        <form
          className="scheduled-edit"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <textarea aria-label={t('scheduled.row.text')} value={content} onChange={(e) => setContent(e.target.value)} />
          <input
            type="datetime-local"
            aria-label={t('scheduled.row.sendAt')}
            value={when}
            min={toLocalInput(new Date())}
            onChange={(e) => setWhen(e.target.value)}
          />
          <button type="submit" className="primary" disabled={!content.trim()}>
            {t('common.save')}
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            {t('scheduled.row.back')}
          </button>
        </form>
      ) : (
        <p className="scheduled-content">{entry.content}</p>
      )}
      {!editing && (
        <div className="scheduled-actions">
          <button type="button" onClick={() => setEditing(true)}>
            {t('scheduled.row.edit')}
          </button>
          <button type="button" onClick={() => void sendScheduledNow(entry)}>
            {t('scheduled.row.sendNow')}
          </button>
          <button
            type="button"
            className="danger"
            onClick={() =>
              whenConfirmed({ message: 'shell.confirm.cancelScheduled', confirm: 'shell.confirm.cancelMessage' }, () =>
                cancelScheduled(entry),
              )
            }
          >
            {t('scheduled.row.cancel')}
          </button>
        </div>
      )}
    </li>
  );
}

/** My scheduled messages: change the text or time, send now, cancel. */
export function ScheduledDialogHost() {
  const { t } = useTranslation();
  const { open, items, loaded } = useScheduled();
  if (!open) return null;
  return (
    <Dialog title={t('scheduled.title')} onClose={() => openScheduled(false)}>
      {items.length === 0 ? (
        <p className="muted">{loaded ? t('scheduled.empty') : t('common.loading')}</p>
      ) : (
        <ul className="scheduled-list" aria-label={t('scheduled.title')}>
          {items.map((entry) => (
            <ScheduledRow key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}

/** The way to the list from the user bar. */
export function ScheduledButton() {
  const { t } = useTranslation();
  const count = useScheduled((s) => s.items.length);
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={count > 0 ? t('scheduled.button.count', { count }) : t('scheduled.title')}
      title={t('scheduled.title')}
      onClick={() => openScheduled()}
    >
      <Icon name="clock" />
    </button>
  );
}
