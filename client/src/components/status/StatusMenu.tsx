import type { PresenceStatus } from '@im/protocol';
import { useState } from 'react';
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
  const label = dnd ? `Do not disturb${status?.dnd && status.until ? ` ${untilLabel(status.until)}` : ''}` : 'Online';
  return (
    <div ref={ref} className="status-menu">
      <button
        type="button"
        className="user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`${displayName(me)}: ${label}. Set status`}
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
        <div className="menu status-menu-list" role="menu" onClick={() => setOpen(false)}>
          <div className="menu-title" data-testid="status-now">
            {label}
          </div>
          <button type="button" role="menuitem" onClick={() => change({ dnd: false })}>
            <span className="presence-swatch online" /> Online
          </button>
          <div className="menu-title">
            <span className="presence-swatch dnd" /> Do not disturb
          </div>
          {DND_CHOICES.map((choice) => (
            <button
              key={choice.label}
              type="button"
              role="menuitem"
              className="indented"
              onClick={() => change({ dnd: true, until: choice.until(new Date())?.toISOString() ?? null })}
            >
              {choice.label}
            </button>
          ))}
          <hr />
          <button type="button" role="menuitem" onClick={() => setEditing(true)}>
            {hasCustom ? 'Edit custom status' : 'Set a custom status'}
          </button>
          {hasCustom && (
            <button type="button" role="menuitem" onClick={() => change({ text: '', emoji: '' })}>
              Clear custom status
            </button>
          )}
        </div>
      )}
      {editing && <CustomStatusDialog onClose={() => setEditing(false)} />}
    </div>
  );
}
