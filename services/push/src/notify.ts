import { plainText } from '@im/markdown';
import { call, isDuplicateKeyError, type EventContext } from '@im/sdk';
import type { Message } from '@im/protocol';
import type { ServiceBroker } from 'moleculer';
import { Types } from 'mongoose';
import type { PushJobData } from './delivery/push-job.ts';
import type { PushDeps } from './deps.ts';
import type { DeviceDoc, SubscriptionDoc } from './models.ts';
import { mutedAmong } from './muted.ts';

/** Most members an `@all` notifies (the roster's ids stop there). */
const ALL_TARGETS_MAX = 100_000;
/** Characters of a message shown in a notification and the inbox. */
const PREVIEW_CHARS = 140;

/**
 * What reaches a member who is not looking: for DMs and mentions, members
 * with no socket anywhere get an inbox entry and a push (Web Push, and the
 * HTTP push proxy for mobile devices), unless they muted it.
 */
export function notifier({ app, models, queue, fanOut }: PushDeps) {
  /** The users of `ids` with no socket on any gateway (all of them if no gateway answers). */
  const offline = async (broker: ServiceBroker, ids: string[]) => {
    const online = new Set(await call(broker, 'gateway.online', { userIds: ids }).catch(() => []));
    return ids.filter((id) => !online.has(id));
  };

  /**
   * Whom a group message mentions: those it names, and with `@all` every
   * member of the group. `@here` adds nobody: it mentions the members online
   * at the send, and only members with no socket are notified.
   */
  const mentioned = async (broker: ServiceBroker, message: Message): Promise<string[]> => {
    if (!message.mentionsAll) return message.mentions;
    const roster = await call(broker, 'group.converseRoster', {
      converseId: message.converseId,
      maxIds: ALL_TARGETS_MAX,
    });
    return [...new Set([...message.mentions, ...(roster?.memberIds ?? [])])];
  };

  /** In a cluster every push node hears each message: one of them (whoever sets the key) handles it. */
  const claim = async (messageId: string) =>
    !app.redis || (await app.redis.set(`push:seen:${messageId}`, '1', 'EX', 3600, 'NX')) === 'OK';

  /** Inbox entries and push jobs for the recipients of a message who are offline and did not mute it. */
  const notifyOffline = async (ctx: EventContext<'chat.message.created'>, memberIds: string[] | undefined) => {
    const { message } = ctx.params;
    const kind: 'dm' | 'mention' = memberIds ? 'dm' : 'mention';
    const targets = (memberIds ?? (await mentioned(ctx.broker, message))).filter((id) => id !== message.authorId);
    if (targets.length === 0 || !(await claim(message.id))) return;

    const muted = await mutedAmong(models, message.converseId, targets);
    const recipients = await offline(
      ctx.broker,
      targets.filter((id) => !muted.has(id)),
    );
    if (recipients.length === 0) return;

    // The words a reader sees, spoilers hidden: a lock screen cannot keep them until tapped.
    const preview = plainText(message.content, PREVIEW_CHARS);
    // Inbox entries written as they are stored (cast here, createdAt set): mongoose's hydration
    // and validation of a document per recipient cost more than the insert itself.
    const converseId = new Types.ObjectId(message.converseId);
    const messageId = new Types.ObjectId(message.id);
    const authorId = new Types.ObjectId(message.authorId);
    const createdAt = new Date();
    // Cast once: the inbox entries and the destination lookups share them.
    const recipientIds = recipients.map((id) => new Types.ObjectId(id));
    await models.notifications
      .insertMany(
        recipientIds.map((userId) => ({
          _id: new Types.ObjectId(),
          userId,
          kind,
          converseId,
          messageId,
          seq: message.seq,
          authorId,
          preview,
          createdAt,
        })),
        { ordered: false, lean: true },
      )
      .catch((err: unknown) => {
        if (!isDuplicateKeyError(err) && !(err as { writeErrors?: unknown }).writeErrors) throw err;
      });
    const payload = JSON.stringify({
      type: kind,
      converseId: message.converseId,
      messageId: message.id,
      seq: message.seq,
      authorId: message.authorId,
      preview,
    });
    const [subs, devices] = await Promise.all([
      models.subscriptions
        .find({ userId: { $in: recipientIds } }, { _id: 0, endpoint: 1, p256dh: 1, auth: 1, failingSince: 1 })
        .lean<SubscriptionDoc[]>(),
      app.config.pushProxyUrl
        ? models.devices.find({ userId: { $in: recipientIds } }, { _id: 0, platform: 1, token: 1 }).lean<DeviceDoc[]>()
        : Promise.resolve([]),
    ]);
    const jobs: PushJobData[] = [
      ...subs.map((s) => ({
        channel: 'webpush' as const,
        target: s.failingSince
          ? { endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, failing: true as const }
          : { endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth },
        payload,
      })),
      ...devices.map((d) => ({ channel: 'proxy' as const, target: { platform: d.platform, token: d.token }, payload })),
    ];
    await queue()?.enqueue(jobs);
  };

  return {
    /** On `chat.message.created`: inbox entries and pushes for the offline recipients. */
    async messageCreated(ctx: EventContext<'chat.message.created'>): Promise<void> {
      const { message, memberIds } = ctx.params;
      if (!memberIds && message.mentions.length === 0 && !message.mentionsAll) return;
      // A message's reads, inbox entries and jobs wait until the queue has room for its jobs
      // (an `@all` for as many as the mark: its roster is read once it is admitted).
      const weight = memberIds ? memberIds.length : message.mentionsAll ? Infinity : message.mentions.length;
      const release = (await fanOut()?.admit(weight)) ?? (() => undefined);
      try {
        await notifyOffline(ctx, memberIds);
      } finally {
        release();
      }
    },

    /** On `chat.converse.read`: reading a converse clears its inbox entries up to the read position. */
    async converseRead(ctx: EventContext<'chat.converse.read'>): Promise<void> {
      await models.notifications.deleteMany({
        userId: ctx.params.userId,
        converseId: ctx.params.converseId,
        seq: { $lte: ctx.params.readSeq },
        // A reminder stays until it is seen in the inbox: it is about an old message on purpose.
        kind: { $ne: 'reminder' },
      });
    },
  };
}
