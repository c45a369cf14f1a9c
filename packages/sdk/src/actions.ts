import type {
  ReminderDue,
  ImportJob,
  ImportKind,
  ScheduledAccepted,
  Bot,
  CallRecord,
  CommandAccepted,
  ConverseAccess,
  Group,
  InvitePreview,
  ConverseMembership,
  CustomEmoji,
  LinkPreview,
  FileAccess,
  FileInfo,
  GroupRole,
  MemberAccess,
  Permission,
  Message,
  PresenceStatus,
  PublicUser,
  SendMessageBody,
  StorageUsage,
  SyncRequest,
  SyncResult,
  UserGroupConverses,
  UserRooms,
  PostingRole,
  PanelInfo,
  EmailNotifications,
} from '@im/protocol';
import type { CallingOptions } from 'moleculer';

/** An account e-mail the user service asks the mail service to send. */
export interface AccountMail {
  kind: 'verify-email' | 'password-reset';
  to: string;
  /** The account's username, as the e-mail greets it. */
  username: string;
  /** The link the e-mail carries. */
  url: string;
}

/** A user who gets missed-message e-mails, and how soon. */
export interface MailRecipient {
  email: string;
  username: string;
  nickname: string;
  emailNotifications: EmailNotifications;
}

/**
 * The actions one part of the platform calls on another through the broker
 * (service to service, and the gateway's own calls), with what each takes
 * and answers. Callers use `call()`, so a changed answer breaks them when
 * they are compiled; the services that serve them declare their handlers
 * with the same types (`ActionParams` / `ActionResult`).
 */
export interface ActionMap {
  /** A slash command is answered CommandAccepted (not stored) instead of a message; a send with sendAt ScheduledAccepted. */
  'chat.send': { params: SendMessageBody; result: Message | CommandAccepted | ScheduledAccepted };
  'chat.sync': { params: SyncRequest; result: SyncResult };
  /** The rooms a user's sockets join at connect. */
  'chat.userRooms': { params: { userId: string }; result: UserRooms };
  /** Which of `ids` share a group or a DM with the user (the user counts as sharing with themself). */
  'chat.contactsAmong': { params: { userId: string; ids: string[] }; result: string[] };
  /** A user's access to a converse, or null when they are not in it. */
  'chat.access': { params: { converseId: string; userId: string }; result: ConverseAccess | null };
  /** The message recording a DM call that ended, under the caller's name; `key` names the call (idempotent). */
  'chat.postCallRecord': {
    params: { converseId: string; authorId: string; outcome: CallRecord['outcome']; durationSec: number; key: string };
    result: Message;
  };
  /** A user's read positions in the given converses (0 where they never read), for services acting on their behalf. */
  /** Who follows a thread: its root's author and the followers (at most `max`). */
  'chat.threadFollowers': { params: { rootId: string; max: number }; result: string[] };
  'chat.readSeqs': { params: { userId: string; converseIds: string[] }; result: Record<string, number> };
  'chat.startReading': { params: { userId: string; converseIds: string[] }; result: void };
  /** The user's role in the group of a panel's converse, or null (not a member, or not a panel). */
  'group.converseMember': { params: { converseId: string; userId: string }; result: ConverseMembership | null };
  /**
   * Several users at once (a sender and everyone they mention): null when the
   * converse is no group panel; else the group, who may post in the panel,
   * and the role of each given user who is a member (non-members are left
   * out), with the mute of those muted (epoch ms, possibly past).
   */
  'group.converseMembers': {
    /** handles: `@word`s of a message, expanded to the members of the group's user groups of that handle. */
    params: { converseId: string; userIds: string[]; handles?: string[] };
    result: {
      groupId: string;
      postingRole: PostingRole;
      roles: Record<string, GroupRole>;
      mutedUntil: Record<string, number>;
      /** What each given member may do in the group. */
      permissions: Record<string, Permission[]>;
      /** Present when the panel is private (members who may not see it are left out). */
      private?: true;
      /** Present when handles were given: the members of those user groups who may read the panel. */
      handleMemberIds?: string[];
    } | null;
  };
  /** A user's role, custom roles and permissions in a group, or null when not a member. Cached. */
  /** A group an import wrote: into the room index, caches dropped, members told (internal). */
  'group.adoptImported': { params: { groupId: string }; result: boolean };
  /** DMs an import wrote: into their people's DM index, announced (internal). */
  'chat.adoptImportedDms': { params: { converseIds: string[] }; result: number };
  /** Checks an admin's import upload before it is stored: answers whose group it makes. */
  'import.prepare': { params: { kind: string; owner?: string }; result: { ownerId: string } };
  /** Queues an uploaded export's import. */
  'import.start': {
    params: { kind: ImportKind; ownerId: string; storageKey: string; fileName: string };
    result: ImportJob;
  };
  'group.memberAccess': { params: { groupId: string; userId: string }; result: MemberAccess | null };
  /** A user's role in a group, or null when not a member (the file service checks membership with it). Cached. */
  'group.memberRole': { params: { groupId: string; userId: string }; result: GroupRole | null };
  /** Whether an invite code is live (not expired, revoked or used up): its group, else null. */
  'group.checkInvite': { params: { code: string }; result: { groupId: string } | null };
  /** The caller (ctx.meta.user) joins the invite's group. */
  'group.acceptInvite': { params: { code: string }; result: Group };
  'group.previewInvite': { params: { code: string }; result: InvitePreview };
  /** A message as the caller (ctx.meta.user) may see it: 404 otherwise. */
  'chat.getMessage': { params: { messageId: string }; result: Message };
  /** Deletes a message as the caller (ctx.meta.user): its author or a group admin. */
  'chat.remove': { params: { messageId: string }; result: void };
  /** Deletes a message for a server admin (ctx.meta.user) the caller already checked; audited. */
  'chat.moderatorRemove': { params: { messageId: string }; result: void };
  /** Whether either user blocked the other (the chat service refuses DMs between them). */
  'user.blockBetween': { params: { from: string; to: string }; result: { byFrom: boolean; byTo: boolean } };
  /** Of `ids`, those who blocked `userId` (they hear of none of its messages). */
  'user.blockersAmong': { params: { userId: string; ids: string[] }; result: string[] };
  'user.block': { params: { userId: string }; result: void };
  'user.unblock': { params: { userId: string }; result: void };
  /** Whether the user is a server admin (the account's stored flag, and active). */
  'user.isServerAdmin': { params: { userId: string }; result: boolean };
  /** Where an export's archive is, for a request whose signed URL the gateway checked (404 until it is done). */
  'import.exportLocate': {
    params: { exportId: string };
    result: { storageKey: string; size: number; fileName: string };
  };

  /** The caller's groups with the panels they see (`GET /api/groups`; search reads panel names from it). */
  'group.list': { params: Record<string, never>; result: Group[] };
  'group.userConverses': { params: { userId: string }; result: UserGroupConverses[] };
  /** Which of `ids` are members of at least one group the user is a member of. */
  'group.coMembersAmong': { params: { userId: string; ids: string[] }; result: string[] };
  /** Active users by id (unknown or inactive ids are left out; with includeInactive, only unknown ones). */
  'user.getMany': { params: { ids: string[]; includeInactive?: boolean }; result: Record<string, PublicUser> };
  /** Active users' ids by lower-cased username (unknown names are left out). */
  'user.idsByUsernames': { params: { usernames: string[] }; result: Record<string, string> };
  /** A user's storage use and quota (GET /api/users/me shows it). */
  /** Where a file's bytes are, for a request whose signed URL the gateway checked (no caller to check). */
  'file.locate': { params: { fileId: string }; result: FileAccess };
  'file.usage': { params: { userId: string }; result: StorageUsage };
  /** The user's own small image becomes their profile picture, readable by everyone signed in. */
  'file.useAsAvatar': { params: { fileId: string; userId: string }; result: void };
  /** The user's own small image becomes the group's icon, readable by everyone signed in. */
  'file.useAsGroupIcon': { params: { fileId: string; userId: string; groupId: string }; result: void };
  /** An icon the group replaced or removed goes back to being an unused upload (only while it is that group's). */
  'file.releaseGroupIcon': { params: { fileId: string; groupId: string }; result: void };
  /** A deleted group's icon is removed (only while it is that group's); false when there was none. */
  'file.removeGroupIcon': { params: { fileId: string; groupId: string }; result: boolean };
  /**
   * A group's icon, for the gateway's upload route, as the caller (owner or
   * admin): without fileId only checks; with it the file becomes the icon.
   */
  'group.setIcon': { params: { groupId: string; fileId?: string }; result: Group | null };
  /** Account deletion: the user leaves every group (ownership handed to an admin, or the group deleted). */
  'group.forgetUser': { params: { userId: string }; result: void };
  /** Of these users, those who muted the converse (or everything) in their notification settings. */
  /** A due reminder: its inbox entry, the owner's sockets told, a push when they have none. */
  'push.remind': { params: ReminderDue; result: void };
  'push.mutedAmong': { params: { converseId: string; userIds: string[] }; result: string[] };
  /** Account deletion: the user's Web Push subscriptions, devices and notifications go. */
  'push.forgetUser': { params: { userId: string }; result: void };
  /**
   * For each token's claim, in order: whether its session is live (not revoked
   * or expired, its user active); records the live ones as seen. At most
   * SESSION_CHECK_BATCH claims a call.
   */
  'user.sessionsLive': { params: { claims: Array<{ sessionId: string; userId: string }> }; result: boolean[] };

  /** Records a file whose bytes are stored under `key` (the caller is the uploader). */
  'file.register': {
    /** groupId: the file is a custom emoji of that group, readable by its members. */
    params: { key: string; name: string; size: number; mime: string; sha256: string; groupId?: string };
    result: FileInfo;
  };
  /**
   * Custom emoji, for the gateway's upload route, as the caller (an admin):
   * without fileId only checks (admin, name free, room left); with it records.
   */
  'group.addEmoji': { params: { groupId: string; name: string; fileId?: string }; result: CustomEmoji | null };
  /** Whether `:name:` is one of the group's custom emoji. */
  'group.emojiExists': { params: { groupId: string; name: string }; result: boolean };
  /** Link previews: claims the message's preview for one fetcher (false: taken, or the message is gone). */
  'chat.claimPreview': { params: { messageId: string; url: string }; result: boolean };
  /** Sets a message's preview and tells the converse (message:updated); false when it no longer applies (deleted, removed, edited). */
  'chat.setPreview': { params: { messageId: string; preview: LinkPreview }; result: boolean };
  /** What the gateway needs to serve a file's bytes, for those who may read it. */
  'file.access': { params: { fileId: string }; result: FileAccess };
  /**
   * Checks that `userId` uploaded every one of the files and lets the
   * converse's members read them, in one call; refuses all if one is not theirs.
   */
  'file.attach': { params: { fileIds: string[]; userId: string; converseId: string }; result: FileInfo[] };
  /**
   * A forward's files: each must already be attached in `fromConverseId`
   * (the message being forwarded is there); then the members of
   * `toConverseId` may read them too. 404 and nothing shared otherwise.
   */
  'file.share': { params: { fileIds: string[]; fromConverseId: string; toConverseId: string }; result: FileInfo[] };
  /** Removes a link preview's image (record, quota, object) once its preview or message is gone; false if none. */
  'file.removePreviewImage': { params: { fileId: string }; result: boolean };
  /** Removes files never attached and older than the grace period; answers how many. */
  'file.cleanup': { params: Record<string, never>; result: number };
  /** Which of these users have a socket on any gateway. */
  'gateway.online': { params: { userIds: string[] }; result: string[] };
  /** Of these users, who has a socket on any gateway and who of those is away (every socket idle). */
  'gateway.presenceOf': { params: { userIds: string[] }; result: { online: string[]; away: string[] } };
  /** What others see of these users' status now (do not disturb, custom text and emoji); users with none left out. */
  'user.statuses': { params: { ids: string[] }; result: Record<string, Omit<PresenceStatus, 'online'>> };
  /** Of these users, those in do not disturb now (no push reaches them). */
  'user.dndAmong': { params: { ids: string[] }; result: string[] };
  /**
   * A panel's group, its member count, and its members' ids when it has at
   * most `maxIds` members (null otherwise); null when the converse is no panel.
   */
  'group.converseRoster': {
    params: { converseId: string; maxIds: number };
    result: { groupId: string; memberCount: number; memberIds: string[] | null } | null;
  };
  /** Which of these users turned read receipts off. */
  'user.receiptsHidden': { params: { ids: string[] }; result: string[] };
  /** Drops this gateway's rendered pages and feeds of these converses (called on every gateway, awaited). */
  'gateway.forgetPublic': { params: { converseIds: string[] }; result: void };
  /** A text panel with its group, by panel id or by converse id; null when there is none. */
  /** Groups' names by id (deleted groups left out). */
  'group.namesOf': { params: { ids: string[] }; result: Record<string, string> };
  'group.panelInfo': { params: { panelId?: string; converseId?: string }; result: PanelInfo | null };
  /**
   * A converse's messages for pages and feeds, with no caller: the newest
   * `limit` (or those just below `before`) in seq order, deleted ones left out.
   * The caller (the gateway) has decided who may read them.
   */
  'chat.feedMessages': { params: { converseId: string; before?: number; limit: number }; result: Message[] };
  /** Who owns a personal feed token (an active user), or null. */
  'user.feedTokenOwner': { params: { token: string }; result: string | null };
  /**
   * Single sign-on, for the gateway's browser routes: where to send the
   * browser next. Start: to the provider, with the `state` the gateway binds
   * to the browser in a cookie (absent when it sends the browser back to the
   * app with an error). Callback: back into the app with a one-time code or an
   * error. Both are 404 when OIDC is not configured.
   */
  'user.oidcStart': {
    params: { redirectUri: string; link?: string };
    result: { location: string; state?: string };
  };
  'user.oidcCallback': {
    params: { redirectUri: string; query: string; boundState?: string };
    result: { location: string };
  };

  /** A bot user of a group (the integration service made sure the caller is its admin); a token unless managed. */
  'user.createBot': {
    params: { groupId: string; name: string; createdBy: string; managedBy?: Bot['managedBy'] };
    result: { user: PublicUser; token?: string };
  };
  /** A new token for a bot of the group (the old ones stop at once); null when there is no such bot. */
  'user.botToken': { params: { groupId: string; botId: string }; result: { user: PublicUser; token: string } | null };
  /** Ends a bot's token (no new one): it stops working at once. False when there is no such bot with a token. */
  'user.endBotToken': { params: { groupId: string; botId: string }; result: boolean };
  /** Removes a bot: its tokens stop working at once. False when there is no such bot. */
  'user.removeBot': { params: { groupId: string; botId: string }; result: boolean };
  /** The group's live bots, oldest first. */
  'user.listBots': { params: { groupId: string }; result: Bot[] };
  /** Adds a bot as a member of its group (no invite; never an admin). */
  'group.addBot': { params: { groupId: string; userId: string }; result: void };
  /** Removes a bot from its group's members (after it was removed). */
  'group.removeBot': { params: { groupId: string; userId: string }; result: void };
  /**
   * A send that starts with `/word` in a group panel: the group's command of
   * that trigger runs (the answer is posted or shown to the caller); null
   * when the group has no such command (the text is sent as it is).
   */
  'integration.runCommand': {
    params: { groupId: string; converseId: string; userId: string; trigger: string; text: string };
    result: CommandAccepted | null;
  };
  /**
   * Queues an account e-mail (an address verification or a password-reset
   * link); false when e-mail is off (no SMTP_URL). Never waits for SMTP.
   */
  'mail.send': { params: AccountMail; result: boolean };
  /**
   * Who of these users gets missed-message e-mails: active, with a verified
   * address and e-mail notifications on. The others are left out.
   */
  'user.mailRecipients': { params: { ids: string[] }; result: Record<string, MailRecipient> };
}

/** Most token claims one `user.sessionsLive` call checks. */
export const SESSION_CHECK_BATCH = 500;

export type ActionName = keyof ActionMap;
export type ActionParams<A extends ActionName> = ActionMap[A]['params'];
export type ActionResult<A extends ActionName> = ActionMap[A]['result'];

/** A broker or a context: anything that can call an action. */
export interface ActionCaller {
  call<TResult, TParams>(actionName: string, params: TParams, opts?: CallingOptions): Promise<TResult>;
}

/** Calls an action of the ActionMap with its declared parameter and answer types. */
export function call<A extends ActionName>(
  caller: ActionCaller,
  action: A,
  params: ActionParams<A>,
  opts?: CallingOptions,
): Promise<ActionResult<A>> {
  return caller.call<ActionResult<A>, ActionParams<A>>(action, params, opts);
}
