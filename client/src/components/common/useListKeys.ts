import { useState, type KeyboardEvent } from 'react';

/**
 * The highlighted option of a result list driven from its input: the arrows
 * move it round the list, Enter chooses it. `active` stays within the list as
 * it shrinks; `setActive` follows the mouse or starts over on a new query.
 */
export function useListKeys(count: number, choose: (index: number) => void) {
  const [highlighted, setActive] = useState(0);
  const active = Math.max(0, Math.min(highlighted, count - 1));
  const onKeyDown = (event: KeyboardEvent) => {
    if (count === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (Math.min(i, count - 1) + step + count) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(active);
    }
  };
  return { active, setActive, onKeyDown };
}
