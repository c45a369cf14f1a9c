import { useEffect, useRef, useState } from 'react';
import { menuItems, moveAmong } from './menu-keys.ts';

// The close function of the menu that is open now: opening another closes it,
// so at most one menu is ever open.
let closeOpenMenu: (() => void) | null = null;

/**
 * A pop-up menu's or popover's open state (menus, Threads, Pins, profile card,
 * emoji pickers). Attach `ref` to the element holding both the
 * button and the menu: while open, Escape closes it, and so does a press
 * anywhere outside that element. Closed by Escape or by choosing an item,
 * focus goes back to the button (a dialog the item opened returns it there).
 * A `role="menu"` inside opens with focus on its first item, and the arrows,
 * Home and End move among its items (the WAI-ARIA menu button pattern).
 */
export function useMenu<T extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!open) return;
    const close = () => setOpen(false);
    // The element holding the button and the menu stays while the menu comes and goes.
    const holder = ref.current;
    const button = () => holder?.querySelector<HTMLElement>('[aria-expanded]');
    let pressedOutside = false;
    closeOpenMenu?.();
    closeOpenMenu = close;
    menuItems(holder)[0]?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        return;
      }
      const target = event.target instanceof Node ? event.target : null;
      if (target && holder?.contains(target) && moveAmong(menuItems(holder), event.key)) event.preventDefault();
    };
    const onPress = (event: PointerEvent | MouseEvent) => {
      if (event.target instanceof Node && holder?.contains(event.target)) return;
      pressedOutside = true;
      close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onPress);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onPress);
      if (closeOpenMenu === close) closeOpenMenu = null;
      // The chosen item is gone with the menu (focus fell to the page): back to the button.
      const active = document.activeElement;
      if (!pressedOutside && (active === document.body || (active && holder?.contains(active)))) button()?.focus();
    };
  }, [open]);
  return { open, setOpen, ref };
}
