import { useEffect } from 'react';
import { Icon } from '../common/Icon.tsx';
import { SearchDialog } from './SearchDialog.tsx';
import { accountStore } from '../../state/account-state.ts';

const useSearchOpen = accountStore<{ open: boolean }>('search dialog', () => ({ open: false }));
const setOpen = (open: boolean) => useSearchOpen.setState({ open });

/** Ctrl+K (⌘K on a Mac) anywhere in the app opens search; the dialog lives here, once. */
export function SearchLauncher() {
  const open = useSearchOpen((s) => s.open);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        // The browser's own Ctrl+K (its search bar) would take the keys otherwise.
        event.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return open ? <SearchDialog onClose={() => setOpen(false)} /> : null;
}

/** The header's way in, for those who do not know the shortcut. */
export function SearchButton() {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label="Search messages"
      title="Search messages (Ctrl+K)"
      onClick={() => setOpen(true)}
    >
      <Icon name="search" />
    </button>
  );
}
