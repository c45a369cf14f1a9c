import type { Panel } from '@im/protocol';
import {
  announce,
  callerId,
  callOnEveryNode,
  EVENTS,
  ImError,
  type Params,
  type Ctx,
  notFound,
  invalid,
  conflict,
} from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember } from './access.ts';
import { groupParams } from './params.ts';
import { MAX_PANELS, type GroupDeps } from './deps.ts';
import type { GroupDoc } from './models.ts';
import type { HandlerModels } from './store/reads.ts';
import { announcePanelAudience } from './panel-audience.ts';
import { toPanel } from './views.ts';

/**
 * Checks a private panel's allow lists: roles of this group (404 for one
 * that is not) and members of it (404 for someone who is not).
 */
async function checkAllowLists(
  models: HandlerModels,
  group: GroupDoc,
  roleIds: readonly string[] | undefined,
  userIds: readonly string[] | undefined,
): Promise<void> {
  const known = new Set((group.roles ?? []).map((r) => r._id.toHexString()));
  const unknownRole = roleIds?.find((id) => !known.has(id));
  if (unknownRole) throw new ImError('IM_ERR_NOT_FOUND', 'Role not found', { roleId: unknownRole });
  if (!userIds?.length) return;
  const unique = [...new Set(userIds)];
  const found = await models.members.countDocuments({ groupId: group._id, userId: { $in: unique } });
  if (found < unique.length) throw notFound('member', 'allowUserIds names a non-member');
}

const objectIds = (ids: readonly string[] | undefined) => [...new Set(ids ?? [])].map((id) => new Types.ObjectId(id));

export const panelActions = ({ models, store, audit, rooms }: GroupDeps) => ({
  createPanel: {
    params: groupParams.createPanel,
    rateLimit: 'panel-create' as const,
    async handler(ctx: Ctx<Params<typeof groupParams.createPanel>>): Promise<Panel> {
      const { group } = await loadForMember(models, ctx.params.groupId, callerId(ctx), 'managePanels');
      const { topic, allowRoleIds, allowUserIds } = ctx.params;
      const isPrivate = ctx.params.private === true;
      if (!isPrivate && (allowRoleIds || allowUserIds))
        throw invalid('allowRoleIds and allowUserIds are for private panels only');
      if (isPrivate) await checkAllowLists(models, group, allowRoleIds, allowUserIds);
      const panel = {
        _id: new Types.ObjectId(),
        name: ctx.params.name,
        type: ctx.params.type,
        converseId: new Types.ObjectId(),
        ...(topic ? { topic } : {}),
        ...(isPrivate
          ? { private: true, allowRoleIds: objectIds(allowRoleIds), allowUserIds: objectIds(allowUserIds) }
          : {}),
      };
      const pushed = await store.updateGroup(
        { _id: ctx.params.groupId, [`panels.${MAX_PANELS - 1}`]: { $exists: false } },
        { $push: { panels: panel } },
      );
      if (!pushed) throw conflict(`A group has at most ${MAX_PANELS} panels`);
      await rooms.panelAdded(ctx.params.groupId, panel.converseId.toHexString(), isPrivate);
      const view = toPanel(panel);
      announce(ctx, EVENTS.panelCreated, { groupId: ctx.params.groupId, panel: view });
      // A private panel reaches only those who see it.
      if (isPrivate) await announcePanelAudience(ctx, models, ctx.params.groupId, null, panel);
      return view;
    },
  },

  /**
   * Renames a panel, sets its topic, who may post in it (`postingRole:
   * 'admin'`: an announcement panel), whether the web may read it (public
   * groups only), and whether it is private and to whom.
   */
  updatePanel: {
    params: groupParams.updatePanel,
    async handler(ctx: Ctx<Params<typeof groupParams.updatePanel>>): Promise<Panel> {
      const actorId = callerId(ctx);
      const { group: before } = await loadForMember(models, ctx.params.groupId, actorId, 'managePanels');
      const { name, postingRole, webPublic, topic, allowRoleIds, allowUserIds } = ctx.params;
      const makePrivate = ctx.params.private;
      if ([name, postingRole, webPublic, topic, allowRoleIds, allowUserIds, makePrivate].every((v) => v === undefined))
        throw invalid(
          'Nothing to change: give name, topic, postingRole, webPublic, private, allowRoleIds or allowUserIds',
        );
      const old = before.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!old) throw notFound('panel');
      const willBePrivate = makePrivate ?? old.private === true;
      if (!willBePrivate && (allowRoleIds || allowUserIds))
        throw invalid('allowRoleIds and allowUserIds are for private panels only');
      if (webPublic === true && willBePrivate) throw conflict('A private panel cannot be readable on the web');
      if (willBePrivate) await checkAllowLists(models, before, allowRoleIds, allowUserIds);
      if (webPublic === true && old.type === 'voice')
        throw conflict('A voice panel has no messages to show on the web');
      if (webPublic === true && before.visibility !== 'public')
        throw conflict('Only panels of a public group can be web-public: make the group public first');
      const group = await store.updateGroup(
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
            ...(topic ? { 'panels.$.topic': topic } : {}),
            // A panel made private leaves the web in the same write.
            ...(makePrivate === true ? { 'panels.$.private': true, 'panels.$.webPublic': false } : {}),
            ...(makePrivate === false ? { 'panels.$.private': false } : {}),
            ...(willBePrivate && allowRoleIds ? { 'panels.$.allowRoleIds': objectIds(allowRoleIds) } : {}),
            ...(willBePrivate && allowUserIds ? { 'panels.$.allowUserIds': objectIds(allowUserIds) } : {}),
          },
          $unset: {
            ...(topic === '' ? { 'panels.$.topic': 1 } : {}),
            ...(makePrivate === false ? { 'panels.$.allowRoleIds': 1, 'panels.$.allowUserIds': 1 } : {}),
          },
        },
        { new: true },
      );
      const panel = group?.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!panel && webPublic === true)
        throw conflict('Only panels of a public group can be web-public: make the group public first');
      if (!panel) throw notFound('panel');
      const view = toPanel(panel);
      const opened = { from: old.webPublic === true, to: view.webPublic };
      // Its page and feeds change (or go) on every gateway before the answer.
      if (opened.from || opened.to)
        await callOnEveryNode(ctx, 'gateway.forgetPublic', { converseIds: [view.converseId] });
      const rule = { from: old.postingRole ?? 'member', to: view.postingRole };
      // The send path caches who may post in each panel, and who sees private ones.
      const audienceChanged =
        (old.private === true) !== view.private || allowRoleIds !== undefined || allowUserIds !== undefined;
      if (audienceChanged) {
        if ((old.private === true) !== view.private)
          await rooms.panelPrivacy(ctx.params.groupId, view.converseId, view.private);
        await announcePanelAudience(ctx, models, ctx.params.groupId, old, panel);
      }
      announce(ctx, EVENTS.panelUpdated, { groupId: ctx.params.groupId, panel: view });
      if (rule.from !== rule.to || opened.from !== opened.to || audienceChanged)
        await audit.record(actorId, {
          action: 'panel.update',
          target: { type: 'panel', id: view.id },
          groupId: ctx.params.groupId,
          details: {
            name: view.name,
            postingRole: rule.to,
            webPublic: opened.to,
            private: view.private,
            ...(view.private ? { allowRoleIds: view.allowRoleIds, allowUserIds: view.allowUserIds } : {}),
          },
        });
      return view;
    },
  },

  deletePanel: {
    params: groupParams.deletePanel,
    async handler(ctx: Ctx<Params<typeof groupParams.deletePanel>>): Promise<void> {
      const actorId = callerId(ctx);
      const { group } = await loadForMember(models, ctx.params.groupId, actorId, 'managePanels');
      const panel = group.panels.find((p) => p._id.toHexString() === ctx.params.panelId);
      if (!panel) throw notFound('panel');
      // Matched only while the panel is there: a second delete finds nothing.
      const pulled = await store.updateGroup(
        { _id: group._id, 'panels._id': panel._id },
        { $pull: { panels: { _id: panel._id } } },
      );
      if (!pulled) throw notFound('panel');
      const converseId = panel.converseId.toHexString();
      await rooms.panelRemoved(ctx.params.groupId, converseId);
      if (panel.webPublic) await callOnEveryNode(ctx, 'gateway.forgetPublic', { converseIds: [converseId] });
      announce(ctx, EVENTS.panelDeleted, {
        groupId: ctx.params.groupId,
        panelId: ctx.params.panelId,
        converseId,
        ...(panel.private ? { private: true as const } : {}),
      });
      await audit.record(actorId, {
        action: 'panel.delete',
        target: { type: 'panel', id: ctx.params.panelId },
        groupId: ctx.params.groupId,
        // Marked, so the log can leave it out for those the panel did not allow.
        details: { name: panel.name, ...(panel.private ? { private: true } : {}) },
      });
    },
  },
});
