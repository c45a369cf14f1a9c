import type { ConverseAccess } from '@im/protocol';
import { announce, EVENTS } from '@im/sdk';
import type { ChatDeps, Ctx } from '../deps.ts';
import { messageViews } from './message-views.ts';
import type { MessageDoc } from '../models.ts';
import { audience, toMessage } from './views.ts';

/** How an action that changed a stored message (a pin, a vote) answers and tells the converse. */
export const messageChange = ({ models, recent, voters }: Pick<ChatDeps, 'models' | 'recent' | 'voters'>) => {
  /** The message as the caller sees it (their reactions' `me`, their votes). */
  const viewOf = async (doc: MessageDoc, userId: string) => (await messageViews(models, [doc], userId, voters))[0]!;

  /** Kept in the recent cache, told to the converse as everyone sees it (no one's votes); the caller gets their view. */
  const changed = async (ctx: Ctx<object>, doc: MessageDoc, converse: ConverseAccess, userId: string) => {
    await recent.changed(doc);
    announce(ctx, EVENTS.messageUpdated, { message: toMessage(doc), ...audience(converse) });
    return viewOf(doc, userId);
  };

  return { viewOf, changed };
};
