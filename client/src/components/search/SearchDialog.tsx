import type { Message } from '@im/protocol';
import { useEffect, useId, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { openResult, placeOf, searchMessages, snippet } from '../../state/search.ts';
import { getState, useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Dialog } from '../common/Dialog.tsx';
import { useListKeys } from '../common/useListKeys.ts';
import { formatMoment } from '../messages/format.ts';
import './search.css';

/** Typing pauses this long before the server is asked: one request per word, not per key. */
const DEBOUNCE_MS = 200;

type Found = { q: string; items: Message[] } | { q: string; error: string };

/**
 * Message search over every converse I am in: results newest first, with who
 * said it, where, the words around the match and when; arrows move, Enter
 * (or a click) opens the message in its converse.
 */
export function SearchDialog(props: { onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const users = useStore((s) => s.users);
  const groups = useStore((s) => s.groups);
  const dms = useStore((s) => s.dms);
  const me = useStore((s) => s.me);
  const listId = useId();
  const q = query.trim().slice(0, 100);
  const items = found && 'items' in found ? found.items : [];
  const choose = (message: Message) => {
    props.onClose();
    openResult(message, getState());
  };
  const { active, setActive, onKeyDown } = useListKeys(items.length, (i) => choose(items[i]!));

  useEffect(() => {
    if (!q) {
      setFound(null);
      return;
    }
    // A later query's answer wins, whatever order the answers come in.
    let current = true;
    const timer = setTimeout(() => {
      searchMessages(q).then(
        (items) => current && (setFound({ q, items }), setActive(0)),
        (err: unknown) => current && setFound({ q, error: describeError(err) }),
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, setActive]);

  const optionId = (i: number) => `${listId}-${i}`;

  return (
    <Dialog title="Search messages" onClose={props.onClose} wide>
      <div className="search">
        <input
          type="search"
          className="search-input"
          placeholder="Search messages"
          aria-label="Search messages"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-activedescendant={items.length > 0 ? optionId(active) : undefined}
          autoComplete="off"
          maxLength={100}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {found && 'error' in found && (
          <p className="error-line" role="alert">
            Could not search: {found.error}
          </p>
        )}
        {found && 'items' in found && found.items.length === 0 && (
          <p className="hint" role="status">
            No messages contain “{found.q}”.
          </p>
        )}
        <ul className="search-results" id={listId} role="listbox" aria-label="Results">
          {items.map((message, i) => {
            const part = snippet(message.content, found?.q ?? q);
            return (
              <li
                key={message.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'search-result active' : 'search-result'}
                data-testid="search-result"
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(message)}
              >
                <div className="search-result-head">
                  <span className="author">{displayName(users[message.authorId])}</span>
                  <span className="where">{placeOf(message.converseId, { groups, dms, users, me }).label}</span>
                  <time dateTime={message.createdAt}>{formatMoment(message.createdAt)}</time>
                </div>
                <p className="search-snippet" data-testid="search-snippet">
                  {part.before}
                  {part.match && <mark>{part.match}</mark>}
                  {part.after}
                </p>
              </li>
            );
          })}
        </ul>
      </div>
    </Dialog>
  );
}
