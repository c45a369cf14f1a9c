import type { AppContext, AuditLog, CallerMeta } from '@im/sdk';
import type { Context } from 'moleculer';
import type { ConverseAccessResolver } from './converses/access.ts';
import type { DmIndex } from './converses/dm-index.ts';
import type { MessageWriter } from './store/message-writer.ts';
import type { ChatModels } from './models.ts';
import type { RecentMessages } from './store/recent-messages.ts';
import type { Scheduling } from './schedule/schedule-actions.ts';
import type { ThreadReplies } from './threads/thread-replies.ts';
import type { PollVoters } from './polls/poll-voters.ts';

export interface ChatDeps {
  app: AppContext;
  models: ChatModels;
  writer: MessageWriter;
  access: ConverseAccessResolver;
  audit: AuditLog;
  recent: RecentMessages;
  threads: ThreadReplies;
  /** Each user's DM ids, for the rooms of a connect. */
  dmIndex: DmIndex;
  /** Scheduled messages and reminders: the stored schedule and what sends it. */
  scheduling: Scheduling;
  /** Whose vote is whose in polls (keyed hashes for anonymous ones). */
  voters: PollVoters;
}

export type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;
