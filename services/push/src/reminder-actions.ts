import { plainText } from '@im/markdown';
import { announce, call, EVENTS, type ActionParams, type ActionResult, type Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { PushJobData } from './delivery/push-job.ts';
import type { PushDeps } from './deps.ts';
import { withoutDnd } from './dnd.ts';
import { tellInboxCounts } from './inbox-count.ts';
import type { NotificationDoc, SubscriptionDoc } from './models.ts';
import { toNotification } from './views.ts';

/** Characters of a message shown in a notification and the inbox. */
const PREVIEW_CHARS = 140;

/** Due reminders (the chat service keeps the schedule): an inbox entry, the owner's sockets, a push when away. */
export const reminderActions = ({ models, queue }: PushDeps) => ({
  remind: {
    visibility: 'public' as const,
    params: {
      $$strict: true,
      reminderId: { type: 'string' },
      userId: { type: 'string' },
      converseId: { type: 'string' },
      messageId: { type: 'string' },
      seq: { type: 'number' },
      authorId: { type: 'string' },
      content: { type: 'string' },
    },
    async handler(ctx: Ctx<ActionParams<'push.remind'>>): Promise<ActionResult<'push.remind'>> {
      const { userId, converseId, messageId, seq, authorId, content } = ctx.params;
      const preview = plainText(content, PREVIEW_CHARS);
      const entry: NotificationDoc = {
        _id: new Types.ObjectId(),
        userId: new Types.ObjectId(userId),
        kind: 'reminder',
        converseId: new Types.ObjectId(converseId),
        messageId: new Types.ObjectId(messageId),
        seq,
        authorId: new Types.ObjectId(authorId),
        preview,
        createdAt: new Date(),
      };
      // One entry per message and user: the reminder takes the place of a mention of the same message, at the top.
      await models.notifications.deleteMany({ userId: entry.userId, messageId: entry.messageId });
      await models.notifications.insertMany([entry], { lean: true });
      announce(ctx, EVENTS.reminderDue, { userId, notification: toNotification(entry) });
      await tellInboxCounts(ctx, models, [userId]);
      const online: string[] = await call(ctx, 'gateway.online', { userIds: [userId] }).catch(() => []);
      if (online.includes(userId)) return;
      // Do not disturb holds the push back; the inbox entry stays.
      if ((await withoutDnd(ctx.broker, [entry.userId])).length === 0) return;
      const payload = JSON.stringify({ type: 'reminder', converseId, messageId, seq, authorId, preview });
      const subs = await models.subscriptions
        .find({ userId: entry.userId }, { _id: 0, endpoint: 1, p256dh: 1, auth: 1, failingSince: 1 })
        .lean<SubscriptionDoc[]>();
      const jobs: PushJobData[] = subs.map((s) => ({
        channel: 'webpush' as const,
        target: s.failingSince
          ? { endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, failing: true as const }
          : { endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth },
        payload,
      }));
      if (jobs.length > 0) await queue()?.enqueue(jobs);
    },
  },
});
