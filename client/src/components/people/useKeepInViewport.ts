import { useLayoutEffect, type RefObject } from 'react';

const MARGIN = 8;

/**
 * Places a popover (absolutely positioned under its anchor, its parent) in the
 * viewport: fixed, below the anchor or above it when there is no room below,
 * and moved in from the edges. On a phone the card would otherwise be cut off
 * by the screen's edge or the scrolling list around it.
 */
export function useKeepInViewport(box: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const el = box.current;
    const anchor = el?.parentElement;
    if (!el || !anchor) return;
    const place = () => {
      const at = anchor.getBoundingClientRect();
      const { width, height } = el.getBoundingClientRect();
      const below = at.bottom + 4;
      const top = below + height <= window.innerHeight - MARGIN ? below : Math.max(MARGIN, at.top - height - 4);
      const left = Math.min(Math.max(MARGIN, at.left), window.innerWidth - width - MARGIN);
      Object.assign(el.style, { position: 'fixed', top: `${top}px`, left: `${Math.max(MARGIN, left)}px` });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [box]);
}
