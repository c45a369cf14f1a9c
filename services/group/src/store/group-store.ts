import type { QueryOptions, RootFilterQuery, UpdateQuery } from 'mongoose';
import type { MembershipCache } from '../membership-cache.ts';
import type { GroupDoc, GroupModels, MemberDoc, UserGroupDoc } from '../models.ts';
import { converseIdsOf } from '../views.ts';
import { converseIdsIn, touchedFields } from './touched.ts';

/** What `findOneAndUpdate` options a caller may choose: the document before (default) or after, and its order. */
type WriteOptions = Pick<QueryOptions, 'new' | 'sort' | 'projection'>;

/** Group fields the cached rules (roles, @everyone, private panels) are read from. */
const RULE_FIELDS = ['roles', 'everyonePermissions', 'panels'];

/**
 * Every write of groups, members and user groups: the membership cache is
 * derived from them, so each write here drops the entries it touches before
 * it returns (who may read what must never be served stale). Handlers read
 * these collections directly but cannot write them (`HandlerModels`).
 */
export class GroupStore {
  readonly #models: GroupModels;
  readonly #cache: MembershipCache;

  constructor(models: GroupModels, cache: MembershipCache) {
    this.#models = models;
    this.#cache = cache;
  }

  // Groups.

  async insertGroup(doc: Record<string, unknown>): Promise<GroupDoc> {
    const group = (await this.#models.groups.create(doc)).toObject() as GroupDoc;
    // Someone may have asked about its panels' converse ids before they existed (ids are predictable).
    await this.#cache.forgetConverses(converseIdsOf(group));
    return group;
  }

  /**
   * One group's `findOneAndUpdate` (the document before, or after with
   * `new`). A write to its roles or panels drops its rules; a write to its
   * panels drops the converses of the panels before and after it.
   */
  async updateGroup(
    filter: RootFilterQuery<GroupDoc>,
    update: UpdateQuery<GroupDoc>,
    options: WriteOptions = {},
  ): Promise<GroupDoc | null> {
    const fields = touchedFields(update);
    const rules = RULE_FIELDS.some((f) => fields.has(f));
    if (!fields.has('panels')) {
      const doc = await this.#models.groups.findOneAndUpdate(filter, update, options).lean<GroupDoc>();
      if (doc && rules) await this.#cache.forgetRules(doc._id.toHexString());
      return doc;
    }
    // Panels: both sides are needed to know every converse the write moved.
    const before = await this.#models.groups.findOneAndUpdate(filter, update, { new: false }).lean<GroupDoc>();
    if (!before) return null;
    const after = await this.#models.groups.findById(before._id).lean<GroupDoc>();
    const converseIds = new Set([
      ...converseIdsOf(before),
      ...(after ? converseIdsOf(after) : []),
      ...converseIdsIn(update),
    ]);
    await this.#cache.forgetConverses([...converseIds]);
    await this.#cache.forgetRules(before._id.toHexString());
    return options.new ? after : before;
  }

  /** Deletes a group with its members and user groups; null when there was none. Invites and bans are the caller's. */
  async deleteGroup(filter: RootFilterQuery<GroupDoc>): Promise<GroupDoc | null> {
    const group = await this.#models.groups.findOneAndDelete(filter).lean<GroupDoc>();
    if (!group) return null;
    const groupId = group._id.toHexString();
    // Their standings are read alone too (a role check): none may outlive the group.
    const members = await this.#models.members.find({ groupId: group._id }, { userId: 1 }).lean<MemberDoc[]>();
    await Promise.all([
      this.#models.members.deleteMany({ groupId: group._id }),
      this.#models.userGroups.deleteMany({ groupId: group._id }),
    ]);
    await Promise.all([
      this.#cache.forgetRules(groupId),
      this.#cache.forgetUserGroups(groupId),
      this.#cache.forgetConverses(converseIdsOf(group)),
      this.#cache.forgetMembers(
        groupId,
        members.map((m) => m.userId.toHexString()),
      ),
    ]);
    return group;
  }

  // Members.

  async insertMember(doc: Pick<MemberDoc, 'groupId' | 'userId' | 'role'>): Promise<MemberDoc> {
    const member = (await this.#models.members.create(doc)).toObject() as MemberDoc;
    await this.#cache.forgetMember(member.groupId.toHexString(), member.userId.toHexString());
    return member;
  }

  /** One member's `findOneAndUpdate` (the document before, or after with `new`). */
  async updateMember(
    filter: RootFilterQuery<MemberDoc>,
    update: UpdateQuery<MemberDoc>,
    options: WriteOptions = {},
  ): Promise<MemberDoc | null> {
    const doc = await this.#models.members.findOneAndUpdate(filter, update, options).lean<MemberDoc>();
    if (doc) await this.#cache.forgetMember(doc.groupId.toHexString(), doc.userId.toHexString());
    return doc;
  }

  /** Deletes one membership; the document deleted, or null when someone else deleted it first. */
  async deleteMember(filter: RootFilterQuery<MemberDoc>): Promise<MemberDoc | null> {
    const doc = await this.#models.members.findOneAndDelete(filter).lean<MemberDoc>();
    if (doc) await this.#cache.forgetMember(doc.groupId.toHexString(), doc.userId.toHexString());
    return doc;
  }

  /** Takes a deleted role off everyone who held it; their memberships as they were. */
  async pullRole(
    groupId: GroupDoc['_id'],
    roleId: GroupDoc['_id'],
  ): Promise<Array<Pick<MemberDoc, 'userId' | 'role' | 'roleIds'>>> {
    const holders = await this.#models.members
      .find({ groupId, roleIds: roleId }, { userId: 1, role: 1, roleIds: 1 })
      .lean<Array<Pick<MemberDoc, 'userId' | 'role' | 'roleIds'>>>();
    await this.#models.members.updateMany({ groupId, roleIds: roleId }, { $pull: { roleIds: roleId } });
    for (const h of holders) await this.#cache.forgetMember(groupId.toHexString(), h.userId.toHexString());
    return holders;
  }

  // User groups (the send path caches a group's whole table, so any write drops it).

  async insertUserGroup(doc: Omit<UserGroupDoc, '_id'>): Promise<UserGroupDoc> {
    const created = (await this.#models.userGroups.create(doc)).toObject() as UserGroupDoc;
    await this.#cache.forgetUserGroups(doc.groupId.toHexString());
    return created;
  }

  async updateUserGroup(
    groupId: string,
    filter: RootFilterQuery<UserGroupDoc>,
    update: UpdateQuery<UserGroupDoc>,
    options: WriteOptions = {},
  ): Promise<UserGroupDoc | null> {
    const doc = await this.#models.userGroups
      .findOneAndUpdate({ ...filter, groupId }, update, options)
      .lean<UserGroupDoc>();
    if (doc) await this.#cache.forgetUserGroups(groupId);
    return doc;
  }

  async deleteUserGroup(groupId: string, filter: RootFilterQuery<UserGroupDoc>): Promise<UserGroupDoc | null> {
    const doc = await this.#models.userGroups.findOneAndDelete({ ...filter, groupId }).lean<UserGroupDoc>();
    if (doc) await this.#cache.forgetUserGroups(groupId);
    return doc;
  }

  /** Takes a user off every user group of a group; true when they were on one. */
  async leaveUserGroups(groupId: string, userId: GroupDoc['_id']): Promise<boolean> {
    const { modifiedCount } = await this.#models.userGroups.updateMany(
      { groupId, memberIds: userId },
      { $pull: { memberIds: userId } },
    );
    if (modifiedCount > 0) await this.#cache.forgetUserGroups(groupId);
    return modifiedCount > 0;
  }

  // Writes made outside the platform (an import): what they may have made stale.

  async adoptGroup(group: GroupDoc): Promise<void> {
    await this.#cache.forgetConverses(converseIdsOf(group));
    await this.#cache.forgetRules(group._id.toHexString());
  }

  async adoptMember(groupId: string, userId: string): Promise<void> {
    await this.#cache.forgetMember(groupId, userId);
  }
}
