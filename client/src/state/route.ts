/**
 * The screen the URL names. Deep links: /g/:groupId/:converseId, /dm/:converseId,
 * /invite/:code, /c/:converseId, /explore; a message's permalink,
 * /c/:converseId?message=:messageId (the same link the e-mails give); and the pages of e-mailed links,
 * /reset-password?token=, /verify-email?token= and /unsubscribe?token=; an
 * imported account's claim link, /claim?token=.
 */
export type Route =
  | { name: 'home' }
  /** The directory of public groups. */
  | { name: 'explore' }
  | { name: 'group'; groupId: string; converseId?: string }
  | { name: 'dm'; converseId: string }
  | { name: 'invite'; code: string }
  /**
   * A converse by id alone (notification links): shown as its group panel or
   * DM once known. With a message: its permalink, opened at that message.
   */
  | { name: 'converse'; converseId: string; messageId?: string }
  /** A password reset link's page: a new password for whoever holds the token. */
  | { name: 'reset-password'; token: string }
  /** An address verification link's page. */
  | { name: 'verify-email'; token: string }
  /** A missed-message e-mail's link that turns those e-mails off. */
  | { name: 'unsubscribe'; token: string }
  /** A claim link's page: the password (and perhaps a new name) of an account an import made. */
  | { name: 'claim'; token: string };

export function parseRoute(pathname: string, search = ''): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'g' && parts[1]) return { name: 'group', groupId: parts[1], converseId: parts[2] };
  if (parts[0] === 'dm' && parts[1]) return { name: 'dm', converseId: parts[1] };
  if (parts[0] === 'invite' && parts[1]) return { name: 'invite', code: parts[1] };
  if (parts[0] === 'c' && parts[1]) {
    const messageId = new URLSearchParams(search).get('message');
    return { name: 'converse', converseId: parts[1], ...(messageId ? { messageId } : {}) };
  }
  if (parts[0] === 'explore' && parts.length === 1) return { name: 'explore' };
  if (
    (parts[0] === 'reset-password' ||
      parts[0] === 'verify-email' ||
      parts[0] === 'unsubscribe' ||
      parts[0] === 'claim') &&
    parts.length === 1
  ) {
    return { name: parts[0], token: new URLSearchParams(search).get('token') ?? '' };
  }
  return { name: 'home' };
}

export function routePath(route: Route): string {
  switch (route.name) {
    case 'home':
      return '/';
    case 'explore':
      return '/explore';
    case 'group':
      return `/g/${encodeURIComponent(route.groupId)}${route.converseId ? `/${encodeURIComponent(route.converseId)}` : ''}`;
    case 'dm':
      return `/dm/${encodeURIComponent(route.converseId)}`;
    case 'invite':
      return `/invite/${encodeURIComponent(route.code)}`;
    case 'converse':
      return `/c/${encodeURIComponent(route.converseId)}${route.messageId ? `?${new URLSearchParams({ message: route.messageId }).toString()}` : ''}`;
    case 'reset-password':
    case 'verify-email':
    case 'unsubscribe':
    case 'claim':
      return `/${route.name}?${new URLSearchParams({ token: route.token }).toString()}`;
  }
}

/** The invite code in a pasted link (…/invite/CODE) or the code itself. */
export function inviteCodeFrom(input: string): string {
  const trimmed = input.trim();
  const match = /\/invite\/([^/?#\s]+)/.exec(trimmed);
  return match ? decodeURIComponent(match[1]!) : trimmed;
}

/** The full link that opens this app on an invite. */
export function inviteUrl(code: string): string {
  return `${window.location.origin}${routePath({ name: 'invite', code })}`;
}

/** The full link to a message (its permalink): it opens the app at that message, highlighted. */
export function messageUrl(converseId: string, messageId: string): string {
  return `${window.location.origin}${routePath({ name: 'converse', converseId, messageId })}`;
}
