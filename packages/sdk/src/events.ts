import type {
  ImportJob,
  CallParticipant,
  ConverseNotificationSetting,
  UnreadEntry,
  DmConverse,
  EphemeralMessage,
  GroupInfo,
  GroupRole,
  Message,
  Notification,
  Panel,
  PresenceStatus,
  ScheduledUpdatedEvent,
  PublicUser,
  Role,
  UserStatus,
  UserGroup,
  Submessage,
} from '@im/protocol';
import type { Context } from 'moleculer';
import { isRoutedEvent } from './realtime/event-rooms.ts';
import { roomRouterOf } from './realtime/room-router.ts';

/**
 * Broker event names. Services broadcast them after their write succeeded;
 * gateways and other services subscribe.
 */
export const EVENTS = {
  userUpdated: 'user.updated',
  /** A user was deleted or deactivated: their tokens must stop working everywhere. */
  userDeactivated: 'user.deactivated',
  /** Login sessions ended (logout, revocation, password change, removal): their tokens and sockets stop at once. */
  sessionsRevoked: 'user.sessions.revoked',
  /** A user issued a new personal feed token: the old one stops working at once. */
  feedTokenReplaced: 'user.feedToken.replaced',
  groupUpdated: 'group.updated',
  groupDeleted: 'group.deleted',
  memberJoined: 'group.member.joined',
  memberLeft: 'group.member.left',
  memberUpdated: 'group.member.updated',
  panelCreated: 'group.panel.created',
  panelUpdated: 'group.panel.updated',
  panelDeleted: 'group.panel.deleted',
  /** Who sees a private panel changed: the users who now see it, and those who no longer do. */
  panelAccess: 'group.panel.access',
  /** A group's roles were made, edited, reordered or deleted. */
  rolesUpdated: 'group.roles.updated',
  /** A group's user groups (`@handle` mentions) were made, edited or deleted, or lost a member who left. */
  userGroupsUpdated: 'group.usergroups.updated',
  /** A group's custom emoji were added to or removed: members' apps load the list again. */
  emojiChanged: 'group.emoji.changed',
  messageCreated: 'chat.message.created',
  /**
   * A send retried with the same clientMsgId found its message stored: the
   * node that stored it may have died before it announced it, so sockets get
   * it again (clients merge by id). Realtime only: push, mail and
   * integrations act on `chat.message.created` alone, once.
   */
  messageRedelivered: 'chat.message.redelivered',
  messageUpdated: 'chat.message.updated',
  messageDeleted: 'chat.message.deleted',
  reactionUpdated: 'chat.reaction.updated',
  /** A widget's event on a message (a submessage): the converse's apps reduce it into the widget. */
  submessage: 'chat.message.submessage',
  /** A user's read position moved (their other devices clear the badge). */
  converseRead: 'chat.converse.read',
  /** A user read a thread up to a reply (its replies in their inbox are read). */
  threadRead: 'chat.thread.read',
  /** A user set their read position back (mark as unread): their devices show the converse unread again. */
  converseUnread: 'chat.converse.unread',
  /** A user's notification level or mute of a converse changed: their other devices follow. */
  converseNotifications: 'push.converse.notifications',
  /** A user's inbox changed (an entry came, or entries were read): their devices show the new count. */
  inboxUpdated: 'push.inbox.updated',
  importProgress: 'import.progress',
  /** A read receipt: a member who shares them read further in a converse of at most 50 members. */
  readUpdated: 'chat.read.updated',
  /** A DM was opened: gateways put both members' sockets in its room. */
  dmOpened: 'chat.dm.opened',
  /** A file's bytes and metadata are stored (one file node makes its thumbnail). */
  fileUploaded: 'file.uploaded',
  /** Someone is typing (not stored): every gateway tells its sockets in the converse. */
  typing: 'gateway.typing',
  /** A group's bots, hooks or commands changed: every integration node drops what it kept of them. */
  integrationChanged: 'integration.changed',
  /** An answer only one person sees (a slash command's): every gateway tells that user's sockets. */
  ephemeral: 'integration.ephemeral',
  /**
   * A user came online (first socket anywhere) or went offline (last socket
   * gone), went away or came back, or their status (do not disturb, custom
   * text) changed.
   */
  presence: 'gateway.presence',
  /** A user's own status changed: their devices show it (`status:updated`). */
  statusUpdated: 'user.status.updated',
  /** Someone joined or left a converse's call, or published or stopped a track. */
  callUpdated: 'call.updated',
  /** A call started in a DM: the other members' apps ring. */
  callRinging: 'call.ringing',
  /** A DM member declined the call. */
  callDeclined: 'call.declined',
  /** One of a user's scheduled messages changed: their sockets are told. */
  scheduledUpdated: 'chat.scheduled.updated',
  /** A reminder fell due and is in its owner's inbox: their sockets are told. */
  reminderDue: 'push.reminder.due',
} as const;

export type EventName = (typeof EVENTS)[keyof typeof EVENTS];

/** A DM's event names its two members, so gateways reach them without a lookup. */
export interface DmAudience {
  kind: 'dm';
  memberIds: string[];
}

/** A group panel's event: its audience is the panel's room. */
export interface GroupAudience {
  kind: 'group';
}

/** Which kind of converse an event is about, said outright (consumers switch on `kind`). */
export type ConverseAudience = DmAudience | GroupAudience;

/** A new message's audience: a group panel's names its group (integrations pick their hooks by it). */
export type CreatedAudience = DmAudience | (GroupAudience & { groupId: string });

/** A DM event's members (whose sockets may not be in its room yet); none for a group panel's. */
export const dmMembersOf = (audience: ConverseAudience): string[] | undefined =>
  audience.kind === 'dm' ? audience.memberIds : undefined;

/**
 * What each event carries: the one place producers and subscribers take
 * payload types from, so changing a payload breaks its consumers when they
 * are compiled, not when they run.
 */
export interface EventPayloads {
  /** Sent to the groups and DMs the user is in, so every member's app shows the change at once. */
  'user.updated': { user: PublicUser; groupIds: string[]; converseIds: string[] };
  'user.deactivated': { userId: string };
  'user.sessions.revoked': { userId: string; sessionIds: string[] };
  'user.feedToken.replaced': { userId: string };
  'group.updated': { group: GroupInfo };
  /** converseIds: the deleted group's panels, whose rooms gateways empty. */
  'group.deleted': { groupId: string; converseIds: string[] };
  /** converseIds: the group's panels, whose rooms the new member's sockets join. */
  'group.member.joined': {
    groupId: string;
    userId: string;
    role: GroupRole;
    converseIds: string[];
    memberCount: number;
  };
  /** removedBy: set when someone else removed the member. */
  /** role: the one they held in the group until then. */
  'group.member.left': {
    groupId: string;
    userId: string;
    role: GroupRole;
    converseIds: string[];
    removedBy?: string;
  };
  /**
   * mutedUntil: ISO time the member is muted until; absent when not muted.
   * previousRole: present when this change took a role from them.
   */
  'group.member.updated': {
    groupId: string;
    userId: string;
    role: GroupRole;
    previousRole?: GroupRole;
    roleIds: string[];
    mutedUntil?: string;
  };
  'group.panel.created': { groupId: string; panel: Panel };
  'group.panel.updated': { groupId: string; panel: Panel };
  /** private: the panel was private, so only those who saw it are told. */
  'group.panel.deleted': { groupId: string; panelId: string; converseId: string; private?: true };
  /**
   * A private panel's audience changed (it became private or public, its
   * allow lists changed, or members' roles did): granted users' sockets join
   * its room and their apps get it as new; revoked users' sockets leave it
   * and their apps drop it. `panel` is the view its viewers get.
   */
  'group.panel.access': { groupId: string; panel: Panel; grantedUserIds: string[]; revokedUserIds: string[] };
  'group.roles.updated': { groupId: string; roles: Role[] };
  'group.emoji.changed': { groupId: string };
  /** userGroups: all of the group's user groups after the change. */
  'group.usergroups.updated': { groupId: string; userGroups: UserGroup[] };
  /** groupId: a group panel's message names its group (integrations pick their hooks by it). */
  'chat.message.created': { message: Message } & CreatedAudience;
  'chat.message.redelivered': { message: Message } & ConverseAudience;
  'chat.message.updated': { message: Message } & ConverseAudience;
  'chat.message.deleted': { converseId: string; messageId: string; seq: number } & ConverseAudience;
  /** counts: every emoji's count after the change (the same for everyone). */
  'chat.reaction.updated': {
    converseId: string;
    messageId: string;
    emoji: string;
    userId: string;
    added: boolean;
    counts: Array<{ emoji: string; count: number }>;
  } & ConverseAudience;
  'chat.message.submessage': { submessage: Submessage } & ConverseAudience;
  'chat.converse.read': { converseId: string; userId: string; readSeq: number };
  'chat.thread.read': { userId: string; converseId: string; rootId: string; readSeq: number };
  /** entry: the user's counts in the converse after the change. */
  'chat.converse.unread': { userId: string; entry: UnreadEntry };
  'push.converse.notifications': { userId: string; converseId: string } & ConverseNotificationSetting;
  'push.inbox.updated': { userId: string; unread: number };
  /** An import started from the app moved on: to the admin who started it. */
  'import.progress': { userId: string; job: ImportJob };
  'chat.read.updated': { converseId: string; userId: string; readSeq: number } & ConverseAudience;
  'chat.dm.opened': { converse: DmConverse };
  'file.uploaded': { fileId: string };
  'gateway.typing': { converseId: string; userId: string };
  /** resetHookId: an outgoing hook turned back on or given a new secret; every node closes its circuit. */
  'integration.changed': { groupId: string; resetHookId?: string };
  'integration.ephemeral': { userId: string; message: EphemeralMessage };
  /**
   * groupIds: the groups small enough to be told (PRESENCE_GROUP_LIMIT);
   * converseIds: DMs told too (status changes name them).
   */
  'gateway.presence': { userId: string; groupIds: string[]; converseIds?: string[] } & PresenceStatus;
  'user.status.updated': { userId: string; status: UserStatus };
  'call.updated': { converseId: string; participants: CallParticipant[] } & ConverseAudience;
  /** userIds: the DM's members other than the caller. */
  'call.ringing': { converseId: string; callerId: string; startedAt: string; userIds: string[] };
  /** memberIds: the DM's members (the caller hangs up; the decliner's other devices stop ringing). */
  'call.declined': { converseId: string; userId: string; memberIds: string[] };
  'chat.scheduled.updated': { userId: string } & ScheduledUpdatedEvent;
  'push.reminder.due': { userId: string; notification: Notification };
}

/** The context a subscriber of `E` receives. */
export type EventContext<E extends EventName> = Context<EventPayloads[E]>;

/** A subscriber of `E`: a handler, or moleculer's object form. */
export type EventHandler<E extends EventName> =
  ((ctx: EventContext<E>) => unknown) | { handler(ctx: EventContext<E>): unknown; group?: string };

/**
 * A service's `events` block, checked against EventPayloads: each handler
 * must accept what its event carries. Use with `satisfies`.
 */
export type ServiceEvents = { [E in EventName]?: EventHandler<E> };

interface EventSender {
  broadcast(event: string, payload?: unknown): unknown;
  broker?: { logger: { warn(...args: unknown[]): void } };
  logger?: { warn(...args: unknown[]): void };
}

/**
 * Publishes an event: a broker broadcast (to every node with a subscriber
 * for it), and, when the node routes realtime events by room
 * (FANOUT_ROUTING=rooms in a cluster) and the event is one gateways fan out,
 * one NATS publication per room it concerns (gateways take those from there
 * and do not subscribe to the broadcast). Answers the broadcast's promise.
 */
export function publishEvent<E extends EventName>(sender: EventSender, event: E, payload: EventPayloads[E]): unknown {
  const broadcast = sender.broadcast(event, payload);
  const router = roomRouterOf(sender);
  if (router && isRoutedEvent(event)) router.publish(event, payload as EventPayloads[typeof event]);
  return broadcast;
}

/**
 * Publishes an event after its write succeeded (see publishEvent). The write
 * stands whatever happens here, so a transporter hiccup is logged, never
 * thrown at the caller nor left as an unhandled rejection.
 */
export function announce<E extends EventName>(sender: EventSender, event: E, payload: EventPayloads[E]): void {
  const warn = (err: unknown) => (sender.broker?.logger ?? sender.logger)?.warn(`could not publish ${event}`, err);
  try {
    Promise.resolve(publishEvent(sender, event, payload)).catch(warn);
  } catch (err) {
    warn(err);
  }
}

/**
 * Emits an event to one subscriber per service (balanced, unlike announce):
 * for work that one node should do, such as making a thumbnail. Best effort
 * in the same way as announce.
 */
export function emitToOne<E extends EventName>(
  sender: { emit(event: string, payload?: unknown): unknown },
  event: E,
  payload: EventPayloads[E],
): void {
  try {
    Promise.resolve(sender.emit(event, payload)).catch(() => undefined);
  } catch {
    // Nothing was sent; the work it asked for is best effort.
  }
}
