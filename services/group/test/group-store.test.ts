import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryCache } from '@im/sdk';
import { openTestEnv, type TestEnv } from '@im/testkit';
import mongoose, { Types } from 'mongoose';
import { MembershipCache } from '../src/membership-cache.ts';
import { groupModels, type GroupModels } from '../src/models.ts';
import { GroupStore } from '../src/store/group-store.ts';

/**
 * The store's writes on their own (no broker, so no event drops anything):
 * each answer is read first so it is cached, then written, then read again.
 */
describe('group store: the membership cache is fresh after each write', () => {
  let env: TestEnv;
  let connection: mongoose.Connection;
  let models: GroupModels;
  let cache: MembershipCache;
  let store: GroupStore;
  before(async () => {
    env = await openTestEnv(import.meta.url);
    connection = await mongoose.createConnection(env.mongoUrl).asPromise();
    models = groupModels(connection);
    await Promise.all(Object.values(models).map((m) => m.createIndexes()));
    cache = new MembershipCache(new MemoryCache(), models, 300);
    store = new GroupStore(models, cache);
  });
  after(async () => {
    await connection?.close();
    await env?.close();
  });

  async function groupWithOwner() {
    const ownerId = new Types.ObjectId();
    const converseId = new Types.ObjectId();
    // Asked before it exists: "no such converse" is cached.
    assert.equal(await cache.panelHome(converseId.toHexString()), null);
    const group = await store.insertGroup({
      name: 'Store',
      ownerId,
      memberCount: 1,
      panels: [{ _id: new Types.ObjectId(), name: 'general', type: 'text', converseId }],
    });
    await store.insertMember({ groupId: group._id, userId: ownerId, role: 'owner' });
    return { group, groupId: group._id.toHexString(), converseId: converseId.toHexString() };
  }

  it('joins, role changes, mutes and removals', async () => {
    const { group, groupId, converseId } = await groupWithOwner();
    assert.equal((await cache.panelHome(converseId))?.groupId, groupId);
    const userId = new Types.ObjectId();
    const user = userId.toHexString();
    assert.equal(await cache.standing(groupId, user), null);
    await store.insertMember({ groupId: group._id, userId, role: 'member' });
    assert.equal(await cache.role(groupId, user), 'member');
    await store.updateMember({ groupId: group._id, userId }, { $set: { role: 'admin' } });
    assert.equal(await cache.role(groupId, user), 'admin');
    const until = new Date(Date.now() + 60_000);
    await store.updateMember({ groupId: group._id, userId }, { $set: { mutedUntil: until } });
    assert.equal((await cache.standing(groupId, user))?.mutedUntil, until.getTime());
    await store.deleteMember({ groupId: group._id, userId });
    assert.equal(await cache.standing(groupId, user), null);
  });

  it('custom roles given and pulled, and the group rules', async () => {
    const { group, groupId } = await groupWithOwner();
    const userId = new Types.ObjectId();
    const user = userId.toHexString();
    await store.insertMember({ groupId: group._id, userId, role: 'member' });
    const roleId = new Types.ObjectId();
    assert.deepEqual((await cache.rules(groupId))?.roles ?? {}, {});
    await store.updateGroup(
      { _id: group._id },
      { $set: { roles: [{ _id: roleId, name: 'mods', permissions: ['manageMessages'], position: 1 }] } },
    );
    assert.ok(Object.keys((await cache.rules(groupId))?.roles ?? {}).includes(roleId.toHexString()));
    assert.ok(!(await cache.access(groupId, user))?.permissions.includes('manageMessages'));
    await store.updateMember({ groupId: group._id, userId }, { $addToSet: { roleIds: roleId } });
    assert.ok((await cache.access(groupId, user))?.permissions.includes('manageMessages'));
    const holders = await store.pullRole(group._id, roleId);
    assert.deepEqual(
      holders.map((h) => h.userId.toHexString()),
      [user],
    );
    assert.deepEqual((await cache.standing(groupId, user))?.roleIds, undefined);
  });

  it('panel writes: a new panel, its posting rule, made private, deleted', async () => {
    const { group } = await groupWithOwner();
    const userId = new Types.ObjectId();
    await store.insertMember({ groupId: group._id, userId, role: 'member' });
    const panelId = new Types.ObjectId();
    const converseId = new Types.ObjectId();
    const converse = converseId.toHexString();
    assert.equal(await cache.panelHome(converse), null);
    await store.updateGroup(
      { _id: group._id },
      { $push: { panels: { _id: panelId, name: 'news', type: 'text', converseId } } },
    );
    assert.equal((await cache.panelHome(converse))?.postingRole, 'member');
    await store.updateGroup(
      { _id: group._id, 'panels._id': panelId },
      { $set: { 'panels.$.postingRole': 'admin' } },
      { new: true },
    );
    assert.equal((await cache.panelHome(converse))?.postingRole, 'admin');
    assert.notEqual(await cache.converseMember(converse, userId.toHexString()), null);
    await store.updateGroup({ _id: group._id, 'panels._id': panelId }, { $set: { 'panels.$.private': true } });
    assert.equal(await cache.converseMember(converse, userId.toHexString()), null);
    await store.updateGroup({ _id: group._id }, { $pull: { panels: { _id: panelId } } });
    assert.equal(await cache.panelHome(converse), null);
  });

  it('user groups and the group itself', async () => {
    const { group, groupId, converseId } = await groupWithOwner();
    const userId = new Types.ObjectId();
    await store.insertMember({ groupId: group._id, userId, role: 'member' });
    assert.deepEqual(await cache.userGroupTable(groupId), {});
    const made = await store.insertUserGroup({ groupId: group._id, handle: 'ops', name: 'Ops', memberIds: [userId] });
    assert.deepEqual(await cache.userGroupTable(groupId), { ops: [userId.toHexString()] });
    assert.equal(await store.leaveUserGroups(groupId, userId), true);
    assert.deepEqual(await cache.userGroupTable(groupId), { ops: [] });
    await store.updateUserGroup(groupId, { _id: made._id }, { $set: { handle: 'ops2' } });
    assert.deepEqual(Object.keys(await cache.userGroupTable(groupId)), ['ops2']);
    await store.deleteUserGroup(groupId, { _id: made._id });
    assert.deepEqual(await cache.userGroupTable(groupId), {});
    assert.notEqual(await cache.converseMember(converseId, userId.toHexString()), null);
    assert.ok(await store.deleteGroup({ _id: group._id }));
    assert.equal(await cache.converseMember(converseId, userId.toHexString()), null);
    assert.equal(await cache.standing(groupId, userId.toHexString()), null);
  });
});
