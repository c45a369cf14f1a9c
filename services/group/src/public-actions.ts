import type { DirectoryPage, Group } from '@im/protocol';
import {
  callerId,
  escapeRegex,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  invalid,
  notFound,
} from '@im/sdk';
import type { FilterQuery } from 'mongoose';
import { groupParams } from './params.ts';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { addMember, bannedError, isBanned } from './member-join.ts';
import { toDirectoryGroup, toGroup } from './views.ts';

const directoryCursor = (g: GroupDoc): string => `${g.memberCount}.${g._id.toHexString()}`;

/** Public groups: the directory, joining without an invite, and what public pages need of a panel. */
export const publicActions = ({ models, store, rooms }: GroupDeps) => ({
  /** Public groups whose name contains `q` (any case), largest first; the cursor is `<memberCount>.<id>`. */
  directory: {
    params: groupParams.directory,
    rateLimit: 'search' as const,
    async handler(ctx: Ctx<Params<typeof groupParams.directory>>): Promise<DirectoryPage> {
      callerId(ctx);
      const { q, cursor } = ctx.params;
      const limit = ctx.params.limit ?? 50;
      const filter: FilterQuery<GroupDoc> = { visibility: 'public' };
      if (q) filter.name = { $regex: escapeRegex(q), $options: 'i' };
      if (cursor) {
        const [count, id] = cursor.split('.') as [string, string];
        const memberCount = Number(count);
        filter.$or = [{ memberCount: { $lt: memberCount } }, { memberCount, _id: { $gt: id } }];
      }
      const docs = await models.groups
        .find(filter, { name: 1, memberCount: 1, description: 1, language: 1 })
        .sort({ memberCount: -1, _id: 1 })
        .limit(limit + 1)
        .lean<GroupDoc[]>();
      const page = docs.slice(0, limit);
      return {
        items: page.map(toDirectoryGroup),
        nextCursor: docs.length > limit ? directoryCursor(page.at(-1)!) : null,
      };
    },
  },

  /** Joins a public group without an invite (a private one does not exist for outsiders: 404; banned: 403). */
  join: {
    params: groupParams.join,
    rateLimit: 'invite' as const,
    async handler(ctx: Ctx<Params<typeof groupParams.join>>): Promise<Group> {
      const userId = callerId(ctx);
      const [group, existing] = await Promise.all([
        models.groups.findById(ctx.params.groupId).lean<GroupDoc>(),
        models.members.findOne({ groupId: ctx.params.groupId, userId }).lean<MemberDoc>(),
      ]);
      if (!group) throw notFound('group');
      if (existing) return toGroup(group, existing);
      if (group.visibility !== 'public') throw notFound('group');
      if (await isBanned({ models }, group._id, userId)) throw bannedError();
      return addMember({ models, store, rooms }, ctx, group, userId);
    },
  },

  /** Groups' names by id, for the server audit log (a deleted group is left out; its entry keeps its name). */
  namesOf: {
    visibility: 'public' as const,
    params: groupParams.namesOf,
    async handler(ctx: Ctx<ActionParams<'group.namesOf'>>): Promise<ActionResult<'group.namesOf'>> {
      if (ctx.params.ids.length === 0) return {};
      const docs = await models.groups
        .find({ _id: { $in: ctx.params.ids } }, { name: 1 })
        .lean<Pick<GroupDoc, '_id' | 'name'>[]>();
      return Object.fromEntries(docs.map((g) => [g._id.toHexString(), g.name]));
    },
  },

  /** For public pages and personal feeds: a text panel with its group, found by panel or by converse. */
  panelInfo: {
    visibility: 'public' as const,
    params: groupParams.panelInfo,
    async handler(ctx: Ctx<ActionParams<'group.panelInfo'>>): Promise<ActionResult<'group.panelInfo'>> {
      const { panelId, converseId } = ctx.params;
      if (!panelId === !converseId) throw invalid('Give panelId or converseId');
      const group = await models.groups
        .findOne(panelId ? { 'panels._id': panelId } : { 'panels.converseId': converseId })
        .lean<GroupDoc>();
      const panel = group?.panels.find((p) =>
        panelId ? p._id.toHexString() === panelId : p.converseId.toHexString() === converseId,
      );
      if (!group || !panel) return null;
      return {
        groupId: group._id.toHexString(),
        groupName: group.name,
        ...(group.description ? { groupDescription: group.description } : {}),
        groupLanguage: group.language ?? 'en',
        groupPublic: group.visibility === 'public',
        panelId: panel._id.toHexString(),
        panelName: panel.name,
        converseId: panel.converseId.toHexString(),
        // A private panel is never on the web, whatever its flag says.
        webPublic: panel.webPublic === true && panel.private !== true,
      };
    },
  },
});
