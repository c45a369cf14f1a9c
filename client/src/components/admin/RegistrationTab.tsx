import type { RegistrationMode } from '@im/protocol';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../../i18n/locales/en/index.ts';
import { describeError } from '../../api/errors.ts';
import { getSettings, setRegistration } from '../../state/admin.ts';
import { useLoaded } from '../moderation/useLoaded.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { StatusLine } from '../common/StatusLine.tsx';

const MODES: Array<{ mode: RegistrationMode; label: MessageKey; hint: MessageKey }> = [
  { mode: 'open', label: 'admin.registration.open', hint: 'admin.registration.open.hint' },
  { mode: 'invite', label: 'admin.registration.invite', hint: 'admin.registration.invite.hint' },
  { mode: 'closed', label: 'admin.registration.closed', hint: 'admin.registration.closed.hint' },
];

/** Who may create an account on this server. */
export function RegistrationTab() {
  const { t } = useTranslation();
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
      setMessage(t('admin.saved'));
    } catch (err) {
      setMessage(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  if (settings.error && !settings.data) return <ErrorLine error={settings.error} />;
  if (!settings.data) return <p className="hint">{t('admin.registration.loading')}</p>;
  return (
    <form className="form" onSubmit={(e) => void save(e)}>
      <fieldset className="choices">
        <legend>{t('admin.tab.registration')}</legend>
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
              {t(m.label)} <span className="hint">{t(m.hint)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || selected === saved}>
          {t('common.save')}
        </button>
      </div>
      <StatusLine message={message} />
    </form>
  );
}
