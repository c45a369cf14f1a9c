import type { AdminUser, AdminUserPage } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { listUsers, setUserActive } from '../../state/admin.ts';
import { useStore } from '../../state/store.ts';
import { formatMoment } from '../messages/format.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { ClaimLink } from './ClaimLink.tsx';
import { ResetLink } from './ResetLink.tsx';
import { useAction } from '../common/useAction.ts';
import { confirmAction } from '../common/confirm.ts';

const SEARCH_DELAY_MS = 250;

interface Listing {
  items: AdminUser[];
  nextCursor: string | null;
  loading: boolean;
  error: string | null;
}

/** The listing with a page in: the first of a search replaces, "Load more" appends. */
const shown =
  (page: AdminUserPage, append: boolean) =>
  (l: Listing): Listing => ({
    items: append ? [...l.items, ...page.items.filter((u) => !l.items.some((x) => x.id === u.id))] : page.items,
    nextCursor: page.nextCursor,
    loading: false,
    error: null,
  });

const failed =
  (err: unknown) =>
  (l: Listing): Listing => ({ ...l, loading: false, error: describeError(err) });

/**
 * Every account, searchable and paged, with its state; any but mine can be
 * deactivated or activated, or given a password reset link (an imported one
 * that nobody claimed yet: a claim link).
 */
export function UsersTab() {
  const { t } = useTranslation();
  const meId = useStore((s) => s.me?.id);
  const [query, setQuery] = useState('');
  const [listing, setListing] = useState<Listing>({ items: [], nextCursor: null, loading: true, error: null });

  // A new search starts from the first page once typing pauses; an older answer arriving late is dropped.
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      setListing((l) => ({ ...l, loading: true, error: null }));
      listUsers(query, null).then(
        (page) => current && setListing(shown(page, false)),
        (err: unknown) => current && setListing(failed(err)),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);

  const more = (cursor: string) => {
    setListing((l) => ({ ...l, loading: true, error: null }));
    listUsers(query, cursor).then(
      (page) => setListing(shown(page, true)),
      (err: unknown) => setListing(failed(err)),
    );
  };

  const changed = (user: AdminUser) =>
    setListing((l) => ({ ...l, items: l.items.map((u) => (u.id === user.id ? user : u)) }));

  return (
    <div className="form">
      <label>
        {t('admin.users.search')}
        <input
          type="search"
          value={query}
          placeholder={t('admin.users.search.placeholder')}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      <ErrorLine error={listing.error} />
      {!listing.loading && listing.items.length === 0 && !listing.error && (
        <p className="hint">{t('admin.users.none')}</p>
      )}
      <ul className="mod-list" aria-label={t('admin.tab.users')}>
        {listing.items.map((user) => (
          <UserRow key={user.id} user={user} self={user.id === meId} onChanged={changed} />
        ))}
      </ul>
      {listing.loading && <p className="hint">{t('common.loading')}</p>}
      {!listing.loading && listing.nextCursor && (
        <button type="button" onClick={() => more(listing.nextCursor!)}>
          {t('admin.users.more')}
        </button>
      )}
    </div>
  );
}

function UserRow(props: { user: AdminUser; self: boolean; onChanged: (user: AdminUser) => void }) {
  const { t } = useTranslation();
  const { user } = props;
  const { busy, error, run } = useAction();
  const toggle = async () => {
    const active = !user.active;
    if (
      !active &&
      !(await confirmAction({
        message: 'shell.confirm.deactivateUser',
        values: { username: user.username },
        confirm: 'shell.confirm.deactivate',
      }))
    )
      return;
    await run(async () => {
      await setUserActive(user.id, active);
      props.onChanged({ ...user, active });
    });
  };
  const toggleButton = (
    <button type="button" className={user.active ? 'danger' : undefined} disabled={busy} onClick={() => void toggle()}>
      {user.active ? t('admin.users.deactivate') : t('admin.users.activate')}
    </button>
  );
  return (
    <li className="mod-item" data-testid="admin-user" aria-label={`@${user.username}`}>
      <p className="mod-line">
        <strong>{user.nickname || user.username}</strong> <span className="hint">@{user.username}</span>
        {user.serverAdmin && <span className="role">{t('admin.users.serverAdmin')}</span>}
        {user.imported && (
          <span className="role" title={t('admin.users.imported.hint')} data-testid="user-imported">
            {t('admin.users.imported')}
          </span>
        )}
        <span className={user.active ? 'state-tag ok' : 'state-tag off'} data-testid="user-state">
          {user.active ? t('admin.users.active') : t('admin.users.deactivated')}
        </span>
      </p>
      <p className="mod-line hint">
        {user.lastSeenAt
          ? t('admin.users.joinedSeen', { joined: formatMoment(user.createdAt), seen: formatMoment(user.lastSeenAt) })
          : t('admin.users.joinedNeverSeen', { joined: formatMoment(user.createdAt) })}
      </p>
      <ErrorLine error={error} />
      {user.imported && !props.self ? (
        <ClaimLink user={user}>{toggleButton}</ClaimLink>
      ) : (
        <ResetLink user={user} self={props.self}>
          {!props.self && toggleButton}
        </ResetLink>
      )}
    </li>
  );
}
