import type { Message } from '@im/protocol';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { openResult, placeOf, searchMessages, snippet } from '../../state/search.ts';
import { filterAtCaret, splitFilters, withoutFilter } from '../../state/search-filters.ts';
import { getState, useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Dialog } from '../common/Dialog.tsx';
import { useListKeys } from '../common/useListKeys.ts';
import { formatMoment } from '../messages/format.ts';
import { completionsFor, type Completion } from './search-completions.ts';
import './search.css';
import { comboboxAttributes, optionIdOf } from '../common/combobox.ts';

/** Typing pauses this long before the server is asked: one request per word, not per key. */
const DEBOUNCE_MS = 200;

type Found = { q: string; items: Message[] } | { q: string; error: string };

/**
 * Message search over every converse I am in: results newest first, with who
 * said it, where, the words around the match and when; arrows move, Enter
 * (or a click) opens the message in its converse. Filters typed in the box
 * show as chips; while a `from:` or `in:` is typed the list offers names.
 */
export function SearchDialog(props: { onClose: () => void; initialQuery?: string }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState(props.initialQuery ?? '');
  const [caret, setCaret] = useState((props.initialQuery ?? '').length);
  const [found, setFound] = useState<Found | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const users = useStore((s) => s.users);
  const groups = useStore((s) => s.groups);
  const groupOrder = useStore((s) => s.groupOrder);
  const dms = useStore((s) => s.dms);
  const dmOrder = useStore((s) => s.dmOrder);
  const members = useStore((s) => s.members);
  const me = useStore((s) => s.me);
  const listId = useId();
  const q = query.trim().slice(0, 100);
  const { text, filters } = useMemo(() => splitFilters(q), [q]);
  const typing = filterAtCaret(query, caret);
  const typingKey = typing?.key;
  const typingPartial = typing?.partial ?? '';
  const typingWord = typing ? query.slice(typing.start, typing.end).toLowerCase() : '';
  const completions: Completion[] = useMemo(() => {
    if (!typingKey) return [];
    const offered = completionsFor(typingKey, typingPartial, { groups, groupOrder, dms, dmOrder, users, members, me });
    // A name typed out in full needs no offer: the results show instead.
    return offered.some((c) => c.insert.toLowerCase() === typingWord) ? [] : offered;
  }, [typingKey, typingPartial, typingWord, groups, groupOrder, dms, dmOrder, users, members, me]);
  const offering = completions.length > 0;
  const items = found && 'items' in found ? found.items : [];
  const showing = completions.length > 0 ? completions.length : items.length;

  const complete = (c: Completion) => {
    if (!typing) return;
    const next = `${query.slice(0, typing.start)}${c.insert} ${query.slice(typing.end).trimStart()}`;
    setQuery(next);
    const at = typing.start + c.insert.length + 1;
    setCaret(at);
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };
  const choose = (message: Message) => {
    props.onClose();
    openResult(message, getState());
  };
  const { active, setActive, onKeyDown } = useListKeys(showing, (i) =>
    completions.length > 0 ? complete(completions[i]!) : choose(items[i]!),
  );
  const removeFilter = (i: number) => {
    const next = withoutFilter(query.trim(), filters[i]!);
    setQuery(next);
    setCaret(next.length);
    input.current?.focus();
  };

  useEffect(() => {
    // A filter still being typed (`from:` alone, or while names are offered) waits for its value.
    if (!q || offering || filters.some((f) => !f.value.replace(/^[#@]/, ''))) {
      if (!q) setFound(null);
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
  }, [q, filters, offering, setActive]);

  const optionId = (i: number) => optionIdOf(listId, i);
  const words = found ? splitFilters(found.q).text : text;

  return (
    <Dialog title={t('search.title')} onClose={props.onClose} wide>
      <div className="search">
        <input
          ref={input}
          type="search"
          className="search-input"
          placeholder={t('search.placeholder')}
          aria-label={t('search.title')}
          aria-describedby={`${listId}-help`}
          {...comboboxAttributes(listId, showing, active)}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setCaret(e.target.selectionStart ?? e.target.value.length);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
          onKeyDown={(e) => {
            if (e.key === 'Tab' && completions.length > 0) {
              e.preventDefault();
              complete(completions[active]!);
              return;
            }
            onKeyDown(e);
          }}
        />
        <p id={`${listId}-help`} className="search-help hint">
          {t('search.help')}
        </p>
        {filters.length > 0 && (
          <ul className="search-chips" aria-label={t('search.filters')}>
            {filters.map((f, i) => (
              <li key={`${f.start}:${f.key}:${f.value}`} className="search-chip" data-testid="search-chip">
                <span>{`${f.key}:${f.value}`}</span>
                <button
                  type="button"
                  className="search-chip-remove"
                  aria-label={t('search.filter.remove', { filter: `${f.key}:${f.value}` })}
                  onClick={() => removeFilter(i)}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        {completions.length === 0 && found && 'error' in found && (
          <p className="error-line" role="alert">
            {t('search.error', { error: found.error })}
          </p>
        )}
        {completions.length === 0 && found && 'items' in found && found.items.length === 0 && (
          <p className="hint" role="status">
            {words ? t('search.none', { query: words }) : t('search.noneFiltered')}
          </p>
        )}
        {completions.length > 0 ? (
          <ul className="search-results" id={listId} role="listbox" aria-label={t('search.completions')}>
            {completions.map((c, i) => (
              <li
                key={c.key}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'search-completion active' : 'search-completion'}
                data-testid="search-completion"
                onMouseEnter={() => setActive(i)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => complete(c)}
              >
                <span className="search-completion-label">{c.label}</span>
                <span className="where">{c.detail}</span>
              </li>
            ))}
          </ul>
        ) : (
          <ul className="search-results" id={listId} role="listbox" aria-label={t('search.results')}>
            {items.map((message, i) => {
              const part = snippet(message.content, words);
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
                    <span className="author">{displayName(users[message.authorId], t('search.someone'))}</span>
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
        )}
      </div>
    </Dialog>
  );
}
