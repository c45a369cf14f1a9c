import { useEffect, useRef } from 'react';
import { isMuted, useAttention } from '../../state/attention.ts';
import { useStore } from '../../state/store.ts';
import { titleWithCount, unreadTotal } from '../../state/title.ts';

/** Keeps the unread count in the tab's title, so it shows from another tab; renders nothing. */
export function DocumentTitle() {
  const levels = useAttention((s) => s.levels);
  const total = useStore((s) => unreadTotal(s.unread, (id) => isMuted(levels[id])));
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
