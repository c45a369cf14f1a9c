import { useEffect, useRef } from 'react';

/** A ref for the message that replaces a form: focused once `shown` holds, so screen readers and keyboards land on it. */
export function useFocusWhen(shown: boolean) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}
