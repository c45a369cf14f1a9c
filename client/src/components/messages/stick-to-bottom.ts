import { useEffect, useRef } from 'react';

/** Within this many pixels of the end, the list counts as showing the newest message. */
const NEAR_END_PX = 24;

const gapBelow = (scroller: HTMLElement) => scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop;

/**
 * Keeps a scrolled list at its end while the reader is there, whatever changes
 * size: the list's own box (a "Seen by" line, the typing line or files staged
 * in the composer take room from it) or its content (an image that loads, a
 * message that grows). Virtuoso follows new rows by itself, but not a viewport
 * that shrinks under it: the newest message then ended up cut off.
 *
 * `pinned` says whether the reader is at the end: it follows the reader's
 * scrolling, and `pin()` sets it when the list itself says it reached the end
 * (before its rows are measured, its scroll events can say otherwise). A list
 * opened at an older message (a jump, the first unread) passes through its end
 * while it places that message: there, only the reader's own scrolling
 * (wheel, touch, keys, the scrollbar) may pin it.
 */
export function useStickToBottom(
  scroller: HTMLElement | null,
  active: boolean,
  openedAtNewest: boolean,
  /** Told each time the reader scrolls the list themselves. */
  onTouch?: () => void,
) {
  const pinned = useRef(false);
  const touched = useRef(false);
  const live = useRef({ active, openedAtNewest, onTouch });
  live.current = { active, openedAtNewest, onTouch };

  useEffect(() => {
    if (!scroller) return;
    const follow = () => {
      const { active: following, openedAtNewest: trusted } = live.current;
      if (pinned.current && following && (trusted || touched.current) && gapBelow(scroller) > 0)
        scroller.scrollTop = scroller.scrollHeight;
    };
    const onScroll = () => {
      pinned.current = gapBelow(scroller) <= NEAR_END_PX;
    };
    const onTouch = () => {
      touched.current = true;
      live.current.onTouch?.();
    };
    const observer = new ResizeObserver(follow);
    observer.observe(scroller);
    // The rows' box: its border box grows with every row measured (Virtuoso pads it for rows not drawn).
    const rows = scroller.querySelector('[data-testid="virtuoso-item-list"]');
    if (rows) observer.observe(rows, { box: 'border-box' });
    scroller.addEventListener('scroll', onScroll, { passive: true });
    for (const type of TOUCHES) scroller.addEventListener(type, onTouch, { passive: true });
    return () => {
      observer.disconnect();
      scroller.removeEventListener('scroll', onScroll);
      for (const type of TOUCHES) scroller.removeEventListener(type, onTouch);
    };
  }, [scroller]);

  return {
    pin: () => {
      pinned.current = true;
    },
    /** Whether the reader has scrolled this list themselves yet. */
    touched: () => touched.current,
  };
}

/** What only the reader does to a list (the scrollbar is the list's own, so dragging it is a pointerdown). */
const TOUCHES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
