import { useEffect, useRef } from 'react';
import { useStore } from '../../state/store.ts';
import { titleWithCount, unreadTotal } from '../../state/title.ts';

/** Keeps the unread count in the tab's title, so it shows from another tab; renders nothing. */
export function DocumentTitle() {
  const total = useStore((s) => unreadTotal(s.unread));
  // The name index.html gives the app; the count is put in front of it.
  const base = useRef(document.title);
  useEffect(() => {
    document.title = titleWithCount(base.current, total);
  }, [total]);
  useEffect(() => {
    const name = base.current;
    return () => {
      document.title = name;
    };
  }, []);
  return null;
}
