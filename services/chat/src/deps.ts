import type { AppContext, AuditLog, CallerMeta } from '@im/sdk';
import type { Context } from 'moleculer';
import type { ConverseAccessResolver } from './access.ts';
import type { DmIndex } from './dm-index.ts';
import type { MessageWriter } from './message-writer.ts';
import type { ChatModels } from './models.ts';
import type { RecentMessages } from './recent-messages.ts';
import type { Scheduling } from './schedule-actions.ts';
import type { ThreadReplies } from './thread-replies.ts';
import type { PollVoters } from './poll-voters.ts';

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
