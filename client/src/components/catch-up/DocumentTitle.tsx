import { useEffect, useRef } from 'react';
import { isMuted, useAttention } from '../../state/attention.ts';
import { useStore } from '../../state/store.ts';
import { placeTitle, titleWithCount, unreadTotal } from '../../state/title.ts';

/** Keeps the unread count and where I am in the tab's title, so they show from another tab; renders nothing. */
export function DocumentTitle() {
  const levels = useAttention((s) => s.levels);
  const total = useStore((s) => unreadTotal(s.unread, (id) => isMuted(levels[id])));
  // The name index.html gives the app; the count is put in front of it.
  const base = useRef(document.title);
  // Where I am goes between the count and the name: "(3) #general · Team · Chat".
  const place = useStore((s) => placeTitle(base.current, s));
  useEffect(() => {
    document.title = titleWithCount(place, total);
  }, [place, total]);
  useEffect(() => {
    const name = base.current;
    return () => {
      document.title = name;
    };
  }, []);
  return null;
}
