import { plainText } from '@im/markdown';
import { call, dmMembersOf, isDuplicateKeyError, type EventContext } from '@im/sdk';
import type { Message } from '@im/protocol';
import type { Context, ServiceBroker } from 'moleculer';
import { Types } from 'mongoose';
import { LARGE_CONVERSE_MEMBERS } from './converse-levels.ts';
import type { PushJobData } from './delivery/push-job.ts';
import type { PushDeps } from './deps.ts';
import { tellInboxCounts } from './inbox-count.ts';
import type { DeviceDoc, NotificationKind, SubscriptionDoc } from './models.ts';
import { recipientsOf } from './recipients.ts';
import { withoutBlockers } from './blockers.ts';
import { dndAmong } from './dnd.ts';
import { RosterCache } from './roster-cache.ts';
/** Characters of a message shown in a notification and the inbox. */
const PREVIEW_CHARS = 140;

/**
 * What reaches a member of a message, by their level of its converse
 * (recipients.ts): mentions, replies in threads they follow get an inbox
 * entry whether they are online or not; DMs get one while offline; members
 * with no socket anywhere get a push (Web Push, and the HTTP push proxy for
 * mobile devices), also for every message of a converse at level `all`.
 */
export function notifier({ app, models, queue, fanOut }: PushDeps) {
  // Members of converses under 100 (those at level `all` by default): kept, dropped by membership events.
  const rosters = new RosterCache(LARGE_CONVERSE_MEMBERS - 1);

  /** Of these users, those with a Web Push subscription or (with a push proxy) a device. */
  const reachable = async (userIds: string[]): Promise<string[]> => {
    const ids = userIds.map((id) => new Types.ObjectId(id));
    const [subs, devices] = await Promise.all([
      models.subscriptions.distinct('userId', { userId: { $in: ids } }),
      app.config.pushProxyUrl ? models.devices.distinct('userId', { userId: { $in: ids } }) : Promise.resolve([]),
    ]);
    return [...new Set([...subs, ...devices].map((id) => String(id)))];
  };

  /** The users of `ids` with no socket on any gateway (all of them if no gateway answers). */
  const offline = async (broker: ServiceBroker, ids: string[]) => {
    const online = new Set(await call(broker, 'gateway.online', { userIds: ids }).catch(() => []));
    return ids.filter((id) => !online.has(id));
  };

  /** In a cluster every push node hears each message: one of them (whoever sets the key) handles it. */
  const claim = async (messageId: string) =>
    !app.redis || (await app.redis.set(`push:seen:${messageId}`, '1', 'EX', 3600, 'NX')) === 'OK';

  /** Inbox entries for some recipients of a message, written as they are stored. */
  const fileEntries = async (message: Message, kinds: Map<string, NotificationKind>, preview: string) => {
    if (kinds.size === 0) return;
    // Cast here, createdAt set: mongoose's hydration and validation of a document per recipient cost more than the insert.
    const converseId = new Types.ObjectId(message.converseId);
    const messageId = new Types.ObjectId(message.id);
    const authorId = new Types.ObjectId(message.authorId);
    const createdAt = new Date();
    await models.notifications
      .insertMany(
        [...kinds].map(([userId, kind]) => ({
          _id: new Types.ObjectId(),
          userId: new Types.ObjectId(userId),
          kind,
          converseId,
          messageId,
          seq: message.seq,
          authorId,
          preview,
          createdAt,
          ...(kind === 'reply' && message.threadId ? { threadId: new Types.ObjectId(message.threadId) } : {}),
        })),
        { ordered: false, lean: true },
      )
      .catch((err: unknown) => {
        if (!isDuplicateKeyError(err) && !(err as { writeErrors?: unknown }).writeErrors) throw err;
      });
  };

  /** Push jobs to every browser and device of these users. */
  const pushTo = async (
    broker: ServiceBroker,
    message: Message,
    userIds: string[],
    kindOf: (id: string) => string,
    preview: string,
  ) => {
    if (userIds.length === 0) return;
    const recipientIds = userIds.map((id) => new Types.ObjectId(id));
    const payloadOf = new Map<string, string>();
    const payload = (userId: Types.ObjectId) => {
      const type = kindOf(userId.toHexString());
      let json = payloadOf.get(type);
      if (!json) {
        const { converseId, id: messageId, seq, authorId } = message;
        json = JSON.stringify({ type, converseId, messageId, seq, authorId, preview });
        payloadOf.set(type, json);
      }
      return json;
    };
    const [subs, devices] = await Promise.all([
      models.subscriptions
        .find(
          { userId: { $in: recipientIds } },
          { _id: 0, userId: 1, endpoint: 1, p256dh: 1, auth: 1, failingSince: 1 },
        )
        .lean<SubscriptionDoc[]>(),
      app.config.pushProxyUrl
        ? models.devices
            .find({ userId: { $in: recipientIds } }, { _id: 0, userId: 1, platform: 1, token: 1 })
            .lean<DeviceDoc[]>()
        : Promise.resolve([]),
    ]);
    if (subs.length === 0 && devices.length === 0) return;
    // Do not disturb holds pushes back (the inbox entries were written all the same); asked only
    // about those with somewhere to push to.
    const held = await dndAmong(
      broker,
      [...subs, ...devices].map((t) => t.userId),
    );
    const jobs: PushJobData[] = [
      ...subs
        .filter((s) => !held.has(s.userId.toHexString()))
        .map((s) => ({
          channel: 'webpush' as const,
          target: s.failingSince
            ? { endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, failing: true as const }
            : { endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth },
          payload: payload(s.userId),
        })),
      ...devices
        .filter((d) => !held.has(d.userId.toHexString()))
        .map((d) => ({
          channel: 'proxy' as const,
          target: { platform: d.platform, token: d.token },
          payload: payload(d.userId),
        })),
    ];
    if (jobs.length > 0) await queue()?.enqueue(jobs);
  };

  /** Inbox entries, inbox counts and push jobs for the recipients of a message. */
  const notifyRecipients = async (ctx: EventContext<'chat.message.created'>, memberIds: string[] | undefined) => {
    const { message } = ctx.params;
    const heard = await recipientsOf(ctx.broker, models, rosters, reachable, message, memberIds);
    const { addressed, everyMessage } = await withoutBlockers(ctx.broker, message.authorId, heard);
    if ((addressed.size === 0 && everyMessage.length === 0) || !(await claim(message.id))) return;

    const away = new Set(await offline(ctx.broker, [...addressed.keys(), ...everyMessage]));
    // The words a reader sees, spoilers hidden: a lock screen cannot keep them until tapped.
    const preview = plainText(message.content, PREVIEW_CHARS);
    // A DM is in the inbox only if it came while its reader was away: the app shows it as it comes.
    const filed = new Map([...addressed].filter(([id, kind]) => kind !== 'dm' || away.has(id)));
    await fileEntries(message, filed, preview);
    // Only devices connected now hear a count: the others read it when they next load the inbox.
    await tellInboxCounts(
      ctx,
      models,
      [...filed.keys()].filter((id) => !away.has(id)),
    );
    await pushTo(
      ctx.broker,
      message,
      [...addressed.keys(), ...everyMessage].filter((id) => away.has(id)),
      (id) => addressed.get(id) ?? 'message',
      preview,
    );
  };

  return {
    /** On `chat.message.created`: inbox entries, and pushes for the offline recipients. */
    async messageCreated(ctx: EventContext<'chat.message.created'>): Promise<void> {
      const { message } = ctx.params;
      const memberIds = dmMembersOf(ctx.params);
      // A message's reads, inbox entries and jobs wait until the queue has room for its jobs
      // (an `@all` for as many as the mark: its roster is read once it is admitted; any other
      // group message for as many as a converse at level `all` by default may have).
      const weight = memberIds
        ? memberIds.length
        : message.mentionsAll
          ? Infinity
          : Math.max(message.mentions.length, LARGE_CONVERSE_MEMBERS);
      const release = (await fanOut()?.admit(weight)) ?? (() => undefined);
      try {
        await notifyRecipients(ctx, memberIds);
      } finally {
        release();
      }
    },

    /**
     * On `chat.converse.read`: reading a converse clears its inbox entries up
     * to the read position (replies stay: a thread is read in its own view).
     */
    async converseRead(ctx: EventContext<'chat.converse.read'>): Promise<void> {
      const { userId, converseId, readSeq } = ctx.params;
      const { deletedCount } = await models.notifications.deleteMany({
        userId,
        converseId,
        seq: { $lte: readSeq },
        // Replies are read in their thread's view; a reminder is about an old message on purpose.
        kind: { $nin: ['reply', 'reminder'] },
      });
      if (deletedCount > 0) await tellInboxCounts(ctx, models, [userId]);
    },

    /** On `chat.thread.read`: reading a thread clears its reply entries up to the read position. */
    async threadRead(ctx: EventContext<'chat.thread.read'>): Promise<void> {
      const { userId, rootId, readSeq } = ctx.params;
      const { deletedCount } = await models.notifications.deleteMany({
        userId,
        kind: 'reply',
        threadId: rootId,
        seq: { $lte: readSeq },
      });
      if (deletedCount > 0) await tellInboxCounts(ctx, models, [userId]);
    },

    /** A browser or device was registered or removed. */
    targetsChanged(): void {
      rosters.forgetPushable();
    },

    /** Who is in these converses changed: their kept rosters are stale. */
    membershipChanged(converseIds: readonly string[]): void {
      rosters.forget(converseIds);
    },

    /** A member who left a group (or lost a private panel) has its entries there read: the bell no longer counts them. */
    async accessLost(ctx: Context, userId: string, converseIds: string[]): Promise<void> {
      rosters.forget(converseIds);
      if (converseIds.length === 0) return;
      const { modifiedCount } = await models.notifications.updateMany(
        { userId, converseId: { $in: converseIds }, readAt: null },
        { $set: { readAt: new Date() } },
      );
      if (modifiedCount > 0) await tellInboxCounts(ctx, models, [userId]);
    },
  };
}
