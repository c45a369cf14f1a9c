import { useEffect, useRef } from 'react';
import { openPermalink } from '../../state/permalinks.ts';
import { useStore } from '../../state/store.ts';

/**
 * Opens the permalink the address names (a link loaded or pasted), once the
 * groups and DMs are in so that the message's panel can be found; renders nothing.
 */
export function PermalinkOpener() {
  const route = useStore((s) => s.route);
  const ready = useStore((s) => s.groupsLoaded);
  const opened = useRef<string | null>(null);
  const link = route.name === 'converse' && route.messageId ? `${route.converseId}/${route.messageId}` : null;
  useEffect(() => {
    if (!link) opened.current = null;
    if (!ready || route.name !== 'converse' || !route.messageId || opened.current === link) return;
    // StrictMode runs this twice: the link is opened once.
    opened.current = link;
    void openPermalink(route.converseId, route.messageId);
  }, [ready, route, link]);
  return null;
}
