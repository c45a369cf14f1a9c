import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthScreen } from './components/auth/AuthScreen.tsx';
import { ClaimAccountPage } from './components/auth/ClaimAccountPage.tsx';
import { ResetPasswordPage } from './components/auth/ResetPasswordPage.tsx';
import { UnsubscribePage } from './components/auth/UnsubscribePage.tsx';
import { VerifyEmailPage } from './components/auth/VerifyEmailPage.tsx';
import { ConnectionBanner } from './components/common/ConnectionBanner.tsx';
import { Notices } from './components/common/Notices.tsx';
import { Shell } from './components/layout/Shell.tsx';
import { UpdateNotice } from './offline/UpdateNotice.tsx';
import { onVisibilityChange } from './state/conversations.ts';
import { navigate, startRouting } from './state/navigation.ts';
import { restoreSession } from './state/session.ts';
import { redeemSsoCode, settleSsoLanding, ssoLanding } from './state/sso.ts';
import { useStore } from './state/store.ts';

const RESTORE_RETRY_MS = 3000;

export function App() {
  const { t } = useTranslation();
  const me = useStore((s) => s.me);
  const route = useStore((s) => s.route);
  const [restoring, setRestoring] = useState<'yes' | 'unreachable' | 'done'>('yes');
  const [ssoError, setSsoError] = useState<string | null>(null);

  useEffect(() => {
    // Before routing reads the address: single sign-on's return leaves it clean.
    ssoLanding();
    const stop = startRouting();
    let retry: ReturnType<typeof setTimeout> | undefined;
    // Back from single sign-on with a code: that session, else the one saved in this browser.
    const signIn = async () => {
      if (!(await redeemSsoCode())) await restoreSession();
    };
    const restore = () =>
      signIn().then(
        () => {
          // Its failure is known at once (before the first render of the login screen); a link finishes later.
          void settleSsoLanding(setSsoError);
          setRestoring('done');
        },
        () => {
          setRestoring('unreachable');
          retry = setTimeout(restore, RESTORE_RETRY_MS);
        },
      );
    void restore();
    // A click on a notification asks an open tab to show that converse.
    const onWorkerMessage = (event: MessageEvent<{ type?: string; converseId?: string }>) => {
      if (event.data?.type === 'open-converse' && event.data.converseId) {
        navigate({ name: 'converse', converseId: event.data.converseId });
      }
    };
    navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      clearTimeout(retry);
      stop();
      document.removeEventListener('visibilitychange', onVisibilityChange);
      navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
    };
  }, []);

  if (restoring === 'yes') return <div className="splash">{t('common.loading')}</div>;
  if (restoring === 'unreachable') {
    return (
      <div className="splash" role="status">
        {t('app.unreachable')}
      </div>
    );
  }
  // The pages of e-mailed links show signed in or not, in place of the app.
  if (route.name === 'reset-password') return <ResetPasswordPage token={route.token} />;
  if (route.name === 'verify-email') return <VerifyEmailPage token={route.token} />;
  if (route.name === 'unsubscribe') return <UnsubscribePage token={route.token} />;
  if (route.name === 'claim') return <ClaimAccountPage token={route.token} />;
  return (
    <>
      {me ? <Shell /> : <AuthScreen ssoError={ssoError} />}
      {me && <ConnectionBanner />}
      <UpdateNotice />
      <Notices />
    </>
  );
}
