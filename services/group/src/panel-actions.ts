import type { Panel } from '@im/protocol';
import { announce, callerId, callOnEveryNode, EVENTS, ImError, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember, MANAGERS } from './access.ts';
import { groupParams } from './params.ts';
import { MAX_PANELS, type Ctx, type GroupDeps } from './deps.ts';
import type { GroupDoc } from './models.ts';
import { toPanel } from './views.ts';

export const panelActions = ({ models, membership, audit, rooms }: GroupDeps) => ({
  createPanel: {
    params: groupParams.createPanel,
    rateLimit: 'panel-create',
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
      await rooms.panelAdded(ctx.params.groupId, panel.converseId.toHexString());
      const view = toPanel(panel);
      announce(ctx, EVENTS.panelCreated, { groupId: ctx.params.groupId, panel: view });
      return view;
    },
  },

  /**
   * Renames a panel, sets who may post in it (`postingRole: 'admin'`: an
   * announcement panel) and/or whether the web may read it (public groups only).
   */
  updatePanel: {
    params: groupParams.updatePanel,
    async handler(ctx: Ctx<Params<typeof groupParams.updatePanel>>): Promise<Panel> {
      const actorId = callerId(ctx);
      const { group: before } = await loadForMember(models, ctx.params.groupId, actorId, MANAGERS);
      const { name, postingRole, webPublic } = ctx.params;
      if (name === undefined && postingRole === undefined && webPublic === undefined)
        throw new ImError('IM_ERR_VALIDATION', 'Nothing to change: give name, postingRole or webPublic');
      const old = before.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!old) throw new ImError('IM_ERR_NOT_FOUND', 'Panel not found');
      if (webPublic === true && old.type === 'voice')
        throw new ImError('IM_ERR_CONFLICT', 'A voice panel has no messages to show on the web');
      if (webPublic === true && before.visibility !== 'public')
        throw new ImError(
          'IM_ERR_CONFLICT',
          'Only panels of a public group can be web-public: make the group public first',
        );
      const group = await models.groups
        .findOneAndUpdate(
          {
            _id: ctx.params.groupId,
            'panels._id': ctx.params.panelId,
            // Going private meanwhile must not leave a web-public panel behind.
            ...(webPublic === true ? { visibility: 'public' } : {}),
          },
          {
            $set: {
              ...(name !== undefined ? { 'panels.$.name': name } : {}),
              ...(postingRole !== undefined ? { 'panels.$.postingRole': postingRole } : {}),
              ...(webPublic !== undefined ? { 'panels.$.webPublic': webPublic } : {}),
            },
          },
          { new: true },
        )
        .lean<GroupDoc>();
      const panel = group?.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!panel && webPublic === true)
        throw new ImError(
          'IM_ERR_CONFLICT',
          'Only panels of a public group can be web-public: make the group public first',
        );
      if (!panel) throw new ImError('IM_ERR_NOT_FOUND', 'Panel not found');
      const view = toPanel(panel);
      const opened = { from: old.webPublic === true, to: view.webPublic };
      // Its page and feeds change (or go) on every gateway before the answer.
      if (opened.from || opened.to)
        await callOnEveryNode(ctx, 'gateway.forgetPublic', { converseIds: [view.converseId] });
      const rule = { from: old.postingRole ?? 'member', to: view.postingRole };
      // The send path caches who may post in each panel.
      if (rule.from !== rule.to) await membership.forgetConverses([view.converseId]);
      announce(ctx, EVENTS.panelUpdated, { groupId: ctx.params.groupId, panel: view });
      if (rule.from !== rule.to || opened.from !== opened.to)
        await audit.record(actorId, {
          action: 'panel.update',
          target: { type: 'panel', id: view.id },
          groupId: ctx.params.groupId,
          details: { name: view.name, postingRole: rule.to, webPublic: opened.to },
        });
      return view;
    },
  },

  deletePanel: {
    params: groupParams.deletePanel,
    async handler(ctx: Ctx<Params<typeof groupParams.deletePanel>>): Promise<void> {
      const actorId = callerId(ctx);
      const { group } = await loadForMember(models, ctx.params.groupId, actorId, MANAGERS);
      const panel = group.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!panel) throw new ImError('IM_ERR_NOT_FOUND', 'Panel not found');
      const { modifiedCount } = await models.groups.updateOne(
        { _id: group._id },
        { $pull: { panels: { _id: panel._id } } },
      );
      if (modifiedCount === 0) throw new ImError('IM_ERR_NOT_FOUND', 'Panel not found');
      const converseId = panel.converseId.toHexString();
      await membership.forgetConverses([converseId]);
      await rooms.panelRemoved(ctx.params.groupId, converseId);
      if (panel.webPublic) await callOnEveryNode(ctx, 'gateway.forgetPublic', { converseIds: [converseId] });
      announce(ctx, EVENTS.panelDeleted, { groupId: ctx.params.groupId, panelId: ctx.params.panelId, converseId });
      await audit.record(actorId, {
        action: 'panel.delete',
        target: { type: 'panel', id: ctx.params.panelId },
        groupId: ctx.params.groupId,
        details: { name: panel.name },
      });
    },
  },
});
