import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadMembers, startDm } from '../../state/groups.ts';
import { navigate } from '../../state/navigation.ts';
import { getState, useStore } from '../../state/store.ts';
import { Dialog } from '../common/Dialog.tsx';
import { useListKeys } from '../common/useListKeys.ts';
import { useRecentConverses } from './recent-converses.ts';
import { rankItems, switcherItems, type SwitcherItem } from './switcher-items.ts';
import './switcher.css';
import { comboboxAttributes, optionIdOf } from '../common/combobox.ts';

/** Groups whose member lists opening the switcher loads, at most (their first pages). */
const MEMBER_LISTS = 20;

/**
 * Ctrl+K: jump to a panel, a DM or a person by typing part of the name. The
 * last entry hands what was typed to message search.
 */
export function QuickSwitcher(props: { onClose: () => void; onSearch: (query: string) => void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const listId = useId();
  const groups = useStore((s) => s.groups);
  const groupOrder = useStore((s) => s.groupOrder);
  const dms = useStore((s) => s.dms);
  const dmOrder = useStore((s) => s.dmOrder);
  const users = useStore((s) => s.users);
  const members = useStore((s) => s.members);
  const me = useStore((s) => s.me);
  const unread = useStore((s) => s.unread);
  const recent = useRecentConverses((s) => s.ids);
  const all = useMemo(
    () => switcherItems({ groups, groupOrder, dms, dmOrder, users, members, me, unread }),
    [groups, groupOrder, dms, dmOrder, users, members, me, unread],
  );
  const items = useMemo(() => rankItems(all, query, recent), [all, query, recent]);
  const words = query.trim();
  // The search entry comes last, once something is typed.
  const count = items.length + (words ? 1 : 0);
  const choose = (index: number) => {
    const item = items[index];
    props.onClose();
    if (!item) props.onSearch(words);
    else if (item.route) navigate(item.route);
    else if (item.userId) void startDm(item.userId);
  };
  const { active, setActive, onKeyDown } = useListKeys(count, choose);
  useEffect(() => {
    // The people I share a group with: the first page of each group's members not loaded yet.
    const { groupOrder, members } = getState();
    for (const groupId of groupOrder.slice(0, MEMBER_LISTS)) if (!members[groupId]) void loadMembers(groupId);
  }, []);
  const optionId = (i: number) => optionIdOf(listId, i);

  const label = (item: SwitcherItem) => {
    if (item.kind === 'panel') return t('switcher.item.panel', { name: item.name, group: item.detail });
    if (item.kind === 'dm') return t('switcher.item.dm', { name: item.name });
    return t('switcher.item.person', { name: item.name });
  };

  return (
    <Dialog title={t('switcher.title')} onClose={props.onClose}>
      <div className="switcher">
        <input
          type="text"
          className="switcher-input"
          placeholder={t('switcher.placeholder')}
          aria-label={t('switcher.input')}
          {...comboboxAttributes(listId, count, active)}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {words && items.length === 0 && (
          <p className="hint" role="status">
            {t('switcher.none', { query: words })}
          </p>
        )}
        <ul className="switcher-list" id={listId} role="listbox" aria-label={t('switcher.list')}>
          {items.map((item, i) => (
            <li
              key={item.key}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              aria-label={
                item.mentions > 0
                  ? t('switcher.item.mentions', { place: label(item), count: item.mentions })
                  : item.unread > 0
                    ? t('switcher.item.unread', { place: label(item), count: item.unread })
                    : label(item)
              }
              className={`switcher-item${i === active ? ' active' : ''}${item.unread > 0 ? ' unread' : ''}`}
              data-testid="switcher-item"
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(i)}
            >
              <span className="switcher-sigil" aria-hidden="true">
                {item.kind === 'panel' ? '#' : '@'}
              </span>
              <span className="switcher-name">{item.name}</span>
              <span className="switcher-detail">{item.kind === 'dm' ? t('switcher.kind.dm') : item.detail}</span>
              {item.mentions > 0 ? (
                <span className="badge mention" aria-hidden="true">
                  {item.mentions}
                </span>
              ) : (
                item.unread > 0 && <span className="switcher-dot" aria-hidden="true" />
              )}
            </li>
          ))}
          {words && (
            <li
              id={optionId(items.length)}
              role="option"
              aria-selected={active === items.length}
              className={`switcher-item switcher-search${active === items.length ? ' active' : ''}`}
              data-testid="switcher-search"
              onMouseEnter={() => setActive(items.length)}
              onClick={() => choose(items.length)}
            >
              {t('switcher.searchFor', { query: words })}
            </li>
          )}
        </ul>
        <p className="switcher-keys hint">{t('switcher.keys')}</p>
      </div>
    </Dialog>
  );
}
