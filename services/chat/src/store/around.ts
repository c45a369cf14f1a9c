import { invalid } from '@im/sdk';
import type { Model } from 'mongoose';
import type { MessageDoc } from '../models.ts';

/** `around` names its own page: mixing it with before/after would leave the page undefined. */
export const refuseMixedAround = (params: { around?: number; before?: number; after?: number }) => {
  if (params.around === undefined || (params.before === undefined && params.after === undefined)) return;
  const field = params.before !== undefined ? 'before' : 'after';
  const message = "'around' cannot be combined with 'before' or 'after'";
  throw invalid(message, [{ field, type: 'forbidden', message }]);
};

/**
 * The `limit` messages centred on seq `around`, ascending: half at or below
 * it, the rest above. Near either end the other side makes up the page, so
 * it stays full while the converse has enough. Two range reads (by the
 * converse/seq index), each bounded by `limit`.
 */
export const pageAround = async (
  messages: Model<MessageDoc>,
  converseId: string,
  around: number,
  limit: number,
): Promise<MessageDoc[]> => {
  const [below, above] = await Promise.all([
    messages
      .find({ converseId, seq: { $lte: around } })
      .sort({ seq: -1 })
      .limit(limit)
      .lean<MessageDoc[]>(),
    messages
      .find({ converseId, seq: { $gt: around } })
      .sort({ seq: 1 })
      .limit(limit)
      .lean<MessageDoc[]>(),
  ]);
  const wantBelow = Math.ceil(limit / 2);
  const takeAbove = Math.min(above.length, Math.max(limit - wantBelow, limit - below.length));
  const takeBelow = Math.min(below.length, limit - takeAbove);
  return [...below.slice(0, takeBelow).reverse(), ...above.slice(0, takeAbove)];
};
