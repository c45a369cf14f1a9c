import type { AuditEntry, AuditPage } from '@im/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { useStore } from '../../state/store.ts';
import { displayName, ensureUsers } from '../../state/users.ts';
import { formatMoment } from '../messages/format.ts';
import { auditSentence } from './audit-text.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';

/** The people an entry names, to load their names. */
function namedIds(entry: AuditEntry): string[] {
  const ids = [entry.actorId];
  if (entry.target.type === 'user' || entry.target.type === 'member') ids.push(entry.target.id);
  if (typeof entry.details.authorId === 'string') ids.push(entry.details.authorId);
  return ids;
}

/** An audit log, newest first, one page at a time ("Load more" follows the cursor). */
export function AuditLog(props: { load: (cursor: string | null) => Promise<AuditPage> }) {
  const { t } = useTranslation();
  const users = useStore((s) => s.users);
  const [items, setItems] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<'loading' | 'idle' | 'done'>('loading');
  const [error, setError] = useState<string | null>(null);
  const loader = useRef(props.load);

  const more = async (from: string | null) => {
    setState('loading');
    setError(null);
    try {
      const page = await loader.current(from);
      ensureUsers(page.items.flatMap(namedIds));
      setItems((held) => {
        const seen = new Set(held.map((e) => e.id));
        return [...held, ...page.items.filter((e) => !seen.has(e.id))];
      });
      setCursor(page.nextCursor);
      setState(page.nextCursor ? 'idle' : 'done');
    } catch (err) {
      setError(describeError(err));
      setState('idle');
    }
  };
  // The first page once; the view is mounted afresh for another log.
  const first = useRef(more);
  useEffect(() => void first.current(null), []);

  const names = {
    user: (id: string, fallback?: string) => displayName(users[id], fallback ?? t('safety.audit.someone')),
    when: (iso: string) => formatMoment(iso),
  };
  return (
    <div className="audit">
      {items.length === 0 && state === 'done' && <p className="hint">{t('safety.audit.empty')}</p>}
      <ol className="mod-list" aria-label={t('safety.audit.label')}>
        {items.map((entry) => (
          <li key={entry.id} className="audit-entry" data-testid="audit-entry">
            <time dateTime={entry.at} className="hint">
              {formatMoment(entry.at)}
            </time>{' '}
            <span>{auditSentence(entry, names)}</span>
            {entry.groupName !== undefined && (
              <span className="hint audit-group" data-testid="audit-group">
                {' '}
                {t('safety.audit.inGroup', { group: entry.groupName })}
              </span>
            )}
          </li>
        ))}
      </ol>
      <ErrorLine error={error} />
      {state === 'loading' && <p className="hint">{t('common.loading')}</p>}
      {state === 'idle' && cursor !== null && (
        <button type="button" onClick={() => void more(cursor)}>
          {t('safety.audit.loadMore')}
        </button>
      )}
      {state === 'idle' && cursor === null && error && (
        <button type="button" onClick={() => void more(null)}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
