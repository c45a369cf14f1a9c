import type { Message, Reminder, ReminderEntry, ScheduledAccepted, ScheduledEntry } from '@im/protocol';
import { callerId, conflict, invalid, notFound, type ActionParams, type Ctx, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import { refuseUnableToPost } from '../converses/access.ts';
import { refuseBlockedDmSend } from '../converses/blocked-dm.ts';
import type { ChatDeps } from '../deps.ts';
import type { DueTimer } from './due-timer.ts';
import { LEASE_MS, type DueWork } from './due-work.ts';
import type { ReminderDoc, ScheduleModels, ScheduledDoc } from './schedule-models.ts';
import { scheduleParams } from './schedule-params.ts';
import { futureTime, MAX_PENDING, tooManyPending } from './schedule-time.ts';
import { toReminder, toScheduled } from './schedule-views.ts';

/** The stored schedule of the chat service, what runs it, and the timer that wakes it. */
export interface Scheduling {
  models: ScheduleModels;
  work: DueWork;
  timer: DueTimer;
}

const beingSent = () => conflict('This message is being sent right now');
/** Characters of a reminded message shown in the list of reminders. */
const PREVIEW_CHARS = 140;

/**
 * `POST /api/converses/:id/messages {..., sendAt}`: stored to be sent by the
 * author at `sendAt` (checked now, and again then). People only: a bot or an
 * incoming webhook posts when it posts.
 */
export async function scheduleLater(
  { access, store, threads, scheduling }: ChatDeps,
  ctx: Ctx<ActionParams<'chat.send'>>,
): Promise<ScheduledAccepted> {
  const userId = callerId(ctx);
  const { converseId, content, replyTo, threadId, attachments = [], username, sendAt = '' } = ctx.params;
  if (ctx.meta.user?.botGroupId !== undefined || username !== undefined)
    throw invalid("'sendAt' is for people's own sends", [
      { field: 'sendAt', type: 'forbidden', message: "'sendAt' is for people's own sends, not bots" },
    ]);
  const at = futureTime('sendAt', sendAt);
  const converse = await access.require(ctx, converseId, userId);
  refuseUnableToPost(converse);
  await refuseBlockedDmSend(ctx, converse, userId);
  if (replyTo && !(await store.read.existsIn(converseId, replyTo, { live: true })))
    throw notFound('message', "'replyTo' names no live message of this converse");
  if (threadId) await threads.requireRoot(converseId, threadId);
  if ((await scheduling.models.scheduled.countDocuments({ userId, status: 'pending' })) >= MAX_PENDING)
    throw tooManyPending('scheduled messages');
  const fileIds = [...new Set(attachments)];
  const doc = (
    await scheduling.models.scheduled.create({
      userId: new Types.ObjectId(userId),
      converseId: new Types.ObjectId(converseId),
      sendAt: at,
      content,
      ...(fileIds.length > 0 ? { attachments: fileIds.map((id) => new Types.ObjectId(id)) } : {}),
      ...(replyTo ? { replyTo: new Types.ObjectId(replyTo) } : {}),
      ...(threadId ? { threadId: new Types.ObjectId(threadId) } : {}),
    })
  ).toObject<ScheduledDoc>();
  scheduling.timer.wake(at);
  scheduling.work.tell(doc);
  // The contract's shape: the status fields are for the list and the events.
  const { status: _status, failure: _failure, messageId: _messageId, ...scheduled } = toScheduled(doc);
  return { scheduled };
}

/** My scheduled messages and reminders: list, change, cancel, send now. */
export const scheduleActions = ({ access, store, scheduling }: ChatDeps) => {
  const { scheduled, reminders } = scheduling.models;

  /** My scheduled message, not being sent right now: 404 if not mine, 409 while a node sends it. */
  const mine = async (userId: string, id: string): Promise<ScheduledDoc> => {
    const doc = await scheduled.findOne({ _id: id, userId, status: { $ne: 'sent' } }).lean<ScheduledDoc>();
    if (!doc) throw notFound('scheduled message');
    if (doc.status === 'pending' && doc.leaseUntil && doc.leaseUntil > new Date()) throw beingSent();
    return doc;
  };
  /** The filter that changes `doc` only as it was read (not claimed or changed since). */
  const unchanged = (doc: ScheduledDoc) => ({
    _id: doc._id,
    status: doc.status,
    v: doc.v,
    leaseUntil: { $lte: new Date() },
  });

  return {
    listScheduled: {
      params: scheduleParams.listScheduled,
      async handler(ctx: Ctx): Promise<ScheduledEntry[]> {
        const docs = await scheduled
          .find({ userId: callerId(ctx), status: { $in: ['pending', 'failed'] } })
          .sort({ sendAt: 1 })
          .limit(MAX_PENDING * 2)
          .lean<ScheduledDoc[]>();
        return docs.map(toScheduled);
      },
    },

    /** New text and/or time; a new time puts a failed one back in the schedule. */
    updateScheduled: {
      params: scheduleParams.updateScheduled,
      async handler(ctx: Ctx<Params<typeof scheduleParams.updateScheduled>>): Promise<ScheduledEntry> {
        const userId = callerId(ctx);
        const { content, sendAt } = ctx.params;
        const at = sendAt === undefined ? undefined : futureTime('sendAt', sendAt);
        const doc = await mine(userId, ctx.params.scheduledId);
        const set: Partial<ScheduledDoc> = {
          ...(content !== undefined ? { content } : {}),
          ...(at ? { sendAt: at, status: 'pending' as const, leaseUntil: new Date(0) } : {}),
        };
        const updated = await scheduled
          .findOneAndUpdate(
            unchanged(doc),
            { $set: set, $unset: at ? { failure: '' } : {}, $inc: { v: 1 } },
            { new: true },
          )
          .lean<ScheduledDoc>();
        if (!updated) throw beingSent();
        if (at) scheduling.timer.wake(at);
        scheduling.work.tell(updated);
        return toScheduled(updated);
      },
    },

    cancelScheduled: {
      params: scheduleParams.cancelScheduled,
      async handler(ctx: Ctx<Params<typeof scheduleParams.cancelScheduled>>): Promise<void> {
        const doc = await mine(callerId(ctx), ctx.params.scheduledId);
        const removed = await scheduled.findOneAndDelete(unchanged(doc)).lean<ScheduledDoc>();
        if (!removed) throw beingSent();
        scheduling.work.tell(removed, true);
      },
    },

    /** Sends it at once (a failed one is tried again): the message, or a 4xx saying why not. */
    sendScheduledNow: {
      params: scheduleParams.sendScheduledNow,
      async handler(ctx: Ctx<Params<typeof scheduleParams.sendScheduledNow>>): Promise<Message> {
        const doc = await mine(callerId(ctx), ctx.params.scheduledId);
        const claimed = await scheduled
          .findOneAndUpdate(
            unchanged(doc),
            { $set: { status: 'pending', leaseUntil: new Date(Date.now() + LEASE_MS) }, $unset: { failure: '' } },
            { new: true },
          )
          .lean<ScheduledDoc>();
        if (!claimed) throw beingSent();
        const { message, failure } = await scheduling.work.sendClaimed(claimed);
        if (failure) throw conflict(`Not sent: ${failure}`);
        if (!message) throw conflict('It ran as a command: nothing was stored');
        return message;
      },
    },

    /** A reminder of a message I can read; 404 otherwise. */
    remind: {
      params: scheduleParams.remind,
      async handler(ctx: Ctx<Params<typeof scheduleParams.remind>>): Promise<Reminder> {
        const userId = callerId(ctx);
        const at = futureTime('at', ctx.params.at);
        const { doc } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        if (doc.deleted) throw notFound('message');
        if ((await reminders.countDocuments({ userId, status: 'pending' })) >= MAX_PENDING)
          throw tooManyPending('reminders');
        const reminder = (
          await reminders.create({
            userId: new Types.ObjectId(userId),
            converseId: doc.converseId,
            messageId: doc._id,
            at,
          })
        ).toObject<ReminderDoc>();
        scheduling.timer.wake(at);
        return toReminder(reminder);
      },
    },

    /** My reminders still to come, soonest first, of messages I can still read. */
    listReminders: {
      params: scheduleParams.listReminders,
      async handler(ctx: Ctx): Promise<ReminderEntry[]> {
        const userId = callerId(ctx);
        const docs = await reminders.find({ userId, status: 'pending' }).sort({ at: 1 }).lean<ReminderDoc[]>();
        const messages = await store.read.byIds(
          docs.map((d) => d.messageId),
          { live: true, projection: { content: 1, converseId: 1 } },
        );
        const byId = new Map(messages.map((m) => [m._id.toHexString(), m]));
        const converseIds = [...new Set(messages.map((m) => m.converseId.toHexString()))];
        const readable = await Promise.all(converseIds.map((id) => access.resolve(ctx, id, userId)));
        const canRead = new Set(converseIds.filter((_, i) => readable[i] !== null));
        return docs.flatMap((d) => {
          const message = byId.get(d.messageId.toHexString());
          if (!message || !canRead.has(message.converseId.toHexString())) return [];
          return [{ ...toReminder(d), preview: [...message.content].slice(0, PREVIEW_CHARS).join('') }];
        });
      },
    },

    cancelReminder: {
      params: scheduleParams.cancelReminder,
      async handler(ctx: Ctx<Params<typeof scheduleParams.cancelReminder>>): Promise<void> {
        const gone = await reminders.deleteOne({
          _id: ctx.params.reminderId,
          userId: callerId(ctx),
          status: 'pending',
        });
        if (gone.deletedCount === 0) throw notFound('reminder');
      },
    },
  };
};
