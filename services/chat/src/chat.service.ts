import { callRecordActions } from './messages/call-records.ts';
import { Histogram } from 'prom-client';
import {
  AuditLog,
  createSetIndexStore,
  EVENTS,
  type AppContext,
  type ServiceEvents,
  type ServiceFactory,
  defineActions,
} from '@im/sdk';
import { ConverseAccessResolver } from './converses/access.ts';
import { converseActions } from './converses/converse-actions.ts';
import { searchActions } from './search/search-actions.ts';
import { DmIndex } from './converses/dm-index.ts';
import { forwardActions } from './messages/forward-actions.ts';
import { importAdoptionActions } from './converses/import-adoption.ts';
import { messageActions } from './messages/message-actions.ts';
import { readReceipts } from './converses/read-receipts.ts';
import { previewActions } from './previews/preview-actions.ts';
import { MessageWriter } from './store/message-writer.ts';
import { backfillMentionSeqs } from './store/mention-seqs.ts';
import { chatModels } from './models.ts';
import { RecentMessages } from './store/recent-messages.ts';
import { MessageStore } from './store/message-store.ts';
import { dmSource } from './store/dm-records.ts';
import { fillSpentSeqs } from './store/seq-repair.ts';
import { pinActions } from './pins/pin-actions.ts';
import { markUnreadActions } from './converses/mark-unread.ts';
import { PollVoters } from './polls/poll-voters.ts';
import { pollActions } from './polls/poll-actions.ts';
import { savedActions } from './personal/saved-actions.ts';
import { submessageActions } from './personal/submessage-actions.ts';
import { threadActions } from './threads/thread-actions.ts';
import { DueTimer } from './schedule/due-timer.ts';
import { dueWork, type DueBroker } from './schedule/due-work.ts';
import { scheduleActions } from './schedule/schedule-actions.ts';
import { scheduleModels } from './schedule/schedule-models.ts';
import { ThreadReplies } from './threads/thread-replies.ts';

/** Converses (group panels and DMs) and their messages, reactions and read positions. */
export const createChatService: ServiceFactory = (app: AppContext) => {
  const models = chatModels(app.mongo!);
  // How well group commit coalesces: messages per batch written.
  const batchSize = new Histogram({
    name: 'im_chat_write_batch_size',
    help: 'Messages written per insertMany batch',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500],
    registers: [app.metrics],
  });
  const recent = new RecentMessages(models, app.config.chatRecentMessages, { maxBytes: app.config.chatRecentBytes });
  const writer = new MessageWriter(
    models,
    {
      windowMs: app.config.chatWriteWindowMs,
      maxBatch: app.config.chatWriteMaxBatch,
      onBatch: (written) => batchSize.observe(written),
      ...(app.tracing ? { keepSendContext: true } : {}),
    },
    app.logger,
    recent,
  );
  const dmIndex = new DmIndex(createSetIndexStore(app, 'dms'), dmSource(models), app.logger);
  const store = new MessageStore(models, recent, writer, dmIndex);
  const schedule = scheduleModels(app.mongo!);
  let broker: DueBroker | undefined;
  const work = dueWork(store.read, schedule, () => broker!, app.logger, app.config.schedulePollMs);
  const timer = new DueTimer(app.config.schedulePollMs, () => work.runDue(), app.logger);
  const deps = {
    app,
    models,
    store,
    access: new ConverseAccessResolver(store),
    audit: new AuditLog(app.mongo!),
    threads: new ThreadReplies(models, store, app.logger),
    dmIndex,
    scheduling: { models: schedule, work, timer },
    voters: new PollVoters(app.config.secret, models.pollVotes),
  };
  let repairTimer: NodeJS.Timeout | undefined;
  let stopDmRebuild = () => {};
  return {
    name: 'chat',
    async started() {
      await Promise.all([...Object.values(models), ...Object.values(schedule)].map((m) => m.createIndexes()));
      await backfillMentionSeqs(models, app.logger);
      stopDmRebuild = await dmIndex.rebuild();
      // Due scheduled messages and reminders, kept across restarts: sent by whichever chat node claims each.
      broker = this.broker;
      timer.start();
      const { chatWriteMaxBatch: maxBatch, chatSeqRepairSec } = app.config;
      const repair = (reservedBefore: Date, since?: Date) =>
        fillSpentSeqs(
          models,
          { reservedBefore, since },
          app.logger,
          maxBatch,
          app.config.transporter ? 'range' : 'tail',
        );
      if (!app.config.transporter) {
        // Alone, nothing else writes: anything reserved before now belonged to a process that is gone.
        await repair(new Date()).catch((err: unknown) =>
          app.logger.error({ err }, 'could not check for lost sequence numbers'),
        );
      } else {
        // A chat node's host may die for good: the others fill what it reserved and never wrote, once
        // CHAT_SEQ_REPAIR_SEC has passed (a live batch lands in milliseconds). Each check looks at
        // the converses written to since the one before; the first at all recent ones.
        const graceMs = chatSeqRepairSec * 1000;
        let since: Date | undefined;
        const check = async () => {
          const cutoff = new Date(Date.now() - graceMs);
          try {
            await repair(cutoff, since);
            since = new Date(cutoff.getTime() - graceMs);
          } catch (err) {
            app.logger.error({ err }, 'could not check for lost sequence numbers');
          }
          repairTimer = setTimeout(() => void check(), graceMs).unref();
        };
        repairTimer = setTimeout(() => void check(), graceMs).unref();
      }
    },
    async stopped() {
      clearTimeout(repairTimer);
      timer.stop();
      stopDmRebuild();
      await writer.drain();
    },
    actions: defineActions('chat', {
      ...messageActions(deps),
      ...forwardActions(deps),
      ...converseActions(deps),
      ...searchActions(deps),
      ...threadActions(deps),
      ...importAdoptionActions(deps),
      ...markUnreadActions(deps),
      ...pinActions(deps),
      ...readReceipts(deps).actions,
      ...previewActions(deps),
      ...callRecordActions(deps),
      ...scheduleActions(deps),
      ...pollActions(deps),
      ...submessageActions(deps),
      ...savedActions(deps),
    }),
    events: {
      // A deleted or deactivated account sends nothing later and is reminded of nothing.
      [EVENTS.userDeactivated]: async (ctx) => {
        await Promise.all([
          schedule.scheduled.deleteMany({ userId: ctx.params.userId }),
          schedule.reminders.deleteMany({ userId: ctx.params.userId }),
        ]);
      },
    } satisfies ServiceEvents,
  };
};
