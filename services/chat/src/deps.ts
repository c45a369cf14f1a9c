import type { AppContext, AuditLog } from '@im/sdk';
import type { ConverseAccessResolver } from './converses/access.ts';
import type { DmIndex } from './converses/dm-index.ts';
import type { ChatModels } from './models.ts';
import type { MessageStore } from './store/message-store.ts';
import type { Scheduling } from './schedule/schedule-actions.ts';
import type { ThreadReplies } from './threads/thread-replies.ts';
import type { PollVoters } from './polls/poll-voters.ts';

/** What handlers may query directly: everything but the store's collections. */
export type CollectionsBesideMessages = Omit<ChatModels, 'messages' | 'converses'>;

export interface ChatDeps {
  app: AppContext;
  /** The collections beside messages (reads, reactions, follows, votes, saved); messages and converses are the store's alone. */
  models: CollectionsBesideMessages;
  /** Every read and write of messages and converse counters. */
  store: MessageStore;
  access: ConverseAccessResolver;
  audit: AuditLog;
  threads: ThreadReplies;
  /** Each user's DM ids, for the rooms of a connect. */
  dmIndex: DmIndex;
  /** Scheduled messages and reminders: the stored schedule and what sends it. */
  scheduling: Scheduling;
  /** Whose vote is whose in polls (keyed hashes for anonymous ones). */
  voters: PollVoters;
}
