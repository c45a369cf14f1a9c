import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, Permission, Role } from '@im/protocol';
import mongoose, { Types } from 'mongoose';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { groupWithMembers, type ApiErrorBody } from './harness.ts';

/** A group as each case starts from: its owner, the plain member who acts, another plain member, a message. */
interface Scene {
  groupId: string;
  converseId: string;
  owner: User;
  actor: User;
  other: User;
  /** A message of the owner's in the group's first panel. */
  message: Message;
}

/** The request a permission allows (made as the actor), and what it answers once allowed. */
interface Action {
  method: string;
  path: (s: Scene) => string;
  body?: unknown;
  status: number;
}

/**
 * Roles and permissions (shared/API.md, "Roles and private panels"): each
 * permission refuses a plain member without it (403) the action it names,
 * and allows it once a role of theirs holds it; whoever is not in the
 * group learns nothing (404).
 */
describe('permissions', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const scene = async (): Promise<Scene> => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 2);
    const [actor, other] = members as [User, User];
    const message = await ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, { content: 'hi' }, 201);
    return { groupId, converseId, owner, actor, other, message };
  };

  /** A new role holding `permissions`, given to `user` by the owner. */
  const grant = async (s: Pick<Scene, 'groupId' | 'owner'>, user: User, permissions: Permission[], name = 'Crew') => {
    const role = await ok<Role>('POST', `/api/groups/${s.groupId}/roles`, s.owner, { name, permissions }, 201);
    await ok('PUT', `/api/groups/${s.groupId}/members/${user.id}/roles/${role.id}`, s.owner);
    return role;
  };

  const ACTIONS: Record<Exclude<Permission, 'mentionAll'>, Action> = {
    manageGroup: { method: 'PATCH', path: (s) => `/api/groups/${s.groupId}`, body: { name: 'Renamed' }, status: 200 },
    manageRoles: {
      method: 'POST',
      path: (s) => `/api/groups/${s.groupId}/roles`,
      body: { name: 'Helpers', permissions: [] },
      status: 201,
    },
    managePanels: {
      method: 'POST',
      path: (s) => `/api/groups/${s.groupId}/panels`,
      body: { name: 'side', type: 'text' },
      status: 201,
    },
    manageMessages: { method: 'DELETE', path: (s) => `/api/messages/${s.message.id}`, status: 204 },
    kickMembers: { method: 'DELETE', path: (s) => `/api/groups/${s.groupId}/members/${s.other.id}`, status: 204 },
    banMembers: { method: 'PUT', path: (s) => `/api/groups/${s.groupId}/bans/${s.other.id}`, body: {}, status: 204 },
    muteMembers: {
      method: 'PUT',
      path: (s) => `/api/groups/${s.groupId}/members/${s.other.id}/mute`,
      body: { seconds: 60 },
      status: 204,
    },
    createInvites: { method: 'POST', path: (s) => `/api/groups/${s.groupId}/invites`, body: {}, status: 201 },
    pinMessages: { method: 'PUT', path: (s) => `/api/messages/${s.message.id}/pin`, status: 200 },
    manageIntegrations: {
      method: 'POST',
      path: (s) => `/api/groups/${s.groupId}/bots`,
      body: { name: 'Helper' },
      status: 201,
    },
    viewAuditLog: { method: 'GET', path: (s) => `/api/groups/${s.groupId}/audit`, status: 200 },
  };

  for (const [permission, action] of Object.entries(ACTIONS) as Array<[Permission, Action]>)
    it(`${permission}: refused (403) without it, allowed with a role holding it`, async () => {
      const s = await scene();
      // What a plain member may do by default: taken from @everyone to see the refusal.
      if (permission === 'createInvites')
        await ok('PATCH', `/api/groups/${s.groupId}/roles/${s.groupId}`, s.owner, { permissions: [] });
      const path = action.path(s);
      const body = action.body;
      const refusal = await refused(action.method, path, s.actor, 403, 'IM_ERR_FORBIDDEN', body);
      assert.match(refusal.error.message, new RegExp(`You need the ${permission} permission`));

      // A role with every other permission is no help.
      const others = Object.keys(ACTIONS).filter((p) => p !== permission) as Permission[];
      await grant(s, s.actor, others, 'Everything else');
      await refused(action.method, path, s.actor, 403, 'IM_ERR_FORBIDDEN', body);

      await grant(s, s.actor, [permission]);
      await ok(action.method, path, s.actor, body, action.status);
    });

  it('outside the group the same requests are 404, whatever the caller holds elsewhere', async () => {
    const s = await scene();
    const outsider = await api.user('out');
    for (const [permission, action] of Object.entries(ACTIONS)) {
      const res = await api.request<ApiErrorBody>(action.method, action.path(s), {
        token: outsider.token,
        ...(action.body !== undefined ? { body: action.body } : {}),
      });
      assert.equal(res.status, 404, `${permission}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'IM_ERR_NOT_FOUND');
    }
  });

  it('manageMessages also opens the group’s report queue and resolves its reports', async () => {
    const s = await scene();
    const report = await ok<{ id: string }>(
      'POST',
      `/api/messages/${s.message.id}/report`,
      s.other,
      { reason: 'spam' },
      201,
    );
    await refused('GET', `/api/groups/${s.groupId}/reports`, s.actor, 403, 'IM_ERR_FORBIDDEN');
    const resolve = `/api/groups/${s.groupId}/reports/${report.id}/resolve`;
    await refused('POST', resolve, s.actor, 403, 'IM_ERR_FORBIDDEN', { action: 'delete' });
    await grant(s, s.actor, ['manageMessages']);
    const queue = await ok<Array<{ id: string }>>('GET', `/api/groups/${s.groupId}/reports`, s.actor);
    assert.deepEqual(
      queue.map((r) => r.id),
      [report.id],
    );
    await ok('POST', resolve, s.actor, { action: 'delete' });
    const gone = await ok<Message>('GET', `/api/messages/${s.message.id}`, s.owner);
    assert.equal(gone.deleted, true);
  });

  it('pinMessages also unpins; manageMessages does not let anyone edit another’s message', async () => {
    const s = await scene();
    await ok('PUT', `/api/messages/${s.message.id}/pin`, s.owner);
    const unpin = `/api/messages/${s.message.id}/pin`;
    await refused('DELETE', unpin, s.actor, 403, 'IM_ERR_FORBIDDEN');
    await grant(s, s.actor, ['pinMessages', 'manageMessages']);
    const unpinned = await ok<Message>('DELETE', unpin, s.actor);
    assert.equal(unpinned.pinned, undefined);
    await refused('PATCH', `/api/messages/${s.message.id}`, s.actor, 403, 'IM_ERR_FORBIDDEN', { content: 'mine now' });
  });

  it('mentionAll: in a group over 100 members a plain member’s @all stays plain, a holder’s notifies', async () => {
    const s = await scene();
    // 100 more members, written straight into the group's collections (registering 100 accounts is slow).
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      const extra = Array.from({ length: 100 }, () => ({
        _id: new Types.ObjectId(),
        groupId: new Types.ObjectId(s.groupId),
        userId: new Types.ObjectId(),
        role: 'member',
        joinedAt: new Date(),
      }));
      await db.collection('members').insertMany(extra);
      await db.collection('groups').updateOne({ _id: new Types.ObjectId(s.groupId) }, { $inc: { memberCount: 100 } });
    } finally {
      await db.close();
    }
    const send = (content: string) =>
      ok<Message>('POST', `/api/converses/${s.converseId}/messages`, s.actor, { content }, 201);
    const mentionsOfOther = async () =>
      (await ok<Array<{ converseId: string; mentions: number }>>('GET', '/api/unread', s.other)).find(
        (e) => e.converseId === s.converseId,
      )?.mentions;

    const plain = await send('hey @all');
    assert.equal(plain.mentionsAll, undefined);
    assert.equal(await mentionsOfOther(), 0);
    const here = await send('anyone @here?');
    assert.equal(here.mentionsHere, undefined);

    await grant(s, s.actor, ['mentionAll']);
    const loud = await send('heads up @all');
    assert.equal(loud.mentionsAll, true);
    assert.equal(await mentionsOfOther(), 1);
  });

  it('a role holder moderates only plain members ranked below them: never an admin, nor an equal or higher rank', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 5);
    const [mod, admin, peer, senior, junior] = members as [User, User, User, User, User];
    const s = { groupId, owner };
    await ok('PUT', `/api/groups/${groupId}/members/${admin.id}/role`, owner, { role: 'admin' });
    // A new role goes lowest: made in this order they rank High > Mods > Low.
    await grant(s, senior, [], 'High');
    const mods = await grant(s, mod, ['kickMembers', 'banMembers', 'muteMembers'], 'Mods');
    await ok('PUT', `/api/groups/${groupId}/members/${peer.id}/roles/${mods.id}`, owner);
    await grant(s, junior, [], 'Low');
    const ranks = await ok<Role[]>('GET', `/api/groups/${groupId}/roles`, owner);
    assert.deepEqual(
      ranks.map((r) => r.name),
      ['@everyone', 'Low', 'Mods', 'High'],
    );

    for (const target of [admin, peer, senior]) {
      await refused('PUT', `/api/groups/${groupId}/members/${target.id}/mute`, mod, 403, 'IM_ERR_FORBIDDEN', {
        seconds: 60,
      });
      await refused('PUT', `/api/groups/${groupId}/bans/${target.id}`, mod, 403, 'IM_ERR_FORBIDDEN', {});
      await refused('DELETE', `/api/groups/${groupId}/members/${target.id}`, mod, 403, 'IM_ERR_FORBIDDEN');
    }
    await refused('PUT', `/api/groups/${groupId}/members/${owner.id}/mute`, mod, 403, 'IM_ERR_FORBIDDEN', {
      seconds: 60,
    });
    // Below them: allowed.
    await ok('PUT', `/api/groups/${groupId}/members/${junior.id}/mute`, mod, { seconds: 60 }, 204);
    await ok('DELETE', `/api/groups/${groupId}/members/${junior.id}`, mod, undefined, 204);
  });
});
