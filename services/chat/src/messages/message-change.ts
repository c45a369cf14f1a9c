import type { ConverseAccess } from '@im/protocol';
import { announce, EVENTS, type Ctx } from '@im/sdk';
import type { ChatDeps } from '../deps.ts';
import { messageViews } from './message-views.ts';
import type { MessageDoc } from '../models.ts';
import { audience, toMessage } from './views.ts';

/** How an action that changed a stored message (a pin, a vote) answers and tells the converse. */
export const messageChange = ({ models, voters }: Pick<ChatDeps, 'models' | 'voters'>) => {
  /** The message as the caller sees it (their reactions' `me`, their votes). */
  const viewOf = async (doc: MessageDoc, userId: string) => (await messageViews(models, [doc], userId, voters))[0]!;

  /** Told to the converse as everyone sees it (no one's votes); the caller gets their view. */
  const announced = async (ctx: Ctx<object>, doc: MessageDoc, converse: ConverseAccess, userId: string) => {
    announce(ctx, EVENTS.messageUpdated, { message: toMessage(doc), ...audience(converse) });
    return viewOf(doc, userId);
  };

  return { viewOf, announced };
};
