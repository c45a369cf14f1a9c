import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t as translate } from '../../i18n/i18n.ts';
import { useFocusWhen } from './use-focus-when.ts';
import { confirmPasswordReset } from '../../state/email.ts';
import { navigate } from '../../state/navigation.ts';
import { checkSession } from '../../state/session.ts';
import { useStore } from '../../state/store.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;

/** Why the two fields cannot be sent yet, or null when they can. */
export function passwordProblem(password: string, again: string): string | null {
  if (password.length < MIN_PASSWORD) return translate('account.password.tooShort', { min: MIN_PASSWORD });
  if (password !== again) return translate('account.password.differ');
  return null;
}

/**
 * The page of an e-mailed (or admin-made) reset link, /reset-password?token=…:
 * a new password typed twice. Success ends every session of the account
 * (this browser's too, if it was signed in to it), then leads to the
 * sign-in screen. A link that expired or was used says so in the server's words.
 */
export function ResetPasswordPage(props: { token: string }) {
  const signedIn = useStore((s) => s.me !== null);
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const doneRef = useFocusWhen(done);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = passwordProblem(password, again);
    setProblem(wrong);
    if (wrong) return;
    const ok = await run(() => confirmPasswordReset(props.token, password));
    if (!ok) return;
    setPassword('');
    setAgain('');
    // The server ended every session of the account: this browser's goes too if it was that account's
    // (an admin trying the link of someone else's account stays signed in).
    await checkSession();
    setDone(true);
  };

  if (!props.token) {
    return (
      <main className="auth">
        <div className="auth-card" role="region" aria-label={t('account.reset.title')}>
          <h1>{t('account.reset.title')}</h1>
          <p role="alert" className="error">
            {t('account.reset.noToken')}
          </p>
          <ToSignIn label={t('account.reset.goToLogIn')} />
        </div>
      </main>
    );
  }
  if (done) {
    return (
      <main className="auth">
        <div className="auth-card" role="region" aria-label={t('account.reset.title')}>
          <h1>{t('account.reset.changed')}</h1>
          <p role="status" tabIndex={-1} ref={doneRef} data-testid="reset-done">
            {t('account.reset.done', { signedIn: signedIn ? 'yes' : 'no' })}
          </p>
          <ToSignIn label={signedIn ? t('account.reset.openApp') : t('account.reset.logIn')} primary />
        </div>
      </main>
    );
  }
  return (
    <main className="auth">
      <form className="auth-card" onSubmit={(e) => void submit(e)} aria-label={t('account.reset.title')} noValidate>
        <h1>{t('account.reset.choose')}</h1>
        <label>
          {t('account.password.new')}
          <input
            name="new-password"
            type="password"
            autoComplete="new-password"
            value={password}
            maxLength={MAX_PASSWORD}
            aria-invalid={problem !== null && password.length < MIN_PASSWORD}
            onChange={(e) => setPassword(e.target.value)}
            required
            autoFocus
          />
        </label>
        <label>
          {t('account.password.newAgain')}
          <input
            name="new-password-again"
            type="password"
            autoComplete="new-password"
            value={again}
            maxLength={MAX_PASSWORD}
            aria-invalid={problem !== null && password !== again}
            onChange={(e) => setAgain(e.target.value)}
            required
          />
        </label>
        <p className="hint">{t('account.reset.rules', { min: MIN_PASSWORD, max: MAX_PASSWORD })}</p>
        <ErrorLine error={problem ?? error} />
        <button type="submit" className="primary" disabled={busy}>
          {t('account.reset.submit')}
        </button>
        <ToSignIn label={t('account.reset.backToLogIn')} />
      </form>
    </main>
  );
}

/** Leaves the link's page for the app: the sign-in screen, or the app when still signed in. */
function ToSignIn(props: { label: string; primary?: boolean }) {
  const go = () => navigate({ name: 'home' }, { replace: true });
  if (props.primary) {
    return (
      <button type="button" className="primary" onClick={go}>
        {props.label}
      </button>
    );
  }
  return (
    <p className="switch">
      <button type="button" className="link" onClick={go}>
        {props.label}
      </button>
    </p>
  );
}
