import { ImError, type ActionParams, type ActionResult } from '@im/sdk';
import { Types } from 'mongoose';
import type { Ctx, FileDeps } from './deps.ts';
import type { FileDoc } from './models.ts';
import { fileParams } from './params.ts';

/** Profile pictures are small: the app uploads a square of at most 512 px. */
export const MAX_AVATAR_BYTES = 1024 * 1024;
const PICTURES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const refused = (message: string) =>
  new ImError('IM_ERR_VALIDATION', message, [{ field: 'avatar', type: 'avatar', message }]);

/** Making one of a user's uploads their profile picture. */
export const avatarActions = ({ files }: Pick<FileDeps, 'files'>) => ({
  /**
   * For the user service, before it saves `avatar`: the file must be the
   * user's own image, small enough. It becomes readable by everyone signed
   * in, and the previous picture goes back to being an unused upload (the
   * cleanup removes it).
   */
  useAsAvatar: {
    visibility: 'public' as const,
    params: fileParams.useAsAvatar,
    async handler(ctx: Ctx<ActionParams<'file.useAsAvatar'>>): Promise<ActionResult<'file.useAsAvatar'>> {
      const { fileId, userId } = ctx.params;
      const doc = await files.findById(fileId).lean<FileDoc>();
      if (!doc || doc.uploaderId.toHexString() !== userId) throw refused('avatar: no such file of yours');
      if (!PICTURES.has(doc.mime)) throw refused('avatar: the file must be a PNG, JPEG, GIF or WebP image');
      if (doc.size > MAX_AVATAR_BYTES) throw refused('avatar: a profile picture can be at most 1 MB');
      const owner = new Types.ObjectId(userId);
      await files.updateOne({ _id: doc._id }, { $set: { avatarOf: owner } });
      await files.updateMany({ avatarOf: owner, _id: { $ne: doc._id } }, { $unset: { avatarOf: 1 } });
    },
  },
});
