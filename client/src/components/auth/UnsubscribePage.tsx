import { useState } from 'react';
import { useFocusWhen } from './use-focus-when.ts';
import { unsubscribeEmails } from '../../state/email.ts';
import { navigate } from '../../state/navigation.ts';
import { useStore } from '../../state/store.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

/**
 * The page of a missed-message e-mail's "Turn these e-mails off" link,
 * /unsubscribe?token=…: one button does it, no sign-in needed. Opening the
 * page changes nothing by itself, so a mail scanner that follows links does
 * not unsubscribe anyone (mail programs use the List-Unsubscribe header).
 */
export function UnsubscribePage(props: { token: string }) {
  const signedIn = useStore((s) => s.me !== null);
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const doneRef = useFocusWhen(done);
  const missing = props.token ? null : 'This link has no token: open the whole link from the e-mail.';
  return (
    <main className="auth">
      <div className="auth-card" role="region" aria-label="E-mail notifications">
        <h1>E-mail notifications</h1>
        {done ? (
          <p role="status" tabIndex={-1} ref={doneRef} data-testid="unsubscribed">
            Missed-message e-mails are off. Turn them on again in Settings → E-mail.
          </p>
        ) : (
          <>
            <p>Stop the e-mails about direct messages and mentions you missed?</p>
            <ErrorLine error={missing ?? error} />
            <button
              type="button"
              className="primary"
              disabled={busy || missing !== null}
              onClick={() => void run(() => unsubscribeEmails(props.token)).then((ok) => ok && setDone(true))}
            >
              Turn these e-mails off
            </button>
          </>
        )}
        <p className="switch">
          <button type="button" className="link" onClick={() => navigate({ name: 'home' }, { replace: true })}>
            {signedIn ? 'Open the app' : 'Go to log in'}
          </button>
        </p>
      </div>
    </main>
  );
}
