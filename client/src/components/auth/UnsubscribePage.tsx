import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const signedIn = useStore((s) => s.me !== null);
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const doneRef = useFocusWhen(done);
  const missing = props.token ? null : t('auth.mailLink.noToken');
  return (
    <main className="auth">
      <div className="auth-card" role="region" aria-label={t('auth.unsubscribe.title')}>
        <h1>{t('auth.unsubscribe.title')}</h1>
        {done ? (
          <p role="status" tabIndex={-1} ref={doneRef} data-testid="unsubscribed">
            {t('auth.unsubscribe.done')}
          </p>
        ) : (
          <>
            <p>{t('auth.unsubscribe.question')}</p>
            <ErrorLine error={missing ?? error} />
            <button
              type="button"
              className="primary"
              disabled={busy || missing !== null}
              onClick={() => void run(() => unsubscribeEmails(props.token)).then((ok) => ok && setDone(true))}
            >
              {t('auth.unsubscribe.submit')}
            </button>
          </>
        )}
        <p className="switch">
          <button type="button" className="link" onClick={() => navigate({ name: 'home' }, { replace: true })}>
            {signedIn ? t('auth.openApp') : t('auth.goToLogIn')}
          </button>
        </p>
      </div>
    </main>
  );
}
