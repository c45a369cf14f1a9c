import type { ActionParams, ActionResult, Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { FileDeps } from './deps.ts';
import { fileParams } from './params.ts';
import { ownPicture } from './pictures.ts';
import { removeFileWhere } from './removal.ts';

/**
 * Group icons, for the group service: one of the uploader's small images
 * becomes a group's icon, readable by everyone signed in (like a profile
 * picture); the icon it replaces goes back to being an unused upload.
 */
export const groupIconActions = ({ app, files, quota }: Pick<FileDeps, 'app' | 'files' | 'quota'>) => ({
  /** Before the group records it: the file must be the user's own small image; it is marked the group's icon. */
  useAsGroupIcon: {
    visibility: 'public' as const,
    params: fileParams.useAsGroupIcon,
    async handler(ctx: Ctx<ActionParams<'file.useAsGroupIcon'>>): Promise<ActionResult<'file.useAsGroupIcon'>> {
      const { fileId, userId, groupId } = ctx.params;
      const doc = await ownPicture(files, fileId, userId, 'icon');
      await files.updateOne({ _id: doc._id }, { $set: { iconOf: new Types.ObjectId(groupId) } });
    },
  },

  /**
   * An icon the group no longer shows (replaced or removed): back to an
   * unused upload, which the cleanup removes. Only this file, and only while
   * it is this group's: the group names exactly the icon it replaced, so
   * two changes at once cannot release the one that stays.
   */
  releaseGroupIcon: {
    visibility: 'public' as const,
    params: fileParams.releaseGroupIcon,
    async handler(ctx: Ctx<ActionParams<'file.releaseGroupIcon'>>): Promise<ActionResult<'file.releaseGroupIcon'>> {
      const { fileId, groupId } = ctx.params;
      await files.updateOne({ _id: fileId, iconOf: groupId }, { $unset: { iconOf: 1 } });
    },
  },

  /** A deleted group's icon: removed at once (record, the uploader's storage use, bytes). */
  removeGroupIcon: {
    visibility: 'public' as const,
    params: fileParams.removeGroupIcon,
    async handler(ctx: Ctx<ActionParams<'file.removeGroupIcon'>>): Promise<ActionResult<'file.removeGroupIcon'>> {
      const { fileId, groupId } = ctx.params;
      return removeFileWhere(app, files, quota, { _id: fileId, iconOf: groupId });
    },
  },
});
