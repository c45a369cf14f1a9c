import { useState, type FormEvent } from 'react';
import { ApiRequestError, describeError } from '../../api/errors.ts';
import { login, register } from '../../state/session.ts';

/** Log in, or create an account. */
export function AuthScreen() {
  const [mode, setMode] = useState<'login' | 'register'>('login');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mode === 'login') await login(username.trim(), password);
      else await register(username.trim(), password, nickname.trim() || undefined);
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth">
      <form
        className="auth-card"
        onSubmit={(e) => void submit(e)}
        aria-label={mode === 'login' ? 'Log in' : 'Create an account'}
      >
        <h1>{mode === 'login' ? 'Welcome back' : 'Create an account'}</h1>
        <label>
          Username
          <input
            name="username"
            autoComplete="username"
            value={username}
            minLength={3}
            maxLength={32}
            pattern="[A-Za-z0-9_.\-]+"
            title="3-32 letters, digits, and _ . -"
            onChange={(e) => setUsername(e.target.value)}
            required
            autoFocus
          />
        </label>
        {mode === 'register' && (
          <label>
            Display name <span className="hint">(optional)</span>
            <input name="nickname" value={nickname} maxLength={64} onChange={(e) => setNickname(e.target.value)} />
          </label>
        )}
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            value={password}
            minLength={mode === 'register' ? 8 : 1}
            maxLength={128}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {mode === 'login' ? 'Log in' : 'Create account'}
        </button>
        <p className="switch">
          {mode === 'login' ? 'New here? ' : 'Have an account? '}
          <button
            type="button"
            className="link"
            onClick={() => {
              setMode(mode === 'login' ? 'register' : 'login');
              setError(null);
            }}
          >
            {mode === 'login' ? 'Create an account' : 'Log in'}
          </button>
        </p>
      </form>
    </main>
  );
}

function explain(err: unknown): string {
  if (err instanceof ApiRequestError && err.code === 'IM_ERR_VALIDATION') {
    return 'Check the fields: usernames are 3-32 of a-z, 0-9, _ . - and passwords 8-128 characters.';
  }
  return describeError(err);
}
