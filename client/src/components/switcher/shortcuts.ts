/** Ctrl+K, or ⌘K on a Mac: the quick switcher. */
export const isQuickSwitcherKey = (event: KeyboardEvent): boolean =>
  (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';

/** Ctrl+Shift+F, or ⌘⇧F on a Mac: message search. */
export const isMessageSearchKey = (event: KeyboardEvent): boolean =>
  (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'f';

const onMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The keys as this platform's keyboard names them, for hints. */
export const shortcutKeys = (which: 'switcher' | 'search'): string =>
  which === 'switcher' ? (onMac() ? '⌘K' : 'Ctrl+K') : onMac() ? '⌘⇧F' : 'Ctrl+Shift+F';
