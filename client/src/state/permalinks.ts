import type { Message } from '@im/protocol';
import { t } from '../i18n/i18n.ts';
import { jumpToMessage } from './catch-up.ts';
import { fetchMessage } from './conversations.ts';
import { navigate } from './navigation.ts';
import { messageUrl, parseRoute } from './route.ts';
import { placeOf } from './search.ts';
import { getState, notify } from './store.ts';
import { openThread } from './threads.ts';

/** A message's permalink, copied to the clipboard. */
export async function copyMessageLink(message: Pick<Message, 'converseId' | 'id'>): Promise<void> {
  try {
    await navigator.clipboard.writeText(messageUrl(message.converseId, message.id));
    notify(t('timeline.linkCopied'), 'info');
  } catch {
    notify(t('timeline.linkNotCopied'));
  }
}

/**
 * Opens a permalink: the message's panel or DM, at the message (the page
 * around it loaded when it is not held), highlighted for a moment; a thread
 * reply opens its thread. The address bar gets the panel's own address: in
 * place of the permalink's (`replace`, a loaded link) or after it (a link clicked).
 */
export async function openPermalink(converseId: string, messageId: string, replace = true): Promise<void> {
  const message = await fetchMessage(messageId);
  if (!message || message.converseId !== converseId) {
    notify(t('timeline.permalinkMissing'));
    navigate({ name: 'converse', converseId }, { replace: true });
    return;
  }
  const { route } = placeOf(converseId, getState());
  if (message.threadId) {
    navigate(route, { replace });
    void openThread(converseId, message.threadId);
    return;
  }
  void jumpToMessage(converseId, message.seq);
  navigate(route, { replace });
}

/** The permalink an address names (a link clicked in a message), if it is one of this app's. */
export function permalinkIn(href: string): { converseId: string; messageId: string } | null {
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin) return null;
  const route = parseRoute(url.pathname, url.search);
  return route.name === 'converse' && route.messageId
    ? { converseId: route.converseId, messageId: route.messageId }
    : null;
}
