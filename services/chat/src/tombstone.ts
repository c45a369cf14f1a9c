import { Types } from 'mongoose';
import type { MessageDoc } from './models.ts';

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
    content: '',
    mentions: [],
    attachments: [],
    reactionCounts: {},
    deleted: true,
    createdAt: at.createdAt,
  };
}
