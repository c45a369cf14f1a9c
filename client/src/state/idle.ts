/** No input for this long: the tab is idle (the user is away when all their tabs are). */
export const IDLE_AFTER_MS = 10 * 60_000;
const CHECK_EVERY_MS = 30_000;
const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'focus'] as const;

/**
 * Watches this tab for input: `onChange(true)` after IDLE_AFTER_MS without
 * any, `onChange(false)` at the first input after that.
 */
export function watchIdle(onChange: (idle: boolean) => void): { idle(): boolean; stop(): void } {
  let lastInput = Date.now();
  let idle = false;
  const onInput = () => {
    lastInput = Date.now();
    if (!idle) return;
    idle = false;
    onChange(false);
  };
  const check = () => {
    if (idle || Date.now() - lastInput < IDLE_AFTER_MS) return;
    idle = true;
    onChange(true);
  };
  if (typeof window === 'undefined') return { idle: () => false, stop: () => undefined };
  for (const name of INPUT_EVENTS) window.addEventListener(name, onInput, { passive: true });
  const timer = setInterval(check, CHECK_EVERY_MS);
  return {
    idle: () => idle,
    stop: () => {
      clearInterval(timer);
      for (const name of INPUT_EVENTS) window.removeEventListener(name, onInput);
    },
  };
}
