import type { ActionParams, ActionResult, Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { FileDeps } from './deps.ts';
import { fileParams } from './params.ts';
import { ownPicture } from './pictures.ts';

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
      const doc = await ownPicture(files, fileId, userId, 'avatar');
      const owner = new Types.ObjectId(userId);
      await files.updateOne({ _id: doc._id }, { $set: { avatarOf: owner } });
      await files.updateMany({ avatarOf: owner, _id: { $ne: doc._id } }, { $unset: { avatarOf: 1 } });
    },
  },
});
