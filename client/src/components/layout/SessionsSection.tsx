import type { Session } from '@im/protocol';
import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { logoutEverywhere } from '../../state/session.ts';
import { api } from '../../api/api.ts';

const when = (iso: string) => new Date(iso).toLocaleString();

/** Where I am signed in: each session with its address and browser; any other one can be ended. */
export function SessionsSection() {
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api
      .call('user.sessions')
      .then(setSessions)
      .catch((err: unknown) => setError(describeError(err)));
  useEffect(() => void load(), []);
  const revoke = async (id: string) => {
    try {
      await api.call('user.revokeSession', { sessionId: id });
      await load();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <div className="form" data-testid="sessions">
      <h3>Sessions</h3>
      {sessions === null && !error && <p className="hint">Loading sessions…</p>}
      <ul className="session-list">
        {sessions?.map((s) => (
          <li key={s.id} data-testid="session">
            <span className="session-agent">{s.userAgent || 'Unknown client'}</span>
            <span className="hint">
              {s.ip} · signed in {when(s.createdAt)} · last seen {when(s.lastSeenAt)}
            </span>
            {s.current ? (
              <span className="badge-current">This browser</span>
            ) : (
              <button type="button" onClick={() => void revoke(s.id)}>
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p className="hint" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="danger"
          onClick={() => void logoutEverywhere().catch((err: unknown) => setError(describeError(err)))}
        >
          Log out everywhere
        </button>
      </div>
    </div>
  );
}
