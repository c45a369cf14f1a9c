import type { Model } from 'mongoose';
import type { BotDoc, CommandDoc, IntegrationModels, OutgoingHookDoc } from '../models.ts';

/** The query methods of a collection: what a handler may call on one the store owns. */
export type Reads<T> = Pick<Model<T>, 'find' | 'findOne' | 'findById' | 'exists' | 'countDocuments'>;

/**
 * The collections as handlers see them: outgoing hooks, commands and bots are
 * read-only here (each node's directory is derived from them, so their writes
 * are the store's alone); the rest are plain models.
 */
export type HandlerModels = Omit<IntegrationModels, 'outgoing' | 'commands' | 'bots'> & {
  outgoing: Reads<OutgoingHookDoc>;
  commands: Reads<CommandDoc>;
  bots: Reads<BotDoc>;
};
