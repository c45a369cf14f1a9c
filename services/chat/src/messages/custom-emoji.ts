import type { ConverseAccess } from '@im/protocol';
import { call, invalid } from '@im/sdk';
import type { Context } from 'moleculer';
import { CUSTOM_EMOJI } from '../params.ts';

/**
 * A `:name:` reaction must name one of the group's custom emoji (a DM has
 * none); Unicode emoji pass as they are. 400 otherwise, before anything is written.
 */
export async function refuseUnknownCustomEmoji(ctx: Context, converse: ConverseAccess, emoji: string): Promise<void> {
  const name = CUSTOM_EMOJI.exec(emoji)?.[1];
  if (name === undefined) return;
  const known =
    converse.kind === 'group' && (await call(ctx, 'group.emojiExists', { groupId: converse.groupId, name }));
  if (!known)
    throw invalid(`:${name}: is not an emoji of this group`, [
      { field: 'emoji', type: 'customEmoji', message: `:${name}: is not an emoji of this group` },
    ]);
}
