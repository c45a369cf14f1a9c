import { announce, EVENTS, notFound, type ActionParams, type ActionResult, type Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatDeps } from '../deps.ts';
import { chatParams } from '../params.ts';
import { createdAudience, toMessage } from './views.ts';

/** The text a call record carries for readers that do not draw its card (search, push, feeds). */
export function callRecordText(outcome: 'missed' | 'declined' | 'ended', durationSec: number): string {
  if (outcome === 'missed') return 'Missed call';
  if (outcome === 'declined') return 'Call declined';
  const minutes = Math.floor(durationSec / 60);
  const seconds = durationSec % 60;
  return `Call ended after ${minutes > 0 ? `${minutes} min ` : ''}${seconds} s`;
}

/**
 * For the call service: writes the message that records a DM call once it
 * ended, under the caller's name, through the same writer as every send (one
 * seq, the newest-messages cache, the created event). `key` makes it
 * idempotent: LiveKit retries a webhook whose answer did not arrive.
 */
export const callRecordActions = ({ store, access }: ChatDeps) => ({
  postCallRecord: {
    visibility: 'public' as const,
    params: chatParams.postCallRecord,
    async handler(ctx: Ctx<ActionParams<'chat.postCallRecord'>>): Promise<ActionResult<'chat.postCallRecord'>> {
      const { converseId, authorId, outcome, durationSec, key } = ctx.params;
      const converse = await access.resolve(ctx, converseId, authorId);
      if (converse?.kind !== 'dm') throw notFound('DM');
      const { doc, created } = await store.append({
        converseId: new Types.ObjectId(converseId),
        authorId: new Types.ObjectId(authorId),
        content: callRecordText(outcome, durationSec),
        mentions: [],
        attachments: [],
        dedupeKey: `call:${key}`,
        call: { outcome, durationSec },
      });
      const message = toMessage(doc);
      if (created) announce(ctx, EVENTS.messageCreated, { message, ...createdAudience(converse) });
      return message;
    },
  },
});
