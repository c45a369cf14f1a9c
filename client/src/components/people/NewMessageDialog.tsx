import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { startDm } from '../../state/groups.ts';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { Dialog } from '../common/Dialog.tsx';
import { useListKeys } from '../common/useListKeys.ts';
import { useUserSearch } from './useUserSearch.ts';

/** Finds someone by name to start (or reopen) a direct conversation with them. */
export function NewMessageDialog(props: { onClose: () => void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const meId = useStore((s) => s.me?.id);
  const presence = useStore((s) => s.presence);
  const { results, searching, error } = useUserSearch(query, meId);
  const choose = (userId: string) => {
    props.onClose();
    void startDm(userId);
  };
  const { active, setActive, onKeyDown } = useListKeys(results.length, (i) => choose(results[i]!.id));
  const listId = 'new-message-results';
  return (
    <Dialog title={t('shell.sidebar.newMessage')} onClose={props.onClose}>
      <label className="field">
        <span>{t('shell.newMessage.to')}</span>
        <input
          type="search"
          value={query}
          placeholder={t('shell.newMessage.placeholder')}
          autoComplete="off"
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-activedescendant={results.length > 0 ? `${listId}-${active}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </label>
      <ul className="user-results" id={listId} role="listbox" aria-label={t('shell.newMessage.people')}>
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
          {error ?? t('shell.newMessage.nobody')}
        </p>
      )}
    </Dialog>
  );
}
