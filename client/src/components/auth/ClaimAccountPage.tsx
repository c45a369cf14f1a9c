import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t } from '../../i18n/i18n.ts';
import { navigate } from '../../state/navigation.ts';
import { claimAccount } from '../../state/session.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';
import { passwordProblem } from './ResetPasswordPage.tsx';

const MAX_PASSWORD = 128;
const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;

/** Why the form cannot be sent yet, or null when it can. An empty username keeps the imported one. */
export function claimProblem(username: string, password: string, again: string): string | null {
  const name = username.trim();
  if (name && !USERNAME.test(name)) return t('auth.claim.usernameRule');
  return passwordProblem(password, again);
}

/**
 * The page of a claim link, /claim?token=…, which a server admin made for an
 * account an import created: the person picks a password (and may pick
 * another username), and is then signed in to the account with everything
 * the import brought. A used, replaced or expired link says so in the
 * server's words.
 */
export function ClaimAccountPage(props: { token: string }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = claimProblem(username, password, again);
    setProblem(wrong);
    if (wrong) return;
    const ok = await run(() => claimAccount(props.token, password, username.trim() || undefined));
    if (ok) navigate({ name: 'home' }, { replace: true });
  };

  if (!props.token) {
    return (
      <main className="auth">
        <div className="auth-card" role="region" aria-label={t('auth.claim.title')}>
          <h1>{t('auth.claim.title')}</h1>
          <p role="alert" className="error">
            {t('auth.claim.noToken')}
          </p>
        </div>
      </main>
    );
  }
  return (
    <main className="auth">
      <form className="auth-card" onSubmit={(e) => void submit(e)} aria-label={t('auth.claim.title')} noValidate>
        <h1>{t('auth.claim.title')}</h1>
        <p className="hint">{t('auth.claim.intro')}</p>
        <label>
          {t('auth.claim.newUsername')}
          <input
            name="username"
            autoComplete="username"
            value={username}
            maxLength={32}
            placeholder={t('auth.claim.keepUsername')}
            onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <label>
          {t('auth.password')}
          <input
            name="new-password"
            type="password"
            autoComplete="new-password"
            value={password}
            maxLength={MAX_PASSWORD}
            onChange={(e) => setPassword(e.target.value)}
            required
            autoFocus
          />
        </label>
        <label>
          {t('auth.passwordAgain')}
          <input
            name="new-password-again"
            type="password"
            autoComplete="new-password"
            value={again}
            maxLength={MAX_PASSWORD}
            onChange={(e) => setAgain(e.target.value)}
            required
          />
        </label>
        <ErrorLine error={problem ?? error} />
        <button type="submit" className="primary" disabled={busy}>
          {t('auth.claim.submit')}
        </button>
      </form>
    </main>
  );
}
