import type { NotificationLevel } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import type { MessageKey } from '../../i18n/locales/en/index.ts';
import { defaultLevel, isMuted, setConverseLevel, settingOf, useAttention } from '../../state/attention.ts';
import { notify, useStore } from '../../state/store.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { MUTE_CHOICES, muteEndLabel } from './mute-times.ts';
import './attention.css';

const LEVELS: Array<{ level: NotificationLevel; label: MessageKey; hint: MessageKey }> = [
  { level: 'all', label: 'keyboard.notify.all', hint: 'keyboard.notify.allHint' },
  { level: 'mentions', label: 'keyboard.notify.mentions', hint: 'keyboard.notify.mentionsHint' },
  { level: 'none', label: 'keyboard.notify.none', hint: 'keyboard.notify.noneHint' },
];

/** The converse header's bell: my notification level here, and muting it for a while. */
export function ConverseNotificationsMenu(props: { converseId: string }) {
  const { t } = useTranslation();
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
      notify(t('keyboard.notify.failed', { error: describeError(err) })),
    );
  };

  return (
    <div ref={ref} className="popover-anchor">
      <button
        type="button"
        className="icon-button"
        aria-label={t(muted ? 'keyboard.notify.buttonMuted' : 'keyboard.notify.button')}
        aria-haspopup="menu"
        aria-expanded={open}
        title={t('keyboard.notify.button')}
        data-testid="converse-notifications"
        onClick={() => setOpen(!open)}
      >
        <Icon name={muted ? 'bellOff' : 'bell'} />
      </button>
      {open && (
        <div className="menu notifications-menu" role="menu" aria-label={t('keyboard.notify.button')}>
          {snoozed && (
            <p className="hint" data-testid="muted-until">
              {t('keyboard.notify.mutedUntil', { until: muteEndLabel(setting.muteUntil!) })}
            </p>
          )}
          {LEVELS.map((l) => (
            <button
              key={l.level}
              type="button"
              role="menuitemradio"
              aria-checked={setting.level === l.level}
              title={t(l.hint)}
              onClick={() => choose(l.level)}
            >
              {t(l.label)}
            </button>
          ))}
          <hr />
          {MUTE_CHOICES.map((m) => (
            <button
              key={`${m.label}-${m.values?.count}`}
              type="button"
              role="menuitem"
              onClick={() => choose(setting.level, m.until(new Date()))}
            >
              {t(m.label, { ...m.values })}
            </button>
          ))}
          <button type="button" role="menuitem" onClick={() => choose('none')}>
            {t('keyboard.notify.muteOff')}
          </button>
          {muted && (
            <button
              type="button"
              role="menuitem"
              onClick={() =>
                choose(setting.level === 'none' ? defaultLevel(converseId, { groups, dms }) : setting.level)
              }
            >
              {t('keyboard.notify.unmute')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
