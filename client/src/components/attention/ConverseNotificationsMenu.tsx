import type { NotificationLevel } from '@im/protocol';
import { describeError } from '../../api/errors.ts';
import { defaultLevel, isMuted, setConverseLevel, settingOf, useAttention } from '../../state/attention.ts';
import { notify, useStore } from '../../state/store.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { MUTE_CHOICES, muteEndLabel } from './mute-times.ts';
import './attention.css';

const LEVELS: Array<{ level: NotificationLevel; label: string; hint: string }> = [
  { level: 'all', label: 'All messages', hint: 'Notify me of every message' },
  { level: 'mentions', label: 'Mentions only', hint: 'Only when I am mentioned or a thread I follow gets a reply' },
  { level: 'none', label: 'Nothing', hint: 'No notifications, no badge' },
];

/** The converse header's bell: my notification level here, and muting it for a while. */
export function ConverseNotificationsMenu(props: { converseId: string }) {
  const { converseId } = props;
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  const groups = useStore((s) => s.groups);
  const dms = useStore((s) => s.dms);
  const levels = useAttention((s) => s.levels);
  const setting = settingOf(converseId, { groups, dms }, levels);
  const muted = isMuted(setting);
  const snoozed = setting.muteUntil !== null && muted;

  const choose = (level: NotificationLevel, muteUntil: Date | null = null) => {
    setOpen(false);
    void setConverseLevel(converseId, level, muteUntil?.toISOString() ?? null).catch((err: unknown) =>
      notify(`Could not change notifications: ${describeError(err)}`),
    );
  };

  return (
    <div ref={ref} className="popover-anchor">
      <button
        type="button"
        className="icon-button"
        aria-label={muted ? 'Notifications (muted)' : 'Notifications'}
        aria-haspopup="menu"
        aria-expanded={open}
        title="Notifications"
        data-testid="converse-notifications"
        onClick={() => setOpen(!open)}
      >
        <Icon name={muted ? 'bellOff' : 'bell'} />
      </button>
      {open && (
        <div className="menu notifications-menu" role="menu" aria-label="Notifications">
          {snoozed && (
            <p className="hint" data-testid="muted-until">
              Muted {muteEndLabel(setting.muteUntil!)}
            </p>
          )}
          {LEVELS.map((l) => (
            <button
              key={l.level}
              type="button"
              role="menuitemradio"
              aria-checked={setting.level === l.level}
              title={l.hint}
              onClick={() => choose(l.level)}
            >
              {l.label}
            </button>
          ))}
          <hr />
          {MUTE_CHOICES.map((m) => (
            <button
              key={m.label}
              type="button"
              role="menuitem"
              onClick={() => choose(setting.level, m.until(new Date()))}
            >
              Mute {m.label.toLowerCase()}
            </button>
          ))}
          <button type="button" role="menuitem" onClick={() => choose('none')}>
            Mute until I turn it back on
          </button>
          {muted && (
            <button
              type="button"
              role="menuitem"
              onClick={() =>
                choose(setting.level === 'none' ? defaultLevel(converseId, { groups, dms }) : setting.level)
              }
            >
              Unmute
            </button>
          )}
        </div>
      )}
    </div>
  );
}
