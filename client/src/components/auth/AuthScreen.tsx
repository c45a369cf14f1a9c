import type { AuthOptions } from '@im/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, describeError } from '../../api/errors.ts';
import { t } from '../../i18n/i18n.ts';
import { loadAuthOptions } from '../../state/auth-options.ts';
import { passwordResetEnabled } from '../../state/email.ts';
import { navigate } from '../../state/navigation.ts';
import { inviteCodeFrom } from '../../state/route.ts';
import { login, register } from '../../state/session.ts';
import { startSso } from '../../state/sso.ts';
import { useStore } from '../../state/store.ts';
import { ProductMark } from '../brand/ProductMark.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { ForgotPasswordForm } from './ForgotPasswordForm.tsx';
import { SignInNotice } from './SignInNotice.tsx';
import { InviteCard } from '../join/InviteCard.tsx';
import { useInvitePreview } from '../join/useInvitePreview.ts';

/**
 * Log in (with a password, or single sign-on when the server offers it), or
 * create an account as far as the server's registration mode allows; when
 * the server sends e-mail, "Forgot password?" asks for a reset link.
 * `ssoError`: why the last single sign-on came back without a session.
 */
export function AuthScreen(props: { ssoError?: string | null }) {
  const { t } = useTranslation();
  const route = useStore((s) => s.route);
  // Kept from the first render: the route moves on to the group as the account is made.
  const [linkCode] = useState(route.name === 'invite' ? route.code : '');
  const preview = useInvitePreview(linkCode);
  const [options, setOptions] = useState<AuthOptions | null>(null);
  const registration = options?.registration ?? null;
  // Whoever follows an invite link is most likely new here: signing up comes first.
  const [mode, setMode] = useState<'login' | 'register' | 'forgot'>(linkCode ? 'register' : 'login');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState('');
  const [invite, setInvite] = useState(linkCode);
  const [error, setError] = useState<string | null>(null);
  // Single sign-on's failure shows until the next attempt of any kind.
  const [retrying, setRetrying] = useState(false);
  const shownError = error ?? (retrying ? null : (props.ssoError ?? null));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void loadAuthOptions().then((o) => live && setOptions(o));
    return () => {
      live = false;
    };
  }, []);

  const needsInvite = registration === 'invite';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRetrying(true);
    setBusy(true);
    setError(null);
    try {
      if (mode === 'login') await login(username.trim(), password);
      else {
        const inviteCode = needsInvite ? inviteCodeFrom(invite) : linkCode || undefined;
        // Registering uses the invite (and joins its group): leave the invite route first, for the
        // group's first panel (or home), or the signed-in app would offer it to be accepted again.
        // The field keeps the code if this fails.
        if (inviteCode && useStore.getState().route.name === 'invite')
          navigate(preview ? { name: 'group', groupId: preview.group.id } : { name: 'home' }, { replace: true });
        await register(username.trim(), password, { nickname: nickname.trim() || undefined, inviteCode });
      }
    } catch (err) {
      setError(explain(err, needsInvite));
    } finally {
      setBusy(false);
    }
  };

  const registering = mode === 'register' && registration !== 'closed';
  if (mode === 'forgot') {
    return (
      <main className="auth">
        <ForgotPasswordForm initial={username.trim()} onBack={() => setMode('login')} />
      </main>
    );
  }
  return (
    <main className="auth">
      {linkCode && <InviteCard preview={preview} />}
      <form
        className="auth-card"
        onSubmit={(e) => void submit(e)}
        aria-label={registering ? t('auth.createAnAccount') : t('auth.logIn')}
      >
        <ProductMark />
        {linkCode ? (
          <h1>{registering ? t('join.signup') : t('join.login')}</h1>
        ) : (
          <h1>{registering ? t('auth.createAnAccount') : t('auth.welcome')}</h1>
        )}
        <SignInNotice />
        <label>
          {t('auth.username')}
          <input
            name="username"
            autoComplete="username"
            value={username}
            minLength={3}
            maxLength={32}
            pattern="[A-Za-z0-9_.\-]+"
            title={t('auth.username.rule')}
            onChange={(e) => setUsername(e.target.value)}
            required
            autoFocus
          />
        </label>
        {registering && (
          <label>
            {t('auth.displayName')} <span className="hint">{t('auth.optional')}</span>
            <input name="nickname" value={nickname} maxLength={64} onChange={(e) => setNickname(e.target.value)} />
          </label>
        )}
        <label>
          {t('auth.password')}
          <input
            name="password"
            type="password"
            autoComplete={registering ? 'new-password' : 'current-password'}
            value={password}
            minLength={registering ? 8 : 1}
            maxLength={128}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {registering && needsInvite && (
          <>
            <label>
              {t('auth.invite')}
              <input
                name="invite"
                value={invite}
                maxLength={500}
                onChange={(e) => setInvite(e.target.value)}
                required
              />
            </label>
            <p className="hint">{t('auth.invite.hint')}</p>
          </>
        )}
        <ErrorLine error={shownError} />
        <button type="submit" className="primary" disabled={busy}>
          {registering ? t('auth.createAccount') : t('auth.logIn')}
        </button>
        {!registering && passwordResetEnabled(options) && (
          <p className="switch">
            <button
              type="button"
              className="link"
              onClick={() => {
                setMode('forgot');
                setError(null);
                setRetrying(true);
              }}
            >
              {t('auth.forgotPassword')}
            </button>
          </p>
        )}
        {!registering && options?.oidc && (
          <>
            <p className="switch hint">{t('auth.or')}</p>
            <button type="button" onClick={startSso} data-testid="sso-login">
              {options.oidc.label}
            </button>
          </>
        )}
        {registration === 'closed' ? (
          <p className="switch hint" data-testid="registration-closed">
            {t('auth.registrationClosed')}
          </p>
        ) : (
          <p className="switch">
            {registering ? t('auth.haveAccount') : t('auth.newHere')}{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                setMode(registering ? 'login' : 'register');
                setError(null);
                setRetrying(true);
              }}
            >
              {registering ? t('auth.logIn') : t('auth.createAnAccount')}
            </button>
          </p>
        )}
      </form>
    </main>
  );
}

function explain(err: unknown, needsInvite: boolean): string {
  if (err instanceof ApiRequestError && err.code === 'IM_ERR_VALIDATION') {
    return t('auth.error.fields');
  }
  if (needsInvite && err instanceof ApiRequestError) {
    if (err.code === 'IM_ERR_REGISTRATION_CLOSED' || err.status === 404) {
      return t('auth.error.invite');
    }
  }
  return describeError(err);
}
