import type { Group } from '@im/protocol';
import { announce, call, callerId, EVENTS, type Params, type Ctx, notFound } from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember } from './access.ts';
import type { GroupDeps } from './deps.ts';
import { iconParams } from './icon-params.ts';
import type { GroupDoc } from './models.ts';
import type { HandlerModels } from './store/reads.ts';
import { toGroup, toGroupInfo } from './views.ts';

/** Who may change a group's icon: members holding `manageGroup` (404 for others, 403 for members without it). */
const loadForIconManager = (models: HandlerModels, groupId: string, userId: string) =>
  loadForMember(models, groupId, userId, 'manageGroup');

const gone = () => notFound('group');

/** A group's icon: an image the file service keeps readable by everyone signed in. */
export const iconActions = ({ models, store }: Pick<GroupDeps, 'models' | 'store'>) => ({
  /**
   * For the gateway's upload route (PUT /api/groups/:groupId/icon). Without
   * `fileId`: only checks that the caller may change the icon (so nothing is
   * stored for a refused upload). With it: the file becomes the icon, the
   * one it replaces goes back to an unused upload, and the members hear of it.
   */
  setIcon: {
    visibility: 'public' as const,
    params: iconParams.set,
    async handler(ctx: Ctx<Params<typeof iconParams.set>>): Promise<Group | null> {
      const userId = callerId(ctx);
      const { groupId, fileId } = ctx.params;
      const { me } = await loadForIconManager(models, groupId, userId);
      if (!fileId) return null;
      await call(ctx, 'file.useAsGroupIcon', { fileId, userId, groupId });
      // The document as it was: the icon replaced is exactly the one this write took out.
      const before = await store.updateGroup({ _id: groupId }, { $set: { icon: new Types.ObjectId(fileId) } });
      if (!before) {
        await call(ctx, 'file.releaseGroupIcon', { fileId, groupId });
        throw gone();
      }
      const replaced = before.icon?.toHexString();
      if (replaced && replaced !== fileId) await call(ctx, 'file.releaseGroupIcon', { fileId: replaced, groupId });
      const group: GroupDoc = { ...before, icon: new Types.ObjectId(fileId) };
      announce(ctx, EVENTS.groupUpdated, { group: toGroupInfo(group) });
      return toGroup(group, me);
    },
  },

  /** DELETE /api/groups/:groupId/icon: the group shows its initials again; the file goes back to an unused upload. */
  removeIcon: {
    params: iconParams.remove,
    async handler(ctx: Ctx<Params<typeof iconParams.remove>>): Promise<void> {
      const { groupId } = ctx.params;
      await loadForIconManager(models, groupId, callerId(ctx));
      const before = await store.updateGroup({ _id: groupId }, { $unset: { icon: 1 } });
      if (!before) throw gone();
      if (!before.icon) return;
      await call(ctx, 'file.releaseGroupIcon', { fileId: before.icon.toHexString(), groupId });
      const { icon: _removed, ...group } = before;
      announce(ctx, EVENTS.groupUpdated, { group: toGroupInfo(group) });
    },
  },
});
