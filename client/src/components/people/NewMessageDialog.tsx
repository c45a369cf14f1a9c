import { useState, type KeyboardEvent } from 'react';
import { startDm } from '../../state/groups.ts';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { Dialog } from '../common/Dialog.tsx';
import { useUserSearch } from './useUserSearch.ts';

/** Finds someone by name to start (or reopen) a direct conversation with them. */
export function NewMessageDialog(props: { onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const meId = useStore((s) => s.me?.id);
  const presence = useStore((s) => s.presence);
  const { results, searching, error } = useUserSearch(query, meId);
  const choose = (userId: string) => {
    props.onClose();
    void startDm(userId);
  };
  const onKey = (event: KeyboardEvent) => {
    if (results.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + results.length) % results.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(results[Math.min(active, results.length - 1)]!.id);
    }
  };
  const listId = 'new-message-results';
  return (
    <Dialog title="New message" onClose={props.onClose}>
      <label className="field">
        <span>To</span>
        <input
          type="search"
          value={query}
          placeholder="Name or username"
          autoComplete="off"
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-activedescendant={results.length > 0 ? `${listId}-${Math.min(active, results.length - 1)}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
      </label>
      <ul className="user-results" id={listId} role="listbox" aria-label="People">
        {results.map((user, i) => (
          <li
            key={user.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : undefined}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(user.id)}
          >
            <Avatar user={user} size={28} online={presence[user.id]} />
            <span className="user-result-name">{displayName(user)}</span>
            <span className="hint">@{user.username}</span>
          </li>
        ))}
      </ul>
      {query.trim() && !searching && results.length === 0 && (
        <p className="hint" role="status">
          {error ?? 'Nobody found by that name.'}
        </p>
      )}
    </Dialog>
  );
}
