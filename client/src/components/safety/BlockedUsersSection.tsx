import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { loadBlocks, unblockUser, useBlocks } from '../../state/blocks.ts';
import { useStore } from '../../state/store.ts';
import { displayName, ensureUsers } from '../../state/users.ts';

/** Settings: the users I blocked, each with Unblock. */
export function BlockedUsersSection() {
  const { t } = useTranslation();
  const blocked = useBlocks((s) => s.blocked);
  const users = useStore((s) => s.users);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => loadBlocks(), []);
  useEffect(() => {
    if (blocked) ensureUsers(blocked.map((b) => b.userId));
  }, [blocked]);
  const unblock = async (userId: string) => {
    setError(null);
    try {
      await unblockUser(userId);
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <div className="form" data-testid="blocked-users">
      <h3>{t('safety.blockedUsers.title')}</h3>
      {blocked?.length === 0 && <p className="hint">{t('safety.blockedUsers.none')}</p>}
      <ul className="session-list">
        {blocked?.map((b) => {
          const user = users[b.userId];
          return (
            <li key={b.userId} data-testid="blocked-user">
              <span className="session-agent">{displayName(user, t('safety.blockedUsers.someone'))}</span>
              <span className="hint">
                {t('safety.blockedUsers.since', { username: user?.username ?? '', at: new Date(b.createdAt) })}
              </span>
              <button type="button" onClick={() => void unblock(b.userId)}>
                {t('safety.unblock')}
              </button>
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="hint" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
