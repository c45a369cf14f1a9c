import type { DirectoryGroup, DirectoryPage } from '@im/protocol';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t } from '../../i18n/i18n.ts';
import { ApiRequestError, describeError } from '../../api/errors.ts';
import { joinPublicGroup, listDirectory } from '../../state/directory.ts';
import { navigate } from '../../state/navigation.ts';
import { useStore } from '../../state/store.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { Icon } from '../common/Icon.tsx';
import { useAction } from '../common/useAction.ts';

/** How long typing must pause before the search goes out. */
export const SEARCH_DELAY_MS = 250;

interface Listing {
  /** The search these items answer. */
  query: string;
  items: DirectoryGroup[];
  nextCursor: string | null;
  loading: boolean;
  error: string | null;
}

/** The listing with a page in: a search's first page replaces, "Load more" appends (once each). */
const withPage =
  (query: string, page: DirectoryPage, append: boolean) =>
  (l: Listing): Listing => {
    if (append && l.query !== query) return l;
    const items = append ? [...l.items, ...page.items.filter((g) => !l.items.some((x) => x.id === g.id))] : page.items;
    return { query, items, nextCursor: page.nextCursor, loading: false, error: null };
  };

/** A failed first page leaves nothing listed (Try again searches again); a failed "Load more" keeps what is shown. */
const failed =
  (err: unknown, query?: string) =>
  (l: Listing): Listing =>
    query === undefined
      ? { ...l, loading: false, error: describeError(err) }
      : { query, items: [], nextCursor: null, loading: false, error: describeError(err) };

export const memberCountText = (count: number): string => t('explore.members', { count });

/** The directory of public groups: search by name, join one (or open it when I am in), page through. */
export function ExploreView(props: { onBack?: () => void }) {
  const { t } = useTranslation();
  const searchId = useId();
  const [query, setQuery] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [listing, setListing] = useState<Listing>({
    query: '',
    items: [],
    nextCursor: null,
    loading: true,
    error: null,
  });

  // A new search starts from the first page once typing pauses; an answer to an older search is dropped.
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      setListing((l) => ({ ...l, loading: true, error: null }));
      listDirectory(query, null).then(
        (page) => current && setListing(withPage(query, page, false)),
        (err: unknown) => current && setListing(failed(err, query)),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, attempt]);

  const more = () => {
    const { query: shown, nextCursor } = listing;
    if (!nextCursor) return;
    setListing((l) => ({ ...l, loading: true, error: null }));
    listDirectory(shown, nextCursor).then(
      (page) => setListing(withPage(shown, page, true)),
      (err: unknown) => setListing((l) => (l.query === shown ? failed(err)(l) : l)),
    );
  };

  const searched = listing.query.trim();
  const empty = !listing.loading && !listing.error && listing.items.length === 0;
  return (
    <section className="explore-view" aria-labelledby={`${searchId}-title`}>
      <header className="converse-head">
        {props.onBack && (
          <button type="button" className="icon-button back" aria-label={t('explore.back')} onClick={props.onBack}>
            <Icon name="back" size={24} />
          </button>
        )}
        <h1 id={`${searchId}-title`}>{t('explore.title')}</h1>
      </header>
      <div className="explore-body">
        <div className="explore-search">
          <label htmlFor={searchId}>{t('explore.search')}</label>
          <input
            id={searchId}
            type="search"
            value={query}
            placeholder={t('explore.search.placeholder')}
            maxLength={100}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        {listing.error && (
          <div className="explore-error">
            <ErrorLine error={t('explore.loadFailed', { reason: listing.error })} />
            <button type="button" onClick={() => (listing.items.length ? more() : setAttempt((n) => n + 1))}>
              {t('common.retry')}
            </button>
          </div>
        )}
        <p className="hint" role="status" data-testid="directory-status">
          {listing.loading && t('common.loading')}
          {empty && (searched ? t('explore.noMatch', { query: searched }) : t('explore.none'))}
        </p>
        <ul className="directory" aria-label={t('explore.list')}>
          {listing.items.map((entry) => (
            <DirectoryItem key={entry.id} entry={entry} />
          ))}
        </ul>
        {listing.nextCursor && !listing.error && (
          <div className="form-actions explore-more">
            <button type="button" disabled={listing.loading} onClick={more}>
              {t('explore.more')}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}

/** A refused join said plainly: the group stopped being public (404), or I am banned (403). */
function explainJoin(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 404) return t('explore.notPublic');
  return describeError(err);
}

function DirectoryItem(props: { entry: DirectoryGroup }) {
  const { t } = useTranslation();
  const { entry } = props;
  const nameId = useId();
  const mine = useStore((s) => s.groups[entry.id]);
  const { busy, error, run } = useAction();
  return (
    <li className="directory-item" data-testid="directory-group" aria-labelledby={nameId}>
      <span className="directory-mark" aria-hidden="true">
        {[...entry.name].slice(0, 2).join('')}
      </span>
      <div className="directory-main">
        <h2 id={nameId} className="directory-name">
          {entry.name}
        </h2>
        <p className="hint" data-testid="member-count">
          {memberCountText(entry.memberCount)}
        </p>
        {entry.description && (
          <p className="directory-description" data-testid="description">
            {entry.description}
          </p>
        )}
        <ErrorLine error={error} />
      </div>
      <div className="directory-action">
        {mine ? (
          <button
            type="button"
            onClick={() => navigate({ name: 'group', groupId: mine.id, converseId: mine.panels[0]?.converseId })}
          >
            {t('explore.open')} <span className="visually-hidden">{entry.name}</span>
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void run(() => joinPublicGroup(entry.id), explainJoin)}
          >
            {busy ? t('explore.joining') : t('explore.join')} <span className="visually-hidden">{entry.name}</span>
          </button>
        )}
      </div>
    </li>
  );
}
