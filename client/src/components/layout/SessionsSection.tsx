import type { Session } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { logoutEverywhere } from '../../state/session.ts';
import { api } from '../../api/api.ts';
import { describeUserAgent } from './user-agent.ts';

/** "Chrome on Linux", "Firefox", "Unknown client": the raw string stays as the tooltip. */
function SessionAgent({ userAgent }: { userAgent: string }) {
  const { t } = useTranslation();
  const { browser, os } = describeUserAgent(userAgent);
  const text =
    browser && os
      ? t('account.sessions.agent', { browser, os })
      : (browser ?? os ?? (userAgent || t('account.sessions.unknownClient')));
  return (
    <span className="session-agent" title={userAgent || undefined}>
      {text}
    </span>
  );
}

/** Where I am signed in: each session with its address and browser; any other one can be ended. */
export function SessionsSection() {
  const { t } = useTranslation();
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
      {sessions === null && !error && <p className="hint">{t('account.sessions.loading')}</p>}
      <ul className="session-list">
        {sessions?.map((s) => (
          <li key={s.id} data-testid="session">
            <SessionAgent userAgent={s.userAgent} />
            <span className="hint">
              {t('account.sessions.details', {
                ip: s.ip,
                signedIn: new Date(s.createdAt),
                lastSeen: new Date(s.lastSeenAt),
              })}
            </span>
            {s.current ? (
              <span className="badge-current">{t('account.sessions.thisBrowser')}</span>
            ) : (
              <button type="button" onClick={() => void revoke(s.id)}>
                {t('account.sessions.signOut')}
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
          {t('account.sessions.logOutEverywhere')}
        </button>
      </div>
    </div>
  );
}
