/** The items of the `role="menu"` inside `holder`, in order (disabled ones skipped, as the arrows skip them). */
export function menuItems(holder: HTMLElement | null | undefined): HTMLElement[] {
  const menu = holder?.querySelector<HTMLElement>('[role="menu"]');
  if (!menu) return [];
  return [
    ...menu.querySelectorAll<HTMLElement>('[role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"]'),
  ].filter((item) => !item.hasAttribute('disabled') && item.getAttribute('aria-disabled') !== 'true');
}

/**
 * Moves focus among `items` for an arrow, Home or End key (round the ends,
 * as menus do); says whether the key was one of those.
 */
export function moveAmong(items: readonly HTMLElement[], key: string): boolean {
  if (items.length === 0) return false;
  const at = items.indexOf(document.activeElement as HTMLElement);
  let next: number;
  if (key === 'ArrowDown') next = at < 0 ? 0 : (at + 1) % items.length;
  else if (key === 'ArrowUp') next = at < 0 ? items.length - 1 : (at - 1 + items.length) % items.length;
  else if (key === 'Home') next = 0;
  else if (key === 'End') next = items.length - 1;
  else return false;
  items[next]!.focus();
  return true;
}
