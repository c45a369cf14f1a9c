import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t as translate } from '../../i18n/i18n.ts';
import { useFocusWhen } from './use-focus-when.ts';
import { requestPasswordReset } from '../../state/email.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

/** What the form says once sent: the same whether or not an account matched, so it tells no one who has one. */
export const resetSentText = (): string => translate('account.forgot.sent');

/**
 * "Forgot password?" on the sign-in screen: a username or an address, and a
 * link by e-mail. Only a failure to send the request (the server unreachable,
 * too many tries) is shown as an error.
 */
export function ForgotPasswordForm(props: { initial: string; onBack: () => void }) {
  const { t } = useTranslation();
  const [who, setWho] = useState(props.initial);
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const sentRef = useFocusWhen(sent);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => requestPasswordReset(who.trim()))) setSent(true);
  };
  return (
    <form className="auth-card" onSubmit={(e) => void submit(e)} aria-label={t('account.reset.title')}>
      <h1>{t('account.reset.title')}</h1>
      {sent ? (
        <p role="status" tabIndex={-1} ref={sentRef} data-testid="reset-sent">
          {t('account.forgot.sent')}
        </p>
      ) : (
        <>
          <p className="hint">{t('account.forgot.hint')}</p>
          <label>
            {t('account.forgot.who')}
            <input
              name="usernameOrEmail"
              autoComplete="username"
              value={who}
              maxLength={254}
              onChange={(e) => setWho(e.target.value)}
              required
              autoFocus
            />
          </label>
          <ErrorLine error={error} />
          <button type="submit" className="primary" disabled={busy || !who.trim()}>
            {t('account.forgot.submit')}
          </button>
        </>
      )}
      <p className="switch">
        <button type="button" className="link" onClick={props.onBack}>
          {t('account.reset.backToLogIn')}
        </button>
      </p>
    </form>
  );
}
