import type { AuthOptions, EmailNotifications, Me } from '@im/protocol';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loadAuthOptions } from '../../state/auth-options.ts';
import { EMAIL_NOTIFICATION_CHOICES, emailEnabled, setEmail, setEmailNotifications } from '../../state/email.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { StatusLine } from '../common/StatusLine.tsx';
import { useAction } from '../common/useAction.ts';

/** What my settings know of my address; the server's answer to a change replaces it. */
interface Address {
  email: string | null;
  verified: boolean;
}

/**
 * My e-mail address with its state (verified or not), changing it and
 * sending the verification link again, and how soon missed messages are
 * e-mailed. Everything is there but disabled, with a line saying why, on a
 * server without e-mail.
 */
export function EmailSection(props: { account: Me | null }) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<AuthOptions | null>(null);
  const [address, setAddress] = useState<Address | null>(null);
  const [draft, setDraft] = useState('');
  const [notifications, setNotifications] = useState<EmailNotifications>('10m');
  const [message, setMessage] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const stateId = useId();

  useEffect(() => {
    let live = true;
    void loadAuthOptions().then((o) => live && setOptions(o));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (!props.account) return;
    const mine = props.account;
    setAddress({ email: mine.email ?? null, verified: mine.emailVerified === true });
    setDraft(mine.email ?? '');
    setNotifications(mine.emailNotifications ?? '10m');
  }, [props.account]);
  if (!props.account || !options || !address) return null;

  const on = emailEnabled(options);
  const sendTo = async (email: string, sent: string) => {
    setMessage(null);
    const ok = await run(async () => {
      const answer = await setEmail(email);
      setAddress({ email: answer.email ?? email, verified: answer.emailVerified === true });
      setDraft(answer.email ?? email);
    });
    if (ok) setMessage(sent);
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const email = draft.trim();
    void sendTo(email, t('account.email.sent', { email }));
  };
  const choose = async (next: EmailNotifications) => {
    const before = notifications;
    setNotifications(next);
    setMessage(null);
    const ok = await run(() => setEmailNotifications(next));
    if (ok) setMessage(t('account.email.notify.saved'));
    else setNotifications(before);
  };

  const unchanged = draft.trim().toLowerCase() === (address.email ?? '').toLowerCase();
  return (
    <section className="form" aria-label={t('account.email')} data-testid="email-settings">
      <h3>{t('account.email')}</h3>
      {!on && (
        <p className="hint" data-testid="email-off">
          {t('account.email.off')}
        </p>
      )}
      <fieldset className="choices" disabled={!on}>
        <legend className="visually-hidden">{t('account.email.address')}</legend>
        {address.email && (
          <p className="mod-line" id={stateId} data-testid="email-state">
            <span>{address.email}</span>{' '}
            <span className={address.verified ? 'state-tag ok' : 'state-tag'}>
              {address.verified ? t('account.email.verified') : t('account.email.notVerified')}
            </span>
          </p>
        )}
        <form className="form" onSubmit={save}>
          <label>
            {t('account.email.address')}
            <input
              type="email"
              name="email"
              autoComplete="email"
              value={draft}
              maxLength={254}
              aria-describedby={address.email ? stateId : undefined}
              onChange={(e) => setDraft(e.target.value)}
              required
            />
          </label>
          <div className="form-actions">
            {address.email && !address.verified && (
              <button
                type="button"
                disabled={busy}
                onClick={() => void sendTo(address.email!, t('account.email.sentAgain', { email: address.email! }))}
              >
                {t('account.email.resend')}
              </button>
            )}
            <button type="submit" className="primary" disabled={busy || !draft.trim() || unchanged}>
              {address.email ? t('account.email.change') : t('account.email.add')}
            </button>
          </div>
        </form>
      </fieldset>
      <fieldset className="choices" disabled={!on}>
        <legend>{t('account.email.notify')}</legend>
        {EMAIL_NOTIFICATION_CHOICES.map((choice) => (
          <label key={choice.value} className="check">
            <input
              type="radio"
              name="email-notifications"
              value={choice.value}
              checked={notifications === choice.value}
              onChange={() => void choose(choice.value)}
            />
            <span>{t(choice.label)}</span>
          </label>
        ))}
        {on && !address.verified && <p className="hint">{t('account.email.onlyVerified')}</p>}
      </fieldset>
      <ErrorLine error={error} />
      <StatusLine message={message} />
    </section>
  );
}
