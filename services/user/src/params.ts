import { idParam, limitParam, notBlank, SESSION_CHECK_BATCH, searchText, strict } from '@im/sdk';

/**
 * The user service's action parameters (fastest-validator). The gateway's
 * OpenAPI document is generated from these, so the two cannot drift.
 */
/** Stored lower-cased: `Alice` and `alice` are one name. */
const username = { type: 'string', lowercase: true, min: 3, max: 32, pattern: /^[A-Za-z0-9_.-]+$/ } as const;
const password = { type: 'string', min: 8, max: 128 } as const;
const nickname = { type: 'string', trim: true, min: 1, max: 64, ...notBlank } as const;
/** An http(s) URL with a host name, or one of the platform's own files. */
const avatar = {
  type: 'string',
  max: 512,
  pattern: /^(https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?(\/\S*)?|\/api\/files\/[0-9a-f]{24}(\/thumbnail)?)$/,
  messages: { stringPattern: "'{field}' must be an http(s) URL or a file of this server" },
} as const;

/** An e-mail address (empty: remove it). Kept loose: the verification link proves it works. */
const email = {
  type: 'string',
  trim: true,
  max: 254,
  pattern: /^(|[^\s@<>()",;:\\]+@[^\s@<>()",;:\\.][^\s@<>()",;:\\]*)$/,
  messages: { stringPattern: "'{field}' must be an e-mail address (name@example.org), or empty to remove it" },
} as const;
/** An ISO 8601 time (checked to be a real, future time by the handler). */
const isoTime = {
  type: 'string',
  max: 40,
  pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/,
  messages: { stringPattern: "'{field}' must be an ISO 8601 time such as 2030-01-31T18:00:00Z" },
} as const;
const hhmm = {
  type: 'string',
  pattern: /^([01][0-9]|2[0-3]):[0-5][0-9]$/,
  messages: { stringPattern: "'{field}' must be a time of day as HH:MM (00:00-23:59)" },
} as const;
/**
 * `PATCH /api/users/me {status}`: what is given changes, what is absent
 * stays; `null` (or an empty text or emoji) clears a part.
 */
const statusBody = {
  type: 'object',
  strict: true,
  props: {
    dnd: { type: 'boolean', optional: true },
    until: { ...isoTime, optional: true, nullable: true },
    text: { type: 'string', trim: true, max: 100, optional: true, nullable: true },
    emoji: { type: 'string', max: 64, optional: true, nullable: true },
    clearAt: { ...isoTime, optional: true, nullable: true },
    schedule: {
      type: 'object',
      strict: true,
      optional: true,
      nullable: true,
      props: {
        start: hhmm,
        end: hhmm,
        timeZone: { type: 'string', min: 1, max: 64 },
        days: {
          type: 'array',
          optional: true,
          min: 1,
          max: 7,
          unique: true,
          items: { type: 'number', integer: true, min: 0, max: 6 },
        },
      },
    },
  },
} as const;

/** A link token as the server signs them (a JWT: three base64url parts). */
const linkToken = {
  type: 'string',
  min: 20,
  max: 2048,
  pattern: /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
} as const;

/** A group invite's code, as the group service makes them. */
const inviteCode = { type: 'string', min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ } as const;

/** A personal feed token as issued: 32 random bytes, base64url. */
const feedToken = { type: 'string', min: 43, max: 43, pattern: /^[A-Za-z0-9_-]+$/ } as const;

/** A one-time code or link ticket of single sign-on as issued: 32 random bytes, base64url. */
const oidcCode = feedToken;
/** The callback URL the gateway computed (PUBLIC_URL or the request's origin). */
const redirectUri = {
  type: 'string',
  max: 2048,
  pattern: /^https?:\/\/[^/?#\s]+\/api\/auth\/oidc\/callback$/,
  messages: { stringPattern: "'{field}' must be this server's /api/auth/oidc/callback URL" },
} as const;

export const userParams = {
  oidcStart: strict({ redirectUri, link: { ...oidcCode, optional: true } }),
  oidcCallback: strict({
    redirectUri,
    /** The provider's answer, the callback's query string as it came. */
    query: { type: 'string', max: 8192 },
    boundState: { type: 'string', max: 256, optional: true },
  }),
  oidcLink: strict({}),
  oidcExchange: strict({ code: oidcCode }),
  oidcLinkFinish: strict({ code: oidcCode }),
  issueFeedToken: strict({}),
  feedTokenOwner: strict({ token: feedToken }),
  register: strict({
    username,
    password,
    nickname: { ...nickname, optional: true },
    inviteCode: { ...inviteCode, optional: true },
  }),
  // Login accepts any name shape: a wrong one is just wrong credentials.
  login: strict({
    username: { type: 'string', trim: true, lowercase: true, min: 1, max: 64, ...notBlank },
    password: { type: 'string', min: 1, max: 128 },
  }),
  me: strict({}),
  updateMe: strict({
    status: { ...statusBody, optional: true },
    nickname: { ...nickname, optional: true },
    avatar: { ...avatar, optional: true },
    shareReadReceipts: { type: 'boolean', optional: true },
    email: { ...email, optional: true },
    emailNotifications: { type: 'enum', values: ['off', '10m', '1h', 'daily'], optional: true },
  }),
  verifyEmail: strict({ token: linkToken }),
  passwordReset: strict({
    usernameOrEmail: { type: 'string', trim: true, lowercase: true, min: 1, max: 254, ...notBlank },
  }),
  passwordResetConfirm: strict({ token: linkToken, newPassword: password }),
  mailUnsubscribe: strict({ token: linkToken }),
  mailRecipients: strict({ ids: { type: 'array', items: idParam, max: 1000 } }),
  adminResetLink: strict({ userId: idParam }),
  adminClaimLink: strict({ userId: idParam }),
  claim: strict({ token: linkToken, password, username: { ...username, optional: true } }),
  deleteMe: strict({
    // Checked when given (the app asks for it again before deleting an account that has one).
    password: { type: 'string', min: 1, max: 128, optional: true },
  }),
  block: strict({ userId: idParam }),
  unblock: strict({ userId: idParam }),
  blocks: strict({}),
  blockBetween: strict({ from: idParam, to: idParam }),
  blockersAmong: strict({ userId: idParam, ids: { type: 'array', items: idParam, max: 100_000 } }),
  logout: strict({}),
  logoutEverywhere: strict({}),
  sessions: strict({}),
  revokeSession: strict({ sessionId: idParam }),
  changePassword: strict({ currentPassword: { type: 'string', min: 1, max: 128 }, newPassword: password }),
  sessionsLive: strict({
    claims: {
      type: 'array',
      min: 1,
      max: SESSION_CHECK_BATCH,
      items: { type: 'object', strict: true, props: { sessionId: idParam, userId: idParam } },
    },
  }),
  get: strict({ userId: idParam }),
  search: strict({ q: searchText(64), limit: limitParam }),
  getMany: strict({
    ids: { type: 'array', items: idParam, max: 1000 },
    includeInactive: { type: 'boolean', optional: true },
  }),
  receiptsHidden: strict({ ids: { type: 'array', items: idParam, max: 1000 } }),
  statuses: strict({ ids: { type: 'array', items: idParam, max: 1000 } }),
  dndAmong: strict({ ids: { type: 'array', items: idParam, max: 100_000 } }),
  idsByUsernames: strict({ usernames: { type: 'array', items: { type: 'string', max: 64 }, max: 100 } }),
  authOptions: strict({}),
  createBot: strict({
    groupId: idParam,
    name: nickname,
    createdBy: idParam,
    managedBy: {
      type: 'object',
      optional: true,
      strict: 'remove',
      props: { kind: { type: 'enum', values: ['incoming', 'outgoing', 'command'] }, id: idParam },
    },
  }),
  botRef: strict({ groupId: idParam, botId: idParam }),
  listBots: strict({ groupId: idParam }),
  adminUsers: strict({
    q: { ...searchText(64), optional: true },
    cursor: { ...idParam, optional: true },
    limit: limitParam,
  }),
  deactivate: strict({ userId: idParam }),
  activate: strict({ userId: idParam }),
  settings: strict({}),
  updateSettings: strict({ registration: { type: 'enum', values: ['open', 'invite', 'closed'] } }),
  isServerAdmin: strict({ userId: idParam }),
} as const;
