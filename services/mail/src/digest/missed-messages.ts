import { call, isDuplicateKeyError, type EventContext } from '@im/sdk';
import { Types } from 'mongoose';
import type { MailDeps } from '../deps.ts';
import type { MissedDoc } from '../models.ts';
import { digestDelayMs } from './delays.ts';

/**
 * What missed-message e-mails hear: a DM or a direct mention for someone
 * who gets these e-mails (a verified address, not turned off), has no
 * socket anywhere, did not mute the converse and did not block the author is recorded, and their digest scheduled (the first one
 * missed sets its time); reading the converse past a message cancels it;
 * an edit or a deletion is carried over.
 */
export function missedMessages({ app, models, queue, timer }: MailDeps) {
  return {
    async messageCreated(ctx: EventContext<'chat.message.created'>): Promise<void> {
      if (!queue()) return;
      const { message } = ctx.params;
      // @all and @here are not e-mailed: only DMs and people named.
      const named = ctx.params.kind === 'dm' ? ctx.params.memberIds : message.mentions;
      const targets = named.filter((id) => id !== message.authorId);
      if (targets.length === 0) return;
      const recipients = await call(ctx, 'user.mailRecipients', { ids: targets });
      const ids = Object.keys(recipients);
      if (ids.length === 0) return;
      const [online, muted, blockers] = await Promise.all([
        call(ctx, 'gateway.online', { userIds: ids }).catch(() => []),
        // Muted in their notification settings: no e-mail either (without a push service, nobody is muted).
        call(ctx, 'push.mutedAmong', { converseId: message.converseId, userIds: ids }).catch(() => []),
        // Those who blocked the author hear of none of their messages.
        call(ctx, 'user.blockersAmong', { userId: message.authorId, ids }),
      ]);
      const skipped = new Set([...online, ...muted, ...blockers]);
      const away = ids.filter((id) => !skipped.has(id));
      if (away.length === 0) return;

      const sentAt = new Date(message.createdAt);
      const base = {
        converseId: new Types.ObjectId(message.converseId),
        messageId: new Types.ObjectId(message.id),
        seq: message.seq,
        authorId: new Types.ObjectId(message.authorId),
        kind: ctx.params.kind === 'dm' ? ('dm' as const) : ('mention' as const),
        content: message.content,
        sentAt,
      };
      const docs: MissedDoc[] = away.map((id) => ({
        _id: new Types.ObjectId(),
        userId: new Types.ObjectId(id),
        ...base,
      }));
      await models.missed.insertMany(docs, { ordered: false, lean: true }).catch((err: unknown) => {
        // Another node recorded some already: the rest went in.
        if (!isDuplicateKeyError(err) && !(err as { writeErrors?: unknown }).writeErrors) throw err;
      });
      const now = Date.now();
      const due = away.map((id) => ({ id, every: recipients[id]!.emailNotifications }));
      await models.digests.bulkWrite(
        due.map(({ id, every }) => ({
          updateOne: {
            filter: { _id: new Types.ObjectId(id) },
            // Only when none is pending: the first missed message sets the time.
            update: { $setOnInsert: { dueAt: new Date(now + digestDelayMs(app.config, every)), every } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
      timer()?.wake(now + Math.min(...due.map(({ every }) => digestDelayMs(app.config, every))));
    },

    async converseRead(ctx: EventContext<'chat.converse.read'>): Promise<void> {
      if (!queue()) return;
      await models.missed.deleteMany({
        userId: ctx.params.userId,
        converseId: ctx.params.converseId,
        seq: { $lte: ctx.params.readSeq },
      });
    },

    async messageUpdated(ctx: EventContext<'chat.message.updated'>): Promise<void> {
      if (!queue()) return;
      const { message } = ctx.params;
      await models.missed.updateMany({ messageId: message.id }, { $set: { content: message.content } });
    },

    async messageDeleted(ctx: EventContext<'chat.message.deleted'>): Promise<void> {
      if (!queue()) return;
      await models.missed.deleteMany({ messageId: ctx.params.messageId });
    },
  };
}
