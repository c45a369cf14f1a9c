import type { ChatModels } from '../models.ts';
import { ConverseCounters } from './converse-counters.ts';
import { DmRecords, type DmOpenedListener } from './dm-records.ts';
import { MessageChanges } from './message-changes.ts';
import { MessageReads } from './message-reads.ts';
import type { MessageDraft, MessageWriter, WriteResult } from './message-writer.ts';
import type { RecentMessages } from './recent-messages.ts';

/**
 * The only way to messages, converse counters and DM records: handlers call these named
 * operations and never the models, so the version bump, the recent tail,
 * kept mentions and counters move inside the writes that need them (the
 * store-layer pattern: app code never touches the collection, the cache is
 * invalidated by the store's own Save and Delete).
 */
export class MessageStore {
  readonly read: MessageReads;
  readonly change: MessageChanges;
  readonly counters: ConverseCounters;
  readonly dms: DmRecords;
  readonly #writer: MessageWriter;

  constructor(models: ChatModels, recent: RecentMessages, writer: MessageWriter, dmIndex: DmOpenedListener) {
    this.counters = new ConverseCounters(models.converses);
    this.dms = new DmRecords(models.converses, dmIndex);
    this.read = new MessageReads(models.messages, recent);
    this.change = new MessageChanges(models, recent, this.counters);
    this.#writer = writer;
  }

  /**
   * Stores a new message (group-committed with the sends of this turn; see
   * message-writer.ts: seq, kept mentions, the recent tail). One that
   * mentions many is noted on its converse by the send that stored it.
   */
  async append(draft: MessageDraft): Promise<WriteResult> {
    const written = await this.#writer.write(draft);
    if (written.created) await this.counters.noteManySeq(written.doc);
    return written;
  }
}
