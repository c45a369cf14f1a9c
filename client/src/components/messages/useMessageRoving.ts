import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';

/** A message in the list: the one element per message that takes the arrows. */
const MESSAGE = '[data-message-key]';
/** What Tab would stop at inside the list. */
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
/** Marks a control this hook took out of the Tab order (and so may put back): its own tabindex, if it had one. */
const OFF = 'data-roving-off';
/** Frames to wait for the virtualized list to render the rows a key scrolled to. */
const MAX_FRAMES = 20;

const messagesIn = (scroller: HTMLElement) => [...scroller.querySelectorAll<HTMLElement>(MESSAGE)];

/** The message `node` is in, if any. */
export function messageOf(node: EventTarget | null): HTMLElement | null {
  return node instanceof Element ? node.closest<HTMLElement>(MESSAGE) : null;
}

/** After a message goes (deleted, moved away), the next one takes focus, or else the one before. */
export function focusNextMessage(from: HTMLElement | null): void {
  const list = from?.closest<HTMLElement>('[data-virtuoso-scroller]');
  if (!from || !list) return;
  const all = messagesIn(list);
  const at = all.indexOf(from);
  (all[at + 1] ?? all[at - 1] ?? from).focus();
}

/**
 * The message list as one Tab stop, like Slack's (a roving tabindex): only
 * one message is in the Tab order, with its own buttons and links; the rest
 * of the list is skipped. Up/Down, Home/End and PageUp/PageDown move focus
 * between messages, scrolling the virtualized list to the one focused; Tab
 * goes into the focused message's controls, Escape from them back to it.
 * The list renders rows as they scroll in, so the Tab order is set on the
 * DOM whenever rows change, whoever rendered them.
 *
 * `jumpSeq`: a message the list was opened at to show it (a search result,
 * a permalink): it takes focus once it is rendered.
 */
export function useMessageRoving(handle: RefObject<VirtuosoHandle | null>, jumpSeq?: number) {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const scrollerRef = useCallback((el: HTMLElement | Window | null) => {
    setScroller(el instanceof HTMLElement ? el : null);
  }, []);
  // The message that is the list's Tab stop (by key: rows come and go as the list scrolls).
  const active = useRef<string | null>(null);
  const jump = useRef(jumpSeq);

  useEffect(() => {
    if (!scroller) return;
    let frame = 0;
    const apply = () => {
      const all = messagesIn(scroller);
      const stop = all.find((m) => m.dataset.messageKey === active.current) ?? lastInView(scroller, all);
      for (const message of all) message.tabIndex = message === stop ? 0 : -1;
      for (const el of scroller.querySelectorAll<HTMLElement>(FOCUSABLE)) {
        if (el.matches(MESSAGE)) continue;
        const inStop = stop?.contains(el) ?? false;
        if (inStop && el.hasAttribute(OFF)) {
          // Back as it was: its own tabindex, or none.
          const own = el.getAttribute(OFF);
          if (own) el.setAttribute('tabindex', own);
          else el.removeAttribute('tabindex');
          el.removeAttribute(OFF);
        } else if (!inStop && !el.hasAttribute(OFF) && el.getAttribute('tabindex') !== '-1') {
          el.setAttribute(OFF, el.getAttribute('tabindex') ?? '');
          el.setAttribute('tabindex', '-1');
        }
      }
      if (jump.current !== undefined) {
        const target = all.find((m) => Number(m.dataset.seq) >= jump.current!);
        if (target) {
          jump.current = undefined;
          activate(target);
          target.focus({ preventScroll: true });
        }
      }
    };
    const activate = (message: HTMLElement) => {
      if (message.dataset.messageKey === active.current) return;
      active.current = message.dataset.messageKey ?? null;
      apply();
    };
    /** Focuses what `find` picks once the list has rendered it (a few frames at most). */
    const focusWhenShown = (find: (all: HTMLElement[]) => HTMLElement | undefined) => {
      cancelAnimationFrame(frame);
      let tries = 0;
      const attempt = () => {
        const found = find(messagesIn(scroller));
        // Two frames at least: the scroll just asked for renders other rows first.
        if (found && tries >= 2) {
          activate(found);
          found.focus();
        } else if (tries++ < MAX_FRAMES) frame = requestAnimationFrame(attempt);
      };
      frame = requestAnimationFrame(attempt);
    };

    const onFocusIn = (event: FocusEvent) => {
      const message = messageOf(event.target);
      if (message) activate(message);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const message = messageOf(event.target);
      if (!message || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target !== message) {
        // From a control of the message back to the message, unless a menu or a field has Escape.
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        const target = event.target as HTMLElement;
        if (target.closest('[role="menu"], [role="dialog"], input, textarea, select')) return;
        if (message.querySelector('[aria-expanded="true"]')) return;
        event.preventDefault();
        message.focus();
        return;
      }
      const all = messagesIn(scroller);
      const at = all.indexOf(message);
      const page = scroller.clientHeight * 0.9;
      let handled = true;
      if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
        const next = all[at + (event.key === 'ArrowUp' ? -1 : 1)];
        if (next) {
          activate(next);
          next.focus();
        } else {
          // At the edge of the rows rendered: scroll on, and the next one renders.
          scroller.scrollBy({ top: event.key === 'ArrowUp' ? -page / 2 : page / 2 });
          const key = message.dataset.messageKey;
          focusWhenShown((shown) => {
            const i = shown.findIndex((m) => m.dataset.messageKey === key);
            return i < 0 ? undefined : shown[i + (event.key === 'ArrowUp' ? -1 : 1)];
          });
        }
      } else if (event.key === 'Home') {
        handle.current?.scrollTo({ top: 0 });
        focusWhenShown((shown) => shown[0]);
      } else if (event.key === 'End') {
        handle.current?.scrollToIndex({ index: 'LAST', align: 'end' });
        focusWhenShown((shown) => shown.at(-1));
      } else if (event.key === 'PageUp' || event.key === 'PageDown') {
        const up = event.key === 'PageUp';
        scroller.scrollBy({ top: up ? -page : page });
        focusWhenShown((shown) => (up ? firstInView(scroller, shown) : lastInView(scroller, shown)));
      } else handled = false;
      if (handled) event.preventDefault();
    };

    const observer = new MutationObserver(apply);
    observer.observe(scroller, { childList: true, subtree: true });
    apply();
    scroller.addEventListener('focusin', onFocusIn);
    scroller.addEventListener('keydown', onKeyDown);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      scroller.removeEventListener('focusin', onFocusIn);
      scroller.removeEventListener('keydown', onKeyDown);
    };
  }, [scroller, handle]);

  return { scrollerRef };
}

/** The last message whose top is inside the scroller's view (the newest in view at the bottom). */
function lastInView(scroller: HTMLElement, all: HTMLElement[]): HTMLElement | undefined {
  const bottom = scroller.getBoundingClientRect().bottom;
  return all.findLast((m) => m.getBoundingClientRect().top < bottom) ?? all.at(-1);
}

/** The first message whose bottom is inside the scroller's view. */
function firstInView(scroller: HTMLElement, all: HTMLElement[]): HTMLElement | undefined {
  const top = scroller.getBoundingClientRect().top;
  return all.find((m) => m.getBoundingClientRect().bottom > top) ?? all[0];
}
