import type { MissingThing } from '@im/sdk';
import type { QueryOptions, RootFilterQuery, UpdateQuery } from 'mongoose';
import { withNewSecret } from '../access.ts';
import type { IntegrationDirectory } from '../directory.ts';
import type { BotDoc, CommandDoc, IntegrationModels, OutgoingHookDoc } from '../models.ts';

/**
 * Every write of outgoing hooks, commands and bots: this node's directory is
 * derived from them, so each write here drops the group's entry before it
 * returns (the next message must not reach what was just turned off). The
 * other nodes drop theirs on `integration.changed`, which the callers announce.
 */
export class IntegrationStore {
  readonly #models: IntegrationModels;
  readonly #directory: IntegrationDirectory;

  constructor(models: IntegrationModels, directory: IntegrationDirectory) {
    this.#models = models;
    this.#directory = directory;
  }

  /** Another node changed the group's integrations (`integration.changed`). */
  changedElsewhere(groupId: string): void {
    this.#directory.forget(groupId);
  }

  async insertOutgoing(doc: OutgoingHookDoc): Promise<void> {
    await this.#models.outgoing.collection.insertOne(doc);
    this.#directory.forget(doc.groupId.toHexString());
  }

  async insertCommand(doc: CommandDoc): Promise<void> {
    await this.#models.commands.collection.insertOne(doc);
    this.#directory.forget(doc.groupId.toHexString());
  }

  async insertBot(doc: BotDoc): Promise<void> {
    await this.#models.bots.create(doc);
    this.#directory.forget(doc.groupId.toHexString());
  }

  /** One hook of the group's `findOneAndUpdate` (the document before, or after with `new`). */
  async updateOutgoing(
    groupId: string,
    filter: RootFilterQuery<OutgoingHookDoc>,
    update: UpdateQuery<OutgoingHookDoc>,
    options: Pick<QueryOptions, 'new'> = {},
  ): Promise<OutgoingHookDoc | null> {
    const doc = await this.#models.outgoing
      .findOneAndUpdate({ ...filter, groupId }, update, options)
      .lean<OutgoingHookDoc>();
    if (doc) this.#directory.forget(groupId);
    return doc;
  }

  /** One hook's `updateOne` (its failure clock, its disabling), answering what matched and what changed. */
  async updateOutgoingOnce(
    groupId: string,
    filter: RootFilterQuery<OutgoingHookDoc>,
    update: UpdateQuery<OutgoingHookDoc>,
  ): Promise<{ matchedCount: number; modifiedCount: number }> {
    const { matchedCount, modifiedCount } = await this.#models.outgoing.updateOne({ ...filter, groupId }, update);
    if (modifiedCount > 0) this.#directory.forget(groupId);
    return { matchedCount, modifiedCount };
  }

  /** The same change to every matching hook and command of the group; how many changed. */
  async updateHooksAndCommands(
    groupId: string,
    filter: RootFilterQuery<OutgoingHookDoc & CommandDoc>,
    update: UpdateQuery<OutgoingHookDoc & CommandDoc>,
  ): Promise<number> {
    const [outgoing, commands] = await Promise.all([
      this.#models.outgoing.updateMany({ ...filter, groupId }, update),
      this.#models.commands.updateMany({ ...filter, groupId }, update),
    ]);
    const modified = outgoing.modifiedCount + commands.modifiedCount;
    if (modified > 0) this.#directory.forget(groupId);
    return modified;
  }

  async renewOutgoingSecret(groupId: string, id: string, what: MissingThing, by: string): Promise<OutgoingHookDoc> {
    const doc = await withNewSecret(this.#models.outgoing, groupId, id, what, by);
    this.#directory.forget(groupId);
    return doc;
  }

  async renewCommandSecret(groupId: string, id: string, what: MissingThing, by: string): Promise<CommandDoc> {
    const doc = await withNewSecret(this.#models.commands, groupId, id, what, by);
    this.#directory.forget(groupId);
    return doc;
  }

  async deleteOutgoing(groupId: string, id: OutgoingHookDoc['_id']): Promise<void> {
    await this.#models.outgoing.deleteOne({ _id: id, groupId });
    this.#directory.forget(groupId);
  }

  async deleteCommand(groupId: string, id: string): Promise<CommandDoc | null> {
    const doc = await this.#models.commands.findOneAndDelete({ _id: id, groupId }).lean<CommandDoc>();
    if (doc) this.#directory.forget(groupId);
    return doc;
  }

  async deleteBot(groupId: string, botId: string): Promise<void> {
    await this.#models.bots.deleteOne({ _id: botId, groupId });
    this.#directory.forget(groupId);
  }

  /** A deleted group's hooks, commands and bots. */
  async deleteGroup(groupId: string): Promise<void> {
    await Promise.all([
      this.#models.outgoing.deleteMany({ groupId }),
      this.#models.commands.deleteMany({ groupId }),
      this.#models.bots.deleteMany({ groupId }),
    ]);
    this.#directory.forget(groupId);
  }
}
