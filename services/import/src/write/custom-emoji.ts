import type { ObjectStorage } from '@im/sdk';
import { CUSTOM_EMOJI_NAME_PATTERN } from '@im/protocol';
import type { Types } from 'mongoose';
import type { SkipCounter } from '../source/skip-counter.ts';
import type { ImportSource } from '../source/types.ts';
import type { ImportCollections } from './collections.ts';
import type { DerivedIds } from './ids.ts';
import type { PlannedGroup } from './plan.ts';
import { storeFile } from './stored-files.ts';

/** As many as a group may have (the group service's limit). */
const MAX_EMOJI_PER_GROUP = 200;
const NAME = new RegExp(CUSTOM_EMOJI_NAME_PATTERN);

/**
 * The export's custom emoji whose images it holds become the group's own
 * (`:name:`), so reactions and text that use them keep them; names the group
 * has already keep the group's image. Answers how many were added.
 */
export async function importCustomEmoji(
  c: ImportCollections,
  storage: ObjectStorage,
  ids: DerivedIds,
  source: ImportSource,
  group: PlannedGroup,
  ownerId: Types.ObjectId,
  skipped: SkipCounter,
): Promise<number> {
  const have = await c.emoji.find({ groupId: group.id }, { projection: { name: 1 } }).toArray();
  for (const e of have) group.customEmoji.add(String(e.name));
  let added = 0;
  for await (const emoji of source.emoji()) {
    const name = emoji.name.toLowerCase().replace(/-/g, '_');
    if (group.customEmoji.has(name)) continue;
    if (!NAME.test(name)) {
      skipped.add('custom emoji with a name this platform does not allow');
      continue;
    }
    if (group.customEmoji.size >= MAX_EMOJI_PER_GROUP) {
      skipped.add('custom emoji beyond the 200 a group keeps');
      continue;
    }
    const body = await emoji.open().catch(() => undefined);
    if (!body) {
      skipped.add('custom emoji whose image is not in the export');
      continue;
    }
    const fileId = ids.id('emoji-file', `${group.source.key}\u0000${name}`);
    const now = new Date();
    const { mime } = await storeFile(c, storage, {
      id: fileId,
      name: `${name}`,
      uploaderId: ownerId,
      createdAt: now,
      body,
      groupIds: [group.id],
    });
    if (!mime.startsWith('image/')) {
      await c.files.deleteOne({ _id: fileId });
      skipped.add('custom emoji whose image is not an image');
      continue;
    }
    await c.emoji.insertOne({
      _id: ids.id('emoji', `${group.source.key}\u0000${name}`),
      groupId: group.id,
      name,
      fileId,
      createdBy: ownerId,
      createdAt: now,
    });
    group.customEmoji.add(name);
    added++;
  }
  return added;
}
