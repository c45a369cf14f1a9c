/**
 * Types shared by the server and the web client: the public contract of
 * shared/API.md. Only types live here, so the client bundles nothing extra.
 */

import type { OwnEmail } from './mail.ts';
import type { CommandAccepted, EphemeralMessage } from './integrations.ts';
import type { PinInfo, ThreadSummary } from './threads.ts';
import type { ScheduledUpdatedEvent } from './scheduling.ts';
import type { CallDeclined, CallRecord, CallRinging, CallState } from './calls.ts';
import type { Submessage } from './submessages.ts';
import type { ImportJob } from './imports.ts';
import type {
  ConverseNotificationSetting,
  PollBody,
  ForwardedFrom,
  Poll,
  PresenceStatus,
  UserGroup,
  UserStatus,
} from './attention.ts';

/**
 * A document id: 24 lower-case hex digits.
 * @pattern ^[0-9a-f]{24}$
 */
export type Id = string;

/**
 * A moment, as ISO 8601 in UTC.
 * @format date-time
 */
export type Timestamp = string;

/**
 * A whole number (counts, sizes, sequence numbers).
 * @asType integer
 */
export type Int = number;

/** The body of every error answer; codes are those of docs/errors.md. */
export interface ApiError {
  error: {
    /** @pattern ^IM_ERR_[A-Z_]+$ */
    code: `IM_ERR_${string}`;
    message: string;
    details?: unknown;
  };
}

export interface HealthResponse {
  status: 'ok';
}

export interface ReadyResponse {
  status: 'ready' | 'unavailable';
  /** Each dependency of the node: 'ok' or why it failed (operators only: METRICS_TOKEN or loopback). */
  checks?: Record<string, string>;
  /** Present when not ready: the names of the failed checks. */
  failed?: string[];
}

/** `user` of the API: what anyone may see of a user. */
export interface PublicUser {
  id: Id;
  username: string;
  nickname: string;
  avatar?: string;
  createdAt: Timestamp;
  /** A bot of one group (made by its admins, or for a webhook or command). */
  bot?: true;
  /** Made by an import and not yet handed over (no password: a server admin's claim link gives it one). */
  imported?: true;
}

/** Bytes a user's uploads take, and how many they may (FILE_QUOTA_BYTES). */
export interface StorageUsage {
  used: Int;
  quota: Int;
}

/** GET /api/users/me: the caller's profile and storage use. */
export interface Me extends PublicUser, Partial<OwnEmail> {
  storage: StorageUsage;
  /** A server admin (the account's stored flag, set by ADMIN_USERNAMES): may use /api/admin. */
  serverAdmin: boolean;
  /** false for accounts made by single sign-on: they sign in only through the provider. */
  hasPassword: boolean;
  /** Linked to an account at the single sign-on provider (it can sign in there). */
  ssoLinked: boolean;
  /** Whether others see how far I read (read receipts); on unless turned off. */
  shareReadReceipts: boolean;
  /** Do not disturb and my custom status. */
  status: UserStatus;
  // The e-mail fields (OwnEmail) are always sent; optional only for clients built before them.
}

/** A user I blocked (`GET /api/users/me/blocks`). */
export interface BlockedUser {
  userId: Id;
  createdAt: Timestamp;
}

/** A login: one per sign-in, ended by logout, revocation, a password change or account removal. */
export interface Session {
  id: Id;
  createdAt: Timestamp;
  lastSeenAt: Timestamp;
  /** Client address at login, as the gateway saw it (TRUST_PROXY decides). */
  ip: string;
  userAgent: string;
  /** The session of the token that asked. */
  current: boolean;
}

export interface ChangePasswordBody {
  currentPassword: string;
  newPassword: string;
}

export interface AuthResult {
  token: string;
  user: PublicUser;
}

export type GroupRole = 'owner' | 'admin' | 'member';

export type GroupVisibility = 'private' | 'public';

/** The languages a group's public pages and feeds can be written in (the web app's languages). */
export const GROUP_LANGUAGES = ['en', 'de', 'zh'] as const;
export type GroupLanguage = (typeof GROUP_LANGUAGES)[number];

/** What a role may do in its group. Owner and admins hold every permission. */
export const PERMISSIONS = [
  'manageGroup',
  'manageRoles',
  'managePanels',
  'manageMessages',
  'kickMembers',
  'banMembers',
  'muteMembers',
  'createInvites',
  'mentionAll',
  'pinMessages',
  'manageIntegrations',
  'viewAuditLog',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * A group's custom role, or its built-in `@everyone` (whose id is the
 * group's id, held by every member, never given or deleted). Higher
 * `position` ranks higher; `@everyone` is 0.
 */
export interface Role {
  id: Id;
  name: string;
  /** `#rrggbb`: how the role's holders' names are shown. */
  color?: string;
  permissions: Permission[];
  position: Int;
}

export interface Panel {
  id: Id;
  name: string;
  /** `voice`: a voice panel, whose call anyone of the group may join (its converse carries the call). */
  type: 'text' | 'voice';
  /** Messages of a text panel are sent to this converse; a voice panel's call is this converse's. */
  converseId: Id;
  /** `admin`: an announcement panel, where members read and only owners and admins post. */
  postingRole: 'member' | 'admin';
  /** Readable by anyone on the web at /p/:id, with Atom and RSS feeds (public groups only). */
  webPublic: boolean;
  /** What the panel is for, shown under its name (at most 250 characters). */
  topic?: string;
  /**
   * Seen only by the roles and people allowed (and owner and admins): to
   * everyone else the panel does not exist. The allow lists are shown to
   * those who may manage panels.
   */
  private: boolean;
  allowRoleIds?: Id[];
  allowUserIds?: Id[];
}

export interface Group {
  id: Id;
  name: string;
  ownerId: Id;
  panels: Panel[];
  memberCount: Int;
  /** `public`: listed in the directory, and anyone may join without an invite. */
  visibility: GroupVisibility;
  /** What the group is about, shown in the directory and on its web-public pages. */
  description?: string;
  /** The id of the group's icon image, served like an avatar (`GET /api/files/:id`). */
  icon?: string;
  /** The language of the group's public pages and feeds (and of the app for visitors who chose none). */
  language: GroupLanguage;
  /** The caller's role. */
  myRole: GroupRole;
  /** Until when the caller is muted in this group (absent: not muted). */
  myMutedUntil?: Timestamp;
  /** The caller's custom roles here. */
  myRoleIds: Id[];
  /** What the caller may do here: every permission for owner and admins, else those of `@everyone` and their roles. */
  myPermissions: Permission[];
}

/**
 * A group as events carry it: everything but the caller's standing, and
 * only the panels everyone sees (private ones reach their members by
 * `panel:created`, and apps keep them across `group:updated`).
 */
export type GroupInfo = Omit<Group, 'myRole' | 'myMutedUntil' | 'myRoleIds' | 'myPermissions'>;

export interface Member {
  user: PublicUser;
  role: GroupRole;
  /** The member's custom roles (`@everyone` is implied). */
  roleIds: Id[];
  joinedAt: Timestamp;
  /** Until when the member may not send, react or upload here (absent: not muted). */
  mutedUntil?: Timestamp;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A public group as the directory lists it (`GET /api/directory`). */
export interface DirectoryGroup {
  id: Id;
  name: string;
  memberCount: Int;
  description?: string;
  /** The group's language (see `Group.language`). */
  language: GroupLanguage;
}

/** `GET /api/directory`: public groups, largest first. */
export type DirectoryPage = Page<DirectoryGroup>;

/** `POST /api/feeds/token`: the caller's personal feed token (the previous one stops working). */
export interface FeedToken {
  token: string;
}

/**
 * `GET /api/invites/:code`: what an invite link shows before joining, to
 * anyone holding the code (signed in or not): the group and who invited.
 */
export interface InvitePreview {
  group: DirectoryGroup & { icon?: string };
  /** Who made the invite (absent when their account is gone). */
  inviter?: PublicUser;
  expiresAt: Timestamp;
}

export interface Invite {
  code: string;
  createdBy: Id;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  /** null: unlimited. */
  maxUses: Int | null;
  /** How many joined with it. */
  uses: Int;
}

export interface Reaction {
  emoji: string;
  count: Int;
  /** Whether the caller reacted with it. */
  me: boolean;
}

export interface Message {
  id: Id;
  converseId: Id;
  /** +1 per message within the converse, no gaps. */
  seq: Int;
  authorId: Id;
  /** Empty for a deleted message (its tombstone keeps the seq). */
  content: string;
  createdAt: Timestamp;
  editedAt?: Timestamp;
  deleted?: true;
  reactions: Reaction[];
  /** Ids of the members the content mentions by username, resolved by the server. */
  mentions: Id[];
  attachments: Id[];
  replyTo?: Id;
  clientMsgId?: string;
  /** A name an incoming webhook posted under (shown with "via" and the hook's bot). */
  username?: string;
  /** `/me`: an action by the author, shown as "<author> <content>". */
  emote?: true;
  /** `@all`: a mention of every member (in groups over 100 members, only when an admin wrote it). */
  mentionsAll?: true;
  /** `@here`: a mention of the members online when it was sent. */
  mentionsHere?: true;
  /** A thread reply: the root message it answers (a top-level message of the same converse). */
  threadId?: Id;
  /** A thread root: its replies so far. */
  thread?: ThreadSummary;
  /** A pinned message: who pinned it and when. */
  pinned?: PinInfo;
  /** What the first http(s) link in the content points to, fetched by the server after the send. */
  preview?: LinkPreview;
  /** A DM call that ended, written by the server under the caller's name. */
  call?: CallRecord;
  /** A poll: votes change by `PUT /api/messages/:id/poll/votes`, shown live by `message:updated`. */
  poll?: Poll;
  /** A copy of another message (`POST /api/messages/:id/forward`): where it came from. */
  forwarded?: ForwardedFrom;
}

/**
 * A link's card, read from its page's OpenGraph / Twitter card / `<title>`.
 * The image is a stored copy (`imageFileId`), so readers never contact the site.
 */
export interface LinkPreview {
  url: string;
  title: string;
  description?: string;
  siteName?: string;
  imageFileId?: Id;
}

/** A group's own emoji (`GET /api/groups/:groupId/emoji`): `:name:` in messages and reactions. */
export interface CustomEmoji {
  /** 2-32 of `[a-z0-9_]`. */
  name: string;
  fileId: Id;
  /** `/api/files/:id`: the image (members may read it). */
  url: string;
}

/** `GET /api/converses/:id/reads`: how far a member who shares read receipts has read. */
export interface ReadReceipt {
  userId: Id;
  readSeq: Int;
}

export interface DmConverse {
  id: Id;
  type: 'dm';
  memberIds: Id[];
}

/**
 * `GET /api/dms` (extension): the caller's DMs, most recently active first
 * (by their latest message, else by when they were opened), at most 1,000.
 */
export type DmList = DmConverse[];

/**
 * A file as `POST /api/files` answers it (201) and `GET /api/files/:id/info`
 * (extension) reads it back. `thumbnailUrl` only once the thumbnail exists.
 */
/** GET /api/files/:id/url: a link that works without credentials until it expires. */
export interface SignedFileUrl {
  /** Path and query on this server: /api/files/:id[/thumbnail]?exp=…&sig=… */
  url: string;
  expiresAt: Timestamp;
}

export interface FileInfo {
  id: Id;
  name: string;
  size: Int;
  /** Sniffed from the bytes. */
  mime: string;
  /** `/api/files/:id`: the bytes. */
  url: string;
  /** `/api/files/:id/thumbnail`: a WebP preview of an image. */
  thumbnailUrl?: string;
}

/** `GET /api/groups/:groupId/members`. */
export type MemberPage = Page<Member>;

/** An inbox entry (`GET /api/notifications`): a mention of me, a reply in a thread I follow or a reminder (whether I was online or not), or a DM received while offline. */
export interface Notification {
  id: Id;
  /** What put it in the inbox: a mention of me (or of a user group of mine), a DM, a reply in a thread I follow, a reminder I set. */
  type: 'mention' | 'dm' | 'reply' | 'reminder';
  /** The same as `type` for mentions and DMs (kept for clients built before `type`). */
  kind: 'mention' | 'dm' | 'reply' | 'reminder';
  converseId: Id;
  messageId: Id;
  seq: Int;
  authorId: Id;
  preview: string;
  createdAt: Timestamp;
  /** I read it (opened it, marked all read, or read its converse past it). */
  read: boolean;
}

export type NotificationPage = Page<Notification>;

export interface NotificationSettings {
  muteAll: boolean;
  /** The converses whose level is `none` (set here, or by `PUT /api/converses/:id/notifications`). */
  mutedConverseIds: Id[];
  /** Every converse whose level I set, by id (converses not listed have their default). */
  converses: Record<Id, ConverseNotificationSetting>;
}

/** `POST /api/push/subscriptions` (201): the subscription now registered, by its endpoint. */
export interface PushSubscriptionRef {
  endpoint: string;
}

/** `GET /api/push/subscriptions`: one of my Web Push subscriptions (at most 10; the 11th replaces the oldest). */
export interface PushSubscriptionInfo {
  endpoint: string;
  /** When it was first registered (ISO 8601). */
  createdAt: string;
}

/** `POST /api/push/devices` (201): the mobile device now registered. */
export interface PushDevice {
  platform: 'ios' | 'android';
  token: string;
}

/** `GET /api/push/vapid-public-key`. */
export interface VapidKey {
  key: string;
}

/** `GET /api/presence`: which of the asked users are online. */
export interface Presence {
  online: Id[];
  /** Of the asked users, those in do not disturb now. */
  dnd: Id[];
  /** Of the asked users, those online but idle. */
  away: Id[];
  /** Per asked user: online, away, dnd and their custom status. */
  statuses: Record<Id, PresenceStatus>;
}

/** An answer with no fields (`201` of push registrations). */
export type Empty = Record<string, never>;

export interface UnreadEntry {
  converseId: Id;
  lastSeq: Int;
  readSeq: Int;
  unread: Int;
  mentions: Int;
}

// ---- Realtime (socket.io) ----

export type Ack<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

export interface SendMessageBody {
  converseId: Id;
  /** Required, but with `poll`: the stored text is then the poll's question. */
  content?: string;
  clientMsgId?: string;
  replyTo?: Id;
  attachments?: Id[];
  /** Bots only: the name to show instead of the bot's (an incoming webhook's `username`). */
  username?: string;
  /** Reply in the thread of this top-level message of the same converse. */
  threadId?: Id;
  /** Over HTTP, for people: send it at this time instead (202 `{scheduled}`); at most a year ahead. */
  sendAt?: Timestamp;
  /** Send a poll: the message's text is its question. */
  poll?: PollBody;
}

export interface SyncRequest {
  /** Last seq the client has per converse. */
  cursors: Record<string, number>;
}

export interface SyncResult {
  /** Per converse: the missed messages in seq order, or `tooMany` (more than 200: page history instead). */
  converses: Record<
    string,
    { messages: Message[]; tooMany?: false } | { messages: []; tooMany: true; lastSeq: number }
  >;
}

export interface ServerToClientEvents {
  'message:new': (message: Message) => void;
  'message:updated': (message: Message) => void;
  'message:deleted': (event: { converseId: string; messageId: string; seq: number }) => void;
  'reaction:updated': (event: {
    converseId: Id;
    messageId: Id;
    emoji: string;
    userId: Id;
    added: boolean;
    counts: Array<{ emoji: string; count: number }>;
  }) => void;
  'converse:read': (event: { converseId: string; readSeq: number }) => void;
  /** A member who shares read receipts read further (converses of at most 50 members). */
  'read:updated': (event: ReadReceipt & { converseId: Id }) => void;
  'group:updated': (group: GroupInfo) => void;
  'group:deleted': (event: { groupId: string }) => void;
  'member:joined': (event: { groupId: string; userId: string; role: GroupRole }) => void;
  /** `removed`: kicked or banned by someone else (absent when they left). */
  /** A group's bots, webhooks or slash commands changed: apps holding its commands load them again. */
  'integrations:changed': (event: { groupId: string }) => void;
  'member:left': (event: { groupId: string; userId: string; removed?: true }) => void;
  'member:updated': (event: {
    groupId: string;
    userId: string;
    role: GroupRole;
    roleIds: Id[];
    mutedUntil?: Timestamp;
  }) => void;
  /** A group's roles changed (made, edited, reordered or deleted): its whole list, `@everyone` included. */
  'roles:updated': (event: { groupId: string; roles: Role[] }) => void;
  'panel:created': (event: { groupId: string; panel: Panel }) => void;
  'panel:updated': (event: { groupId: string; panel: Panel }) => void;
  'panel:deleted': (event: { groupId: string; panelId: string; converseId: string }) => void;
  'dm:opened': (converse: DmConverse) => void;
  /** Who is in the converse's call, as it changes (an empty list: the call ended). */
  'call:updated': (state: CallState) => void;
  /** A call started in a DM of yours: ring until it is answered, declined or ends. */
  'call:ringing': (event: CallRinging) => void;
  /** A member declined a DM call: the caller's app hangs up, the decliner's other devices stop ringing. */
  'call:declined': (event: CallDeclined) => void;
  /** Someone's presence or status changed (`dnd`/`away` present only when true). */
  presence: (event: { userId: string } & PresenceStatus) => void;
  /** My notification setting of a converse changed (on another of my devices too). */
  'converse:notifications': (event: { converseId: Id } & ConverseNotificationSetting) => void;
  /** My own status changed (on another of my devices too). */
  'status:updated': (status: UserStatus) => void;
  /** A group's user groups changed: its whole list. */
  'usergroups:updated': (event: { groupId: Id; userGroups: UserGroup[] }) => void;
  /** I set my read position in a converse back (mark as unread, on another of my devices too): its counts now. */
  'converse:unread': (entry: UnreadEntry) => void;
  /** My inbox changed (an entry came, or entries were read): load its count again. */
  'inbox:updated': (event: { unread: Int }) => void;
  /** A submessage on a message of the converse (a widget's event, see submessages.ts). */
  'message:submessage': (submessage: Submessage) => void;
  /** Someone I share a group or a DM with changed their name or avatar. */
  'user:updated': (user: PublicUser) => void;
  /** A group's custom emoji changed: load its list again. */
  'emoji:changed': (event: { groupId: string }) => void;
  typing: (event: { converseId: string; userId: string }) => void;
  notification: (event: Record<string, unknown>) => void;
  /** One of my scheduled messages was made, changed, sent, failed or cancelled (on each of my devices). */
  'scheduled:updated': (event: ScheduledUpdatedEvent) => void;
  'message:ephemeral': (message: EphemeralMessage) => void;
  /**
   * Sent just before the server closes this socket on purpose, with why:
   * `IM_ERR_UNAUTHORIZED` (the session ended or the token expired: sign in
   * again) or `IM_ERR_LIMIT` (the user opened more than SOCKETS_PER_USER
   * sockets on this server and this was the oldest: do not reconnect on
   * your own).
   */
  'socket:closing': (event: { code: string; message: string }) => void;
  /**
   * This gateway lost the cluster for a while (NATS reconnected): events of
   * the socket's rooms may have been missed, so the app syncs as after a
   * reconnect of its own.
   */
  'sync:required': (event: { reason: 'cluster-reconnect' }) => void;
  /** An import a server admin follows moved on (phase, messages so far) or ended: the job as `GET /api/admin/imports/:id` answers it. */
  'import:progress': (job: ImportJob) => void;
}

export interface ClientToServerEvents {
  /** A slash command answers CommandAccepted instead of a message. */
  'message:send': (body: SendMessageBody, ack: (result: Ack<Message | CommandAccepted>) => void) => void;
  typing: (body: { converseId: string }, ack?: (result: Ack<null>) => void) => void;
  sync: (body: SyncRequest, ack: (result: Ack<SyncResult>) => void) => void;
  /** This tab went idle (no input for 10 minutes) or active again: away when every socket of mine is idle. */
  'presence:idle': (body: { idle: boolean }) => void;
}

export * from './internal.ts';
export * from './calls.ts';
export * from './custom-emoji.ts';
export * from './integrations.ts';
export * from './mail.ts';
export * from './moderation.ts';
export * from './pictures.ts';
export * from './threads.ts';
export * from './attention.ts';
export * from './scheduling.ts';
export * from './submessages.ts';
export type { ApiSchemas, ApiSchemaName } from './api-schemas.ts';
export * from './role-rules.ts';
export * from './dnd-schedule.ts';
export * from './imports.ts';
