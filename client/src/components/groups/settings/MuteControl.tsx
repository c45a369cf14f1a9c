import { useId, useState } from 'react';

/** The lengths a mute can be chosen for. */
export const MUTE_CHOICES = [
  { label: '10 minutes', seconds: 10 * 60 },
  { label: '1 hour', seconds: 60 * 60 },
  { label: '1 day', seconds: 24 * 60 * 60 },
  { label: '1 week', seconds: 7 * 24 * 60 * 60 },
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
  const id = useId();
  const [seconds, setSeconds] = useState<number>(MUTE_CHOICES[0].seconds);
  const muted = props.mutedUntil !== undefined && Date.parse(props.mutedUntil) > Date.now();
  return (
    <span className="mute-control">
      <label htmlFor={id} className="visually-hidden">
        Mute {props.name} for
      </label>
      <select id={id} value={seconds} disabled={props.busy} onChange={(e) => setSeconds(Number(e.target.value))}>
        {MUTE_CHOICES.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
      </select>
      <button type="button" disabled={props.busy} onClick={() => props.onMute(seconds)}>
        Mute
      </button>
      {muted && (
        <button type="button" disabled={props.busy} onClick={() => props.onMute(0)}>
          Unmute
        </button>
      )}
    </span>
  );
}
