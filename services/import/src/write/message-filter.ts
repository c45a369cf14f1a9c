import type { SourceMessage } from '../source/types.ts';

/**
 * Whether a message is written at all. Both passes ask it, so the first
 * numbers exactly what the second writes (a number given to a message that is
 * then left out would be a gap in its converse).
 */
export function skipReason(message: SourceMessage, channelKeys: ReadonlySet<string>): string | undefined {
  if (!channelKeys.has(message.channelKey))
    return 'message in a channel the export does not list (or a DM with one person)';
  if (message.text.trim() === '' && message.files.length === 0) return 'empty message';
  if (Number.isNaN(message.createdAt.getTime())) return 'message without a valid time';
  return undefined;
}
