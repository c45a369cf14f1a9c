import { LRUCache } from 'lru-cache';
import { withOwnObjectIds } from '@im/sdk';
import type { CommandDoc, IntegrationModels, OutgoingHookDoc } from './models.ts';

/** What one group has set up, as the send path and the event handler read it. */
export interface GroupIntegrations {
  outgoing: OutgoingHookDoc[];
  commands: Map<string, CommandDoc>;
  /** Every bot of the group: their messages never go to outgoing hooks. */
  botIds: Set<string>;
}

/**
 * Each group's integrations, read from MongoDB once and kept in memory: a new
 * message asks for its group's on every send, and most groups have none.
 * Changes reach every node of the service as `integration.changed`, which
 * drops the group's entry.
 */
export class IntegrationDirectory {
  readonly #models: IntegrationModels;
  readonly #groups = new LRUCache<string, Promise<GroupIntegrations>>({ max: 20_000 });

  constructor(models: IntegrationModels) {
    this.#models = models;
  }

  forGroup(groupId: string): Promise<GroupIntegrations> {
    let entry = this.#groups.get(groupId);
    if (!entry) {
      entry = this.#load(groupId);
      this.#groups.set(groupId, entry);
      // A failed read is not kept: the next message tries again.
      entry.catch(() => this.#groups.get(groupId) === entry && this.#groups.delete(groupId));
    }
    return entry;
  }

  forget(groupId: string): void {
    this.#groups.delete(groupId);
  }

  async #load(groupId: string): Promise<GroupIntegrations> {
    const [outgoing, commands, bots] = await Promise.all([
      // A suspended hook gets nothing (waiting deliveries find no hook and end as failed).
      this.#models.outgoing.find({ groupId, suspendedAt: { $exists: false } }).lean<OutgoingHookDoc[]>(),
      this.#models.commands.find({ groupId }).lean<CommandDoc[]>(),
      this.#models.bots.find({ groupId }, { _id: 1 }).lean<Array<{ _id: { toHexString(): string } }>>(),
    ]);
    // Kept for as long as the group is: ids copied out of the driver's shared buffer slabs.
    return {
      outgoing: outgoing.map(withOwnObjectIds),
      commands: new Map(commands.map((c) => [c.trigger, withOwnObjectIds(c)])),
      botIds: new Set(bots.map((b) => b._id.toHexString())),
    };
  }
}
