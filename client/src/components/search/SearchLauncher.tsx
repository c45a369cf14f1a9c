import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../common/Icon.tsx';
import { isMessageSearchKey, shortcutKeys } from '../switcher/shortcuts.ts';
import { SearchDialog } from './SearchDialog.tsx';
import { accountStore } from '../../state/account-state.ts';

const useSearchOpen = accountStore<{ open: boolean; query: string }>('search dialog', () => ({
  open: false,
  query: '',
}));

/** Opens message search, with `query` already typed (the quick switcher's last entry). */
export const openSearch = (query = '') => useSearchOpen.setState({ open: true, query });
const close = () => useSearchOpen.setState({ open: false, query: '' });

/** Ctrl+Shift+F (⌘⇧F on a Mac) anywhere in the app opens message search; the dialog lives here, once. */
export function SearchLauncher() {
  const open = useSearchOpen((s) => s.open);
  const query = useSearchOpen((s) => s.query);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isMessageSearchKey(event)) return;
      event.preventDefault();
      openSearch();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return open ? <SearchDialog initialQuery={query} onClose={close} /> : null;
}

/** The header's way in, for those who do not know the shortcut. */
export function SearchButton() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t('search.title')}
      title={t('search.button.title', { keys: shortcutKeys('search') })}
      onClick={() => openSearch()}
    >
      <Icon name="search" />
    </button>
  );
}
