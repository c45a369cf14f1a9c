/**
 * The platform's rate limits, in one table: what each limit counts, how many
 * per window, and whom it counts per. Actions name theirs with a `rateLimit`
 * key (enforced by the rate-limit middleware, for HTTP and socket callers
 * alike); RATE_LIMITS overrides numbers, RATE_LIMIT=off turns all off.
 */
export interface RateLimitPolicy {
  points: number;
  windowSeconds: number;
  /**
   * Counted per calling user, per client address, per (client address,
   * username), or per account an action names (counted by the action itself).
   */
  per: 'user' | 'ip' | 'ip-username' | 'account';
  /**
   * Counts only failures (wrong passwords), reported by the action itself;
   * with `backoff`, each time the limit is reached again within a day the
   * wait doubles (up to an hour).
   */
  failures?: 'count' | 'backoff';
  /** What it protects, for the docs and the printed configuration. */
  about: string;
}

export const RATE_LIMITS = {
  register: { points: 30, windowSeconds: 600, per: 'ip', about: 'accounts registered from one address' },
  'login-ip': { points: 60, windowSeconds: 60, per: 'ip', about: 'login attempts from one address' },
  'login-failures': {
    points: 5,
    windowSeconds: 300,
    per: 'ip-username',
    failures: 'backoff',
    about: 'wrong passwords for one username from one address (the wait doubles each time, up to 1 h)',
  },
  'login-failures-ip': {
    points: 30,
    windowSeconds: 900,
    per: 'ip',
    failures: 'count',
    about: 'wrong passwords from one address, whatever the username',
  },
  'password-reset': {
    points: 10,
    windowSeconds: 900,
    per: 'ip',
    about: 'forgotten-password requests from one address (known and unknown names alike)',
  },
  'password-reset-account': {
    points: 3,
    windowSeconds: 3600,
    per: 'account',
    about: 'reset e-mails sent to one account (past it the request is answered the same and sends nothing)',
  },
  'email-verify': { points: 5, windowSeconds: 3600, per: 'user', about: 'verification e-mails (address changes)' },
  password: { points: 10, windowSeconds: 600, per: 'user', about: 'password changes (right or wrong)' },
  send: { points: 50, windowSeconds: 10, per: 'user', about: 'messages sent (HTTP and socket)' },
  edit: { points: 30, windowSeconds: 60, per: 'user', about: 'message edits' },
  delete: { points: 30, windowSeconds: 60, per: 'user', about: 'message deletions' },
  react: { points: 60, windowSeconds: 60, per: 'user', about: 'reactions added or taken back' },
  typing: { points: 60, windowSeconds: 60, per: 'user', about: 'typing notices' },
  sync: { points: 60, windowSeconds: 60, per: 'user', about: 'socket catch-ups after a reconnect' },
  search: { points: 30, windowSeconds: 60, per: 'user', about: 'message and user searches' },
  'dm-open': { points: 30, windowSeconds: 60, per: 'user', about: 'DMs opened' },
  upload: { points: 60, windowSeconds: 60, per: 'user', about: 'files uploaded' },
  invite: { points: 30, windowSeconds: 60, per: 'user', about: 'invites created or accepted, public groups joined' },
  report: { points: 10, windowSeconds: 600, per: 'user', about: 'messages reported' },
  'call-join': { points: 30, windowSeconds: 60, per: 'user', about: 'call tokens (joining calls) and declined calls' },
  'call-webhook': {
    points: 600,
    windowSeconds: 60,
    per: 'ip',
    about: "LiveKit's webhooks from one address (each signed; a call's joins, leaves and tracks)",
  },
  hook: {
    points: 120,
    windowSeconds: 60,
    per: 'ip',
    about: 'incoming webhook posts from one address (each hook also counts as its bot sending)',
  },
  moderate: { points: 120, windowSeconds: 60, per: 'user', about: 'moderation and administration actions' },
  'public-render': {
    points: 60,
    windowSeconds: 60,
    per: 'ip',
    about: 'web-public pages and feeds rendered afresh (not served from memory) for one address',
  },
  'group-create': { points: 20, windowSeconds: 3600, per: 'user', about: 'groups created' },
  'panel-create': { points: 60, windowSeconds: 3600, per: 'user', about: 'panels created' },
  'role-create': { points: 60, windowSeconds: 3600, per: 'user', about: 'roles created' },
  'profile-update': {
    points: 30,
    windowSeconds: 600,
    per: 'user',
    about: 'profile changes (each is announced to every group and DM of the user)',
  },
  'push-subscribe': {
    points: 30,
    windowSeconds: 3600,
    per: 'user',
    about: 'Web Push subscriptions and mobile devices registered',
  },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitName = keyof typeof RATE_LIMITS;

export const RATE_LIMIT_NAMES = Object.keys(RATE_LIMITS) as RateLimitName[];

export const isRateLimitName = (value: string): value is RateLimitName => Object.hasOwn(RATE_LIMITS, value);

/** Numbers that replace a limit's defaults (from RATE_LIMITS). */
export type RateLimitOverrides = Partial<Record<RateLimitName, { points: number; windowSeconds: number }>>;

/**
 * Parses `send=100/10,upload=120/60` (name=points/seconds, comma-separated).
 * Throws with the offending item on anything else.
 */
export function parseRateLimitOverrides(text: string): RateLimitOverrides {
  const out: RateLimitOverrides = {};
  for (const item of text.split(',').map((s) => s.trim())) {
    if (!item) continue;
    const match = /^([a-z-]+)=(\d+)\/(\d+)s?$/.exec(item);
    if (!match) throw new Error(`'${item}' is not name=points/seconds`);
    const [, name, points, seconds] = match;
    if (!isRateLimitName(name!))
      throw new Error(`'${name}' is not a rate limit (known: ${RATE_LIMIT_NAMES.join(', ')})`);
    if (Number(points) < 1 || Number(seconds) < 1) throw new Error(`'${item}': points and seconds must be at least 1`);
    out[name] = { points: Number(points), windowSeconds: Number(seconds) };
  }
  return out;
}
