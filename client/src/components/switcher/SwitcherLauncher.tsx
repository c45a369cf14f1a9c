import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../common/Icon.tsx';
import { accountStore } from '../../state/account-state.ts';
import { getState, useStore } from '../../state/store.ts';
import { openSearch } from '../search/SearchLauncher.tsx';
import { isQuickSwitcherKey, shortcutKeys } from './shortcuts.ts';
import { visited } from './recent-converses.ts';
import { QuickSwitcher } from './QuickSwitcher.tsx';

const useSwitcherOpen = accountStore<{ open: boolean }>('quick switcher', () => ({ open: false }));
const setOpen = (open: boolean) => useSwitcherOpen.setState({ open });

/** Ctrl+K (⌘K on a Mac) anywhere in the app opens the quick switcher; it also notes which converses I open. */
export function SwitcherLauncher() {
  const open = useSwitcherOpen((s) => s.open);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isQuickSwitcherKey(event)) return;
      // The browser's own Ctrl+K (its search bar) would take the keys otherwise.
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    visited(getState().route);
    const stop = useStore.subscribe((s) => visited(s.route));
    return () => {
      document.removeEventListener('keydown', onKey);
      stop();
    };
  }, []);
  return open ? <QuickSwitcher onClose={() => setOpen(false)} onSearch={openSearch} /> : null;
}

/** The header's way in, for those who do not know the shortcut (or have no keyboard). */
export function SwitcherButton() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t('switcher.title')}
      title={t('switcher.button.title', { keys: shortcutKeys('switcher') })}
      onClick={() => setOpen(true)}
    >
      <Icon name="forward" />
    </button>
  );
}
