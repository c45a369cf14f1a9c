import type { CustomEmoji } from '@im/protocol';
import {
  announce,
  callerId,
  EVENTS,
  ImError,
  isDuplicateKeyError,
  type Params,
  type Ctx,
  conflict,
  limitReached,
} from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember } from './access.ts';
import type { GroupDeps } from './deps.ts';
import type { EmojiDoc, EmojiModel } from './emoji-models.ts';
import { emojiParams } from './emoji-params.ts';

/** Most custom emoji one group may have: the picker shows them all at once. */
export const MAX_EMOJI_PER_GROUP = 200;

const toEmoji = (doc: EmojiDoc): CustomEmoji => {
  const fileId = doc.fileId.toHexString();
  return { name: doc.name, fileId, url: `/api/files/${fileId}` };
};

const taken = (name: string) => conflict(`This group already has an emoji called :${name}:`);

/** A group's custom emoji: admins add and remove them, members list them, chat checks reactions against them. */
export const emojiActions = ({ models }: GroupDeps, emoji: EmojiModel) => ({
  /**
   * For the gateway's upload route. Without `fileId`: only checks that the
   * caller is an admin and that the name is free and the group has room (so
   * nothing is stored for a refused upload). With it: records the emoji.
   */
  addEmoji: {
    visibility: 'public' as const,
    params: emojiParams.add,
    async handler(ctx: Ctx<Params<typeof emojiParams.add>>): Promise<CustomEmoji | null> {
      const userId = callerId(ctx);
      const { groupId, name, fileId } = ctx.params;
      await loadForMember(models, groupId, userId, 'manageGroup');
      if (await emoji.exists({ groupId, name })) throw taken(name);
      if ((await emoji.countDocuments({ groupId })) >= MAX_EMOJI_PER_GROUP)
        throw limitReached(`A group has at most ${MAX_EMOJI_PER_GROUP} custom emoji`);
      if (!fileId) return null;
      const doc: EmojiDoc = {
        _id: new Types.ObjectId(),
        groupId: new Types.ObjectId(groupId),
        name,
        fileId: new Types.ObjectId(fileId),
        createdBy: new Types.ObjectId(userId),
        createdAt: new Date(),
      };
      try {
        await emoji.create(doc);
      } catch (err) {
        if (isDuplicateKeyError(err)) throw taken(name);
        throw err;
      }
      announce(ctx, EVENTS.emojiChanged, { groupId });
      return toEmoji(doc);
    },
  },

  /** GET /api/groups/:groupId/emoji: every member sees them, by name. */
  listEmoji: {
    params: emojiParams.list,
    async handler(ctx: Ctx<Params<typeof emojiParams.list>>): Promise<CustomEmoji[]> {
      await loadForMember(models, ctx.params.groupId, callerId(ctx));
      const docs = await emoji
        .find({ groupId: ctx.params.groupId })
        .sort({ name: 1 })
        .limit(MAX_EMOJI_PER_GROUP)
        .lean<EmojiDoc[]>();
      return docs.map(toEmoji);
    },
  },

  /** DELETE /api/groups/:groupId/emoji/:name (admins). Reactions already given keep their `:name:` text. */
  removeEmoji: {
    params: emojiParams.remove,
    async handler(ctx: Ctx<Params<typeof emojiParams.remove>>): Promise<void> {
      const { groupId, name } = ctx.params;
      await loadForMember(models, groupId, callerId(ctx), 'manageGroup');
      const { deletedCount } = await emoji.deleteOne({ groupId, name });
      if (deletedCount === 0) throw new ImError('IM_ERR_NOT_FOUND', `No emoji called :${name}:`);
      announce(ctx, EVENTS.emojiChanged, { groupId });
    },
  },

  /** For chat: whether `:name:` is one of the group's emoji (a reaction with an unknown one is refused). */
  emojiExists: {
    visibility: 'public' as const,
    params: emojiParams.exists,
    async handler(ctx: Ctx<Params<typeof emojiParams.exists>>): Promise<boolean> {
      return (await emoji.exists({ groupId: ctx.params.groupId, name: ctx.params.name })) !== null;
    },
  },
});
