import type { ConverseAccess, Message, ScheduledUpdatedEvent } from '@im/protocol';
import { announce, call, EVENTS, type ActionCaller, type Logger } from '@im/sdk';
import { Types, type Model } from 'mongoose';
import type { MessageReads } from '../store/message-reads.ts';
import type { ReminderDoc, ScheduleModels, ScheduledDoc } from './schedule-models.ts';
import { toScheduled } from './schedule-views.ts';

/** How long a node holds an item it claimed; one that dies holding it lets another take it after this. */
export const LEASE_MS = 30_000;

/** What the due work needs of its node: calls, and events. */
export type DueBroker = ActionCaller & { broadcast(event: string, payload?: unknown): unknown };

/** The idempotency key of a scheduled message's send: a second send of it answers the stored message. */
export const scheduledClientMsgId = (id: Types.ObjectId | string) => `scheduled-${String(id)}`;

/**
 * An error the send answered that will not change by waiting (a 4xx but
 * 429): the item fails. Anything else (a node or service away) is retried.
 */
const isFinal = (err: unknown) => {
  const status = (err as { code?: unknown }).code;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429;
};

/** Why a scheduled message could not be sent, as its author reads it. */
function failureOf(err: unknown): string {
  const { type, message } = err as { type?: string; message?: string };
  if (type === 'IM_ERR_NOT_FOUND') {
    // The send names the field that is gone (see chat.send).
    if (message?.includes("'replyTo'")) return 'The message it replies to is gone';
    if (message?.includes("'threadId'")) return 'The thread it answers is gone';
    return 'You can no longer write here (you left, or the conversation was deleted)';
  }
  return message ?? 'It could not be sent';
}

export interface DueWork {
  /** Claims and handles what is due now; answers the earliest pending time after that. */
  runDue(): Promise<Date | null>;
  /** Sends one scheduled message the caller claimed (`send now`, or when due); answers what it became. */
  sendClaimed(doc: ScheduledDoc): Promise<{ message?: Message; failure?: string }>;
  /** Tells the author's devices that a scheduled message changed. */
  tell(doc: ScheduledDoc, removed?: boolean): void;
}

export function dueWork(
  messages: MessageReads,
  schedule: ScheduleModels,
  broker: () => DueBroker,
  logger: Pick<Logger, 'warn'>,
  pollMs: number,
): DueWork {
  /** One due item, leased to this node; null when none is due. */
  const claim = <T extends { _id: Types.ObjectId }>(model: Model<T>, timeField: 'sendAt' | 'at') => {
    const now = new Date();
    return model
      .findOneAndUpdate(
        { status: 'pending', [timeField]: { $lte: now }, leaseUntil: { $lte: now } },
        { $set: { leaseUntil: new Date(now.getTime() + LEASE_MS) } },
        { sort: { [timeField]: 1 }, new: true },
      )
      .lean<T>();
  };

  /** A passing failure: try again at the next poll rather than when the lease ends. */
  const retrySoon = <T>(model: Model<T>, id: Types.ObjectId) =>
    model.updateOne({ _id: id, status: 'pending' }, { $set: { leaseUntil: new Date(Date.now() + pollMs) } });

  const tell = (doc: ScheduledDoc, removed?: boolean) => {
    const event: ScheduledUpdatedEvent = { scheduled: toScheduled(doc), ...(removed ? { removed: true } : {}) };
    announce(broker(), EVENTS.scheduledUpdated, { userId: doc.userId.toHexString(), ...event });
  };

  /** Marks a claimed item done (sent or failed) and tells its author. */
  const settle = async (doc: ScheduledDoc, set: Partial<ScheduledDoc>) => {
    const settled = await schedule.scheduled
      .findOneAndUpdate({ _id: doc._id }, { $set: { ...set, leaseUntil: new Date(0) } }, { new: true })
      .lean<ScheduledDoc>();
    if (settled) tell(settled);
  };

  const sendClaimed = async (doc: ScheduledDoc): Promise<{ message?: Message; failure?: string }> => {
    // A reply whose message was deleted since would answer a tombstone: not sent.
    if (doc.replyTo) {
      const replied = await messages.byId(doc.replyTo, { deleted: 1 });
      if (!replied || replied.deleted) {
        const failure = 'The message it replies to is gone';
        await settle(doc, { status: 'failed', failure });
        return { failure };
      }
    }
    try {
      // The author's own send, checked again now (still a member, not muted, may post there).
      const sent = await call(
        broker(),
        'chat.send',
        {
          converseId: doc.converseId.toHexString(),
          content: doc.content,
          clientMsgId: scheduledClientMsgId(doc._id),
          ...(doc.replyTo ? { replyTo: doc.replyTo.toHexString() } : {}),
          ...(doc.threadId ? { threadId: doc.threadId.toHexString() } : {}),
          ...(doc.attachments?.length ? { attachments: doc.attachments.map((id) => id.toHexString()) } : {}),
        },
        { meta: { user: { id: doc.userId.toHexString() } } },
      );
      const message = 'id' in sent ? sent : undefined;
      await settle(doc, { status: 'sent', ...(message ? { messageId: new Types.ObjectId(message.id) } : {}) });
      return message ? { message } : {};
    } catch (err) {
      if (!isFinal(err)) {
        logger.warn({ err, scheduledId: doc._id.toHexString() }, 'scheduled message not sent yet, retrying');
        await retrySoon(schedule.scheduled, doc._id);
        throw err;
      }
      const failure = failureOf(err);
      await settle(doc, { status: 'failed', failure });
      return { failure };
    }
  };

  /** Delivers a due reminder if its owner can still read the message; either way it is done. */
  const remind = async (doc: ReminderDoc) => {
    const userId = doc.userId.toHexString();
    const message = await messages.byId(doc.messageId);
    let access: ConverseAccess | null = null;
    if (message && !message.deleted)
      access = await call(broker(), 'chat.access', { converseId: doc.converseId.toHexString(), userId });
    if (message && access) {
      await call(broker(), 'push.remind', {
        reminderId: doc._id.toHexString(),
        userId,
        converseId: doc.converseId.toHexString(),
        messageId: doc.messageId.toHexString(),
        seq: message.seq,
        authorId: message.authorId.toHexString(),
        content: message.content,
      });
    }
    await schedule.reminders.updateOne(
      { _id: doc._id },
      { $set: { status: message && access ? 'sent' : 'failed', leaseUntil: new Date(0) } },
    );
  };

  /** The earliest time something pending falls due (leased items count from their lease's end). */
  const nextDue = async (): Promise<Date | null> => {
    const [scheduled, reminder] = await Promise.all([
      schedule.scheduled.findOne({ status: 'pending' }, { sendAt: 1, leaseUntil: 1 }).sort({ sendAt: 1 }).lean(),
      schedule.reminders.findOne({ status: 'pending' }, { at: 1, leaseUntil: 1 }).sort({ at: 1 }).lean(),
    ]);
    const times = [
      scheduled && Math.max(scheduled.sendAt.getTime(), scheduled.leaseUntil?.getTime() ?? 0),
      reminder && Math.max(reminder.at.getTime(), reminder.leaseUntil?.getTime() ?? 0),
    ].filter((t): t is number => typeof t === 'number');
    return times.length > 0 ? new Date(Math.min(...times)) : null;
  };

  return {
    tell,
    sendClaimed,
    async runDue() {
      for (let doc = await claim(schedule.scheduled, 'sendAt'); doc; doc = await claim(schedule.scheduled, 'sendAt'))
        await sendClaimed(doc).catch(() => undefined);
      for (let doc = await claim(schedule.reminders, 'at'); doc; doc = await claim(schedule.reminders, 'at')) {
        const claimed = doc;
        await remind(claimed).catch(async (err: unknown) => {
          logger.warn({ err, reminderId: claimed._id.toHexString() }, 'reminder not delivered yet, retrying');
          await retrySoon(schedule.reminders, claimed._id);
        });
      }
      return nextDue();
    },
  };
}
