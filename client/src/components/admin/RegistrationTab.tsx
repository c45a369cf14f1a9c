import type { RegistrationMode } from '@im/protocol';
import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors.ts';
import { getSettings, setRegistration } from '../../state/admin.ts';
import { useLoaded } from '../moderation/useLoaded.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { StatusLine } from '../common/StatusLine.tsx';

const MODES: Array<{ mode: RegistrationMode; label: string; hint: string }> = [
  { mode: 'open', label: 'Open', hint: 'Anyone can create an account.' },
  { mode: 'invite', label: 'Invite only', hint: 'A new account needs a group invite, and joins that group.' },
  { mode: 'closed', label: 'Closed', hint: 'Nobody can create an account; existing accounts still sign in.' },
];

/** Who may create an account on this server. */
export function RegistrationTab() {
  const settings = useLoaded('settings', getSettings);
  const [choice, setChoice] = useState<RegistrationMode | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const saved = settings.data?.registration;
  const selected = choice ?? saved;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!selected) return;
    setBusy(true);
    try {
      const next = await setRegistration(selected);
      settings.update(() => next);
      setChoice(null);
      setMessage('Saved.');
    } catch (err) {
      setMessage(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  if (settings.error && !settings.data) return <ErrorLine error={settings.error} />;
  if (!settings.data) return <p className="hint">Loading settings…</p>;
  return (
    <form className="form" onSubmit={(e) => void save(e)}>
      <fieldset className="choices">
        <legend>Registration</legend>
        {MODES.map((m) => (
          <label key={m.mode} className="check">
            <input
              type="radio"
              name="registration"
              value={m.mode}
              checked={selected === m.mode}
              onChange={() => {
                setChoice(m.mode);
                setMessage(null);
              }}
            />
            <span>
              {m.label} <span className="hint">{m.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || selected === saved}>
          Save
        </button>
      </div>
      <StatusLine message={message} />
    </form>
  );
}
