import type { PushModels } from './models.ts';
import { levelsAmong } from './converse-levels.ts';

/**
 * Of `userIds`, those who hear nothing of `converseId`: level `none`, a
 * running mute, or mute-all. They get no push, no inbox entry and no
 * missed-message e-mail for it.
 */
export async function mutedAmong(
  models: Pick<PushModels, 'settings' | 'levels'>,
  converseId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  // The default is never `none`: which default applies does not matter here.
  const levels = await levelsAmong(models, converseId, userIds, 'mentions');
  return new Set([...levels].filter(([, level]) => level === 'none').map(([id]) => id));
}
