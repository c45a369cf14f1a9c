import { useEffect, useState } from 'react';
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
  const signedIn = useStore((s) => s.me !== null);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'checking' });
  useEffect(() => {
    let live = true;
    if (!props.token) {
      setOutcome({ state: 'failed', error: 'This link has no token: open the whole link from the e-mail.' });
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
        aria-label="Verify your e-mail address"
        aria-busy={outcome.state === 'checking'}
      >
        <h1>{outcome.state === 'failed' ? 'Address not verified' : 'Verify your e-mail address'}</h1>
        {outcome.state === 'checking' && <p role="status">Checking the link…</p>}
        {outcome.state === 'verified' && (
          <p role="status" data-testid="email-verified">
            Your e-mail address is verified. It can now receive password reset links and notifications.
          </p>
        )}
        {outcome.state === 'failed' && (
          <>
            <p role="alert" className="error" data-testid="email-verify-error">
              {outcome.error}
            </p>
            <p className="hint">Ask for a new link in Settings → E-mail (“Resend verification”).</p>
          </>
        )}
        {outcome.state !== 'checking' && (
          <button type="button" className="primary" onClick={() => navigate({ name: 'home' }, { replace: true })}>
            {signedIn ? 'Open the app' : 'Go to log in'}
          </button>
        )}
      </div>
    </main>
  );
}
