import { useState, type FormEvent } from 'react';
import { useFocusWhen } from './use-focus-when.ts';
import { requestPasswordReset } from '../../state/email.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

/** What the form says once sent: the same whether or not an account matched, so it tells no one who has one. */
export const RESET_SENT =
  'If an account matches, we sent a link to its e-mail address. The link works for one hour; check your spam folder too.';

/**
 * "Forgot password?" on the sign-in screen: a username or an address, and a
 * link by e-mail. Only a failure to send the request (the server unreachable,
 * too many tries) is shown as an error.
 */
export function ForgotPasswordForm(props: { initial: string; onBack: () => void }) {
  const [who, setWho] = useState(props.initial);
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const sentRef = useFocusWhen(sent);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => requestPasswordReset(who.trim()))) setSent(true);
  };
  return (
    <form className="auth-card" onSubmit={(e) => void submit(e)} aria-label="Reset your password">
      <h1>Reset your password</h1>
      {sent ? (
        <p role="status" tabIndex={-1} ref={sentRef} data-testid="reset-sent">
          {RESET_SENT}
        </p>
      ) : (
        <>
          <p className="hint">Enter your username or the e-mail address of your account, and we will send a link.</p>
          <label>
            Username or e-mail
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
            Send reset link
          </button>
        </>
      )}
      <p className="switch">
        <button type="button" className="link" onClick={props.onBack}>
          Back to log in
        </button>
      </p>
    </form>
  );
}
