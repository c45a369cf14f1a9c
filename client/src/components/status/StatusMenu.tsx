import type { PresenceStatus } from '@im/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { changeMyStatus, isDndNow, type StatusChange } from '../../state/status.ts';
import { notify, useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { useMenu } from '../common/useMenu.ts';
import { CustomStatus } from './CustomStatus.tsx';
import { CustomStatusDialog } from './CustomStatusDialog.tsx';
import { DND_CHOICES, untilLabel } from './status-choices.ts';

/**
 * My avatar and name in the user bar, with my status: a click opens the
 * menu to be online or in do not disturb (for a while or until turned off)
 * and to set or clear a custom status.
 */
export function StatusMenu() {
  const { t } = useTranslation();
  const me = useStore((s) => s.me);
  const status = useStore((s) => s.myStatus);
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  const [editing, setEditing] = useState(false);
  if (!me) return null;
  const dnd = isDndNow(status);
  const shown: PresenceStatus = { online: true, ...(dnd ? { dnd: true as const } : {}) };
  const hasCustom = Boolean(status?.text || status?.emoji);
  const change = (next: StatusChange) => {
    void changeMyStatus(next).catch((err: unknown) => notify(describeError(err)));
  };
  const label = !dnd
    ? t('keyboard.status.online')
    : status?.dnd && status.until
      ? t('keyboard.status.dndUntil', { until: untilLabel(status.until) })
      : t('keyboard.status.dnd');
  return (
    <div ref={ref} className="status-menu">
      <button
        type="button"
        className="user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('keyboard.status.button', { name: displayName(me), status: label })}
        data-testid="status-button"
        onClick={() => setOpen(!open)}
      >
        <Avatar user={me} size={32} online status={shown} />
        <span className="user-names">
          <span className="user-name">{displayName(me)}</span>
          <CustomStatus status={status ?? undefined} />
        </span>
      </button>
      {open && (
        <div
          className="menu status-menu-list"
          role="menu"
          aria-label={t('keyboard.status.menu')}
          onClick={() => setOpen(false)}
        >
          <div className="menu-title" data-testid="status-now">
            {label}
          </div>
          <button type="button" role="menuitem" onClick={() => change({ dnd: false })}>
            <span className="presence-swatch online" /> {t('keyboard.status.online')}
          </button>
          <div className="menu-title">
            <span className="presence-swatch dnd" /> {t('keyboard.status.dnd')}
          </div>
          {DND_CHOICES.map((choice) => (
            <button
              key={`${choice.label}-${choice.values?.count}`}
              type="button"
              role="menuitem"
              className="indented"
              onClick={() => change({ dnd: true, until: choice.until(new Date())?.toISOString() ?? null })}
            >
              {t(choice.label, { ...choice.values })}
            </button>
          ))}
          <hr />
          <button type="button" role="menuitem" onClick={() => setEditing(true)}>
            {t(hasCustom ? 'keyboard.status.editCustom' : 'keyboard.status.setCustom')}
          </button>
          {hasCustom && (
            <button type="button" role="menuitem" onClick={() => change({ text: '', emoji: '' })}>
              {t('keyboard.status.clearCustom')}
            </button>
          )}
        </div>
      )}
      {editing && <CustomStatusDialog onClose={() => setEditing(false)} />}
    </div>
  );
}
