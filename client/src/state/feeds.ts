import { setState } from './store.ts';
import { api } from '../api/api.ts';

// Addresses that work without signing in: a web-public panel's page and
// feeds, and the personal feeds of a token's owner. The same origin serves
// them as the app.

/** A web-public panel's page, and its Atom and RSS feeds. */
export function publicPanelLinks(panelId: string, origin = window.location.origin) {
  const page = `${origin}/p/${encodeURIComponent(panelId)}`;
  return { page, atom: `${page}/feed.atom`, rss: `${page}/feed.rss` };
}

/** The Atom feed of one of my converses, readable by whoever holds the token. */
export function personalFeedUrl(token: string, converseId: string, origin = window.location.origin): string {
  return `${origin}/feeds/${encodeURIComponent(token)}/converses/${encodeURIComponent(converseId)}.atom`;
}

/**
 * Issues a new personal feed token (the previous one stops working) and keeps
 * it for this session: the server never shows it again. It throws, for the
 * settings to show.
 */
export async function issueFeedToken(): Promise<string> {
  const { token } = await api.call('user.issueFeedToken');
  setState({ feedToken: token });
  return token;
}
