import { Types } from 'mongoose';
import type { MessageDoc } from '../models.ts';

/** What is left of a deleted message: nothing but its place (a fresh object each time: callers may keep it). */
export const emptied = () =>
  ({ deleted: true, content: '', mentions: [], attachments: [], reactionCounts: {} }) satisfies Partial<MessageDoc>;

/**
 * The document that holds a sequence number whose message is gone or was
 * never written: deleted, empty, in its converse at its seq, by its author.
 */
export function tombstone(at: Pick<MessageDoc, 'converseId' | 'seq' | 'authorId' | 'createdAt'>): MessageDoc {
  return {
    _id: new Types.ObjectId(),
    converseId: at.converseId,
    seq: at.seq,
    authorId: at.authorId,
    createdAt: at.createdAt,
    ...emptied(),
  };
}
