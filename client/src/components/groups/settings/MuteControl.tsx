import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';

/** The lengths a mute can be chosen for. */
export const MUTE_CHOICES = [
  { label: 'groups.duration.10m', seconds: 10 * 60 },
  { label: 'groups.duration.1h', seconds: 60 * 60 },
  { label: 'groups.duration.1d', seconds: 24 * 60 * 60 },
  { label: 'groups.duration.1w', seconds: 7 * 24 * 60 * 60 },
] as const;

/**
 * Mute for a chosen time, or unmute: the length is picked first and applied by
 * a button, so moving through the list with the keyboard mutes no one.
 */
export function MuteControl(props: {
  name: string;
  /** Until when the member is muted; absent: not muted. */
  mutedUntil?: string;
  busy?: boolean;
  onMute: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [seconds, setSeconds] = useState<number>(MUTE_CHOICES[0].seconds);
  const muted = props.mutedUntil !== undefined && Date.parse(props.mutedUntil) > Date.now();
  return (
    <span className="mute-control">
      <label htmlFor={id} className="visually-hidden">
        {t('groups.mute.for', { name: props.name })}
      </label>
      <select id={id} value={seconds} disabled={props.busy} onChange={(e) => setSeconds(Number(e.target.value))}>
        {MUTE_CHOICES.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {t(c.label)}
          </option>
        ))}
      </select>
      <button type="button" disabled={props.busy} onClick={() => props.onMute(seconds)}>
        {t('groups.mute')}
      </button>
      {muted && (
        <button type="button" disabled={props.busy} onClick={() => props.onMute(0)}>
          {t('groups.unmute')}
        </button>
      )}
    </span>
  );
}
