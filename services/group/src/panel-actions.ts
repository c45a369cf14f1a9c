import type { Panel } from '@im/protocol';
import { announce, callerId, EVENTS, ImError, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember, MANAGERS } from './access.ts';
import { groupParams } from './params.ts';
import { MAX_PANELS, type Ctx, type GroupDeps } from './deps.ts';
import type { GroupDoc } from './models.ts';
import { toPanel } from './views.ts';

export const panelActions = ({ models, membership }: GroupDeps) => ({
  createPanel: {
    params: groupParams.createPanel,
    async handler(ctx: Ctx<Params<typeof groupParams.createPanel>>): Promise<Panel> {
      await loadForMember(models, ctx.params.groupId, callerId(ctx), MANAGERS);
      const panel = {
        _id: new Types.ObjectId(),
        name: ctx.params.name,
        type: ctx.params.type,
        converseId: new Types.ObjectId(),
      };
      const { modifiedCount } = await models.groups.updateOne(
        { _id: ctx.params.groupId, [`panels.${MAX_PANELS - 1}`]: { $exists: false } },
        { $push: { panels: panel } },
      );
      if (modifiedCount === 0) throw new ImError('IM_ERR_CONFLICT', `A group has at most ${MAX_PANELS} panels`);
      await membership.forgetConverses([panel.converseId.toHexString()]);
      const view = toPanel(panel);
      announce(ctx, EVENTS.panelCreated, { groupId: ctx.params.groupId, panel: view });
      return view;
    },
  },

  updatePanel: {
    params: groupParams.updatePanel,
    async handler(ctx: Ctx<Params<typeof groupParams.updatePanel>>): Promise<Panel> {
      await loadForMember(models, ctx.params.groupId, callerId(ctx), MANAGERS);
      const group = await models.groups
        .findOneAndUpdate(
          { _id: ctx.params.groupId, 'panels._id': ctx.params.panelId },
          { $set: { 'panels.$.name': ctx.params.name } },
          { new: true },
        )
        .lean<GroupDoc>();
      const panel = group?.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!panel) throw new ImError('IM_ERR_NOT_FOUND', 'Panel not found');
      const view = toPanel(panel);
      announce(ctx, EVENTS.panelUpdated, { groupId: ctx.params.groupId, panel: view });
      return view;
    },
  },

  deletePanel: {
    params: groupParams.deletePanel,
    async handler(ctx: Ctx<Params<typeof groupParams.deletePanel>>): Promise<void> {
      const { group } = await loadForMember(models, ctx.params.groupId, callerId(ctx), MANAGERS);
      const panel = group.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!panel) throw new ImError('IM_ERR_NOT_FOUND', 'Panel not found');
      const { modifiedCount } = await models.groups.updateOne(
        { _id: group._id },
        { $pull: { panels: { _id: panel._id } } },
      );
      if (modifiedCount === 0) throw new ImError('IM_ERR_NOT_FOUND', 'Panel not found');
      const converseId = panel.converseId.toHexString();
      await membership.forgetConverses([converseId]);
      announce(ctx, EVENTS.panelDeleted, { groupId: ctx.params.groupId, panelId: ctx.params.panelId, converseId });
    },
  },
});
