import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';
import { moveAmong } from '../common/menu-keys.ts';

/** A message in the list: the one element per message that takes the arrows. */
const MESSAGE = '[data-message-key]';
/** What Tab would stop at inside the list. */
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
/** Marks a control this hook took out of the Tab order (and so may put back): its own tabindex, if it had one. */
const OFF = 'data-roving-off';
/** Frames to wait for the virtualized list to render the rows a key scrolled to. */
const MAX_FRAMES = 20;
/** Marks the element of a list this hook runs (the timeline's scroller, a thread's replies). */
const LIST = 'data-message-roving';

/** The keys that move in a message's toolbar, as the menu keys they stand for. */
const TOOLBAR_KEYS: Partial<Record<string, string>> = {
  ArrowRight: 'ArrowDown',
  ArrowLeft: 'ArrowUp',
  Home: 'Home',
  End: 'End',
};

/** A message's action buttons (not those of a menu or picker opened from one). */
function toolsOf(message: HTMLElement | undefined): HTMLElement[] {
  const toolbar = message?.querySelector('[role="toolbar"]');
  if (!toolbar) return [];
  return [...toolbar.querySelectorAll<HTMLElement>('button, a[href]')].filter(
    (el) => !el.closest('[role="menu"], [role="dialog"]') && !el.hasAttribute('disabled'),
  );
}

const messagesIn = (scroller: HTMLElement) => [...scroller.querySelectorAll<HTMLElement>(MESSAGE)];

/** The message `node` is in, if any. */
export function messageOf(node: EventTarget | null): HTMLElement | null {
  return node instanceof Element ? node.closest<HTMLElement>(MESSAGE) : null;
}

/** After a message goes (deleted, moved away), the next one takes focus, or else the one before. */
export function focusNextMessage(from: HTMLElement | null): void {
  const list = from?.closest<HTMLElement>(`[${LIST}]`);
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
 * `handle`: the virtualized list, if the list is one (a plain list, as a
 * thread's replies, just scrolls its element for Home and End).
 * `jumpKey`: the row of a message the list was opened at to show it (a
 * search result, a permalink): it takes focus once it is rendered.
 */
export function useMessageRoving(handle?: RefObject<VirtuosoHandle | null>, jumpKey?: string) {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const scrollerRef = useCallback((el: HTMLElement | Window | null) => {
    setScroller(el instanceof HTMLElement ? el : null);
  }, []);
  // The message that is the list's Tab stop (by key: rows come and go as the list scrolls).
  const active = useRef<string | null>(null);
  // The row still to focus, once (it may be held, and rendered, only after the list opens).
  const jump = useRef<string | undefined>(undefined);
  // The action of the message's toolbar that is its Tab stop (by name: rows are rendered anew).
  const lastTool = useRef<string | null>(null);
  const applyNow = useRef<() => void>(null);
  useEffect(() => {
    jump.current = jumpKey;
    applyNow.current?.();
  }, [jumpKey]);

  useEffect(() => {
    if (!scroller) return;
    let frame = 0;
    let retry = 0;
    // Focus is in the list: when its row is rendered anew (the list scrolled, a page loaded)
    // and focus falls to the page, the message takes it back.
    let holdsFocus = false;
    let retries = 0;
    const apply = () => {
      const all = messagesIn(scroller);
      const now = document.activeElement;
      const lost = !now || now === document.body;
      // The row jumped to is the Tab stop and takes focus (once a dialog that opened it let go),
      // until the user acts.
      const target = jump.current === undefined ? undefined : all.find((m) => m.dataset.messageKey === jump.current);
      if (target) active.current = target.dataset.messageKey ?? null;
      const stop = all.find((m) => m.dataset.messageKey === active.current) ?? lastInView(scroller, all);
      for (const message of all) message.tabIndex = message === stop ? 0 : -1;
      // The message's actions are one Tab stop too (a toolbar: the arrows move in it).
      const tools = toolsOf(stop);
      const toolStop = tools.find((el) => el.getAttribute('aria-label') === lastTool.current) ?? tools[0];
      for (const el of scroller.querySelectorAll<HTMLElement>(FOCUSABLE)) {
        if (el.matches(MESSAGE)) continue;
        const tabbable = (stop?.contains(el) ?? false) && (el === toolStop || !tools.includes(el));
        if (tabbable && el.hasAttribute(OFF)) {
          // Back as it was: its own tabindex, or none.
          const own = el.getAttribute(OFF);
          if (own) el.setAttribute('tabindex', own);
          else el.removeAttribute('tabindex');
          el.removeAttribute(OFF);
        } else if (!tabbable && !el.hasAttribute(OFF) && el.getAttribute('tabindex') !== '-1') {
          el.setAttribute(OFF, el.getAttribute('tabindex') ?? '');
          el.setAttribute('tabindex', '-1');
        }
      }
      const take = target ? lost || scroller.contains(now) : holdsFocus && lost;
      if (stop && stop !== now && take) stop.focus({ preventScroll: true });
      // A jump waits for its row and for focus to leave the dialog that asked for it.
      cancelAnimationFrame(retry);
      if (jump.current !== undefined && document.activeElement !== target && retries++ < MAX_FRAMES * 3) {
        retry = requestAnimationFrame(apply);
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

    const userActs = (event: Event) => {
      jump.current = undefined;
      // A press elsewhere takes focus away for good, even where nothing takes it.
      if (event.type === 'pointerdown' && !(event.target instanceof Node && scroller.contains(event.target))) {
        holdsFocus = false;
      }
    };
    const onFocusOut = (event: FocusEvent) => {
      // Gone to another element outside (not to nothing, as when its row was removed).
      if (event.relatedTarget instanceof Node && !scroller.contains(event.relatedTarget)) holdsFocus = false;
    };
    const onFocusIn = (event: FocusEvent) => {
      holdsFocus = true;
      const message = messageOf(event.target);
      if (!message) return;
      const tool = event.target as HTMLElement;
      const toolMoved = toolsOf(message).includes(tool) && tool.getAttribute('aria-label') !== lastTool.current;
      if (toolMoved) lastTool.current = tool.getAttribute('aria-label');
      if (toolMoved || message.dataset.messageKey !== active.current) {
        active.current = message.dataset.messageKey ?? null;
        apply();
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const message = messageOf(event.target);
      if (!message || event.altKey || event.ctrlKey || event.metaKey) return;
      const tools = toolsOf(message);
      const tool = event.target as HTMLElement;
      if (tools.includes(tool) && TOOLBAR_KEYS[event.key]) {
        if (moveAmong(tools, TOOLBAR_KEYS[event.key]!)) event.preventDefault();
        return;
      }
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
        (handle?.current ?? scroller).scrollTo({ top: 0 });
        focusWhenShown((shown) => shown[0]);
      } else if (event.key === 'End') {
        if (handle?.current) handle.current.scrollToIndex({ index: 'LAST', align: 'end' });
        else scroller.scrollTo({ top: scroller.scrollHeight });
        focusWhenShown((shown) => shown.at(-1));
      } else if (event.key === 'PageUp' || event.key === 'PageDown') {
        const up = event.key === 'PageUp';
        scroller.scrollBy({ top: up ? -page : page });
        focusWhenShown((shown) => (up ? firstInView(scroller, shown) : lastInView(scroller, shown)));
      } else handled = false;
      if (handled) event.preventDefault();
    };

    applyNow.current = () => {
      retries = 0;
      apply();
    };
    scroller.setAttribute(LIST, '');
    const observer = new MutationObserver(apply);
    observer.observe(scroller, { childList: true, subtree: true });
    apply();
    scroller.addEventListener('focusin', onFocusIn);
    scroller.addEventListener('focusout', onFocusOut);
    scroller.addEventListener('keydown', onKeyDown);
    document.addEventListener('keydown', userActs, true);
    document.addEventListener('pointerdown', userActs, true);
    return () => {
      document.removeEventListener('keydown', userActs, true);
      document.removeEventListener('pointerdown', userActs, true);
      cancelAnimationFrame(frame);
      cancelAnimationFrame(retry);
      applyNow.current = null;
      observer.disconnect();
      scroller.removeAttribute(LIST);
      scroller.removeEventListener('focusin', onFocusIn);
      scroller.removeEventListener('focusout', onFocusOut);
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
