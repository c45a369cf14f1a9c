import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t as translate } from '../../i18n/i18n.ts';
import { describeError } from '../../api/errors.ts';
import { verifyEmail } from '../../state/email.ts';
import { navigate } from '../../state/navigation.ts';
import { useStore } from '../../state/store.ts';

/** One request per token per page load: the token works once, and React may run an effect twice. */
const verifications = new Map<string, Promise<void>>();

type Outcome = { state: 'checking' } | { state: 'verified' } | { state: 'failed'; error: string };

/**
 * The page of a verification link, /verify-email?token=…: it redeems the
 * token at once and says whether the address is now verified, or why not in
 * the server's words (expired, already used).
 */
export function VerifyEmailPage(props: { token: string }) {
  const { t } = useTranslation();
  const signedIn = useStore((s) => s.me !== null);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'checking' });
  useEffect(() => {
    let live = true;
    if (!props.token) {
      setOutcome({ state: 'failed', error: translate('auth.mailLink.noToken') });
      return;
    }
    let pending = verifications.get(props.token);
    if (!pending) {
      pending = verifyEmail(props.token);
      verifications.set(props.token, pending);
    }
    pending.then(
      () => live && setOutcome({ state: 'verified' }),
      (err: unknown) => live && setOutcome({ state: 'failed', error: describeError(err) }),
    );
    return () => {
      live = false;
    };
  }, [props.token]);

  return (
    <main className="auth">
      <div
        className="auth-card"
        role="region"
        aria-label={t('auth.verify.title')}
        aria-busy={outcome.state === 'checking'}
      >
        <h1>{outcome.state === 'failed' ? t('auth.verify.failed') : t('auth.verify.title')}</h1>
        {outcome.state === 'checking' && <p role="status">{t('auth.verify.checking')}</p>}
        {outcome.state === 'verified' && (
          <p role="status" data-testid="email-verified">
            {t('auth.verify.done')}
          </p>
        )}
        {outcome.state === 'failed' && (
          <>
            <p role="alert" className="error" data-testid="email-verify-error">
              {outcome.error}
            </p>
            <p className="hint">{t('auth.verify.askAgain')}</p>
          </>
        )}
        {outcome.state !== 'checking' && (
          <button type="button" className="primary" onClick={() => navigate({ name: 'home' }, { replace: true })}>
            {signedIn ? t('auth.openApp') : t('auth.goToLogIn')}
          </button>
        )}
      </div>
    </main>
  );
}
