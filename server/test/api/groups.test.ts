import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PERMISSIONS, type Group, type Invite, type Member, type Page, type Panel } from '@im/protocol';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';

type Err = { error: { code: string; message: string } };
describe('groups, members, panels and invites over HTTP', () => {
  const { api } = apiSuite(import.meta.url);
  const events: Array<{ name: string; params: Record<string, unknown> }> = [];

  before(async () => {
    // A listener like the realtime gateway: records what the group service broadcasts.
    api.broker.createService({
      name: 'event-recorder',
      events: {
        'group.**': (ctx) => {
          events.push({ name: ctx.eventName ?? '', params: ctx.params as Record<string, unknown> });
        },
      },
    });
    await api.broker.waitForServices(['event-recorder']);
  });

  const createGroup = async (owner: User, name = 'Team') => {
    const res = await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name } });
    assert.equal(res.status, 201);
    return res.body;
  };
  const invite = async (by: User, groupId: string, body: Record<string, unknown> = {}) => {
    const res = await api.request<Invite>('POST', `/api/groups/${groupId}/invites`, { token: by.token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const join = (user: User, code: string) =>
    api.request<Group>('POST', `/api/invites/${code}/accept`, { token: user.token });
  const waitForEvent = async (name: string, match: (p: Record<string, unknown>) => boolean) => {
    for (let i = 0; i < 100; i += 1) {
      const found = events.find((e) => e.name === name && match(e.params));
      if (found) return found.params;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${name} event`);
  };

  it('creates a group with a "general" text panel, owned by its creator', async () => {
    const owner = await api.user();
    const group = await createGroup(owner, '  Book club ');
    assert.equal(group.name, 'Book club');
    assert.equal(group.ownerId, owner.id);
    assert.equal(group.myRole, 'owner');
    assert.equal(group.memberCount, 1);
    assert.equal(group.panels.length, 1);
    assert.equal(group.panels[0]!.name, 'general');
    assert.equal(group.panels[0]!.type, 'text');
    assert.match(group.panels[0]!.converseId, /^[0-9a-f]{24}$/);
    const list = await api.request<Group[]>('GET', '/api/groups', { token: owner.token });
    assert.deepEqual(list.body, [group]);
  });

  it('hides a group from non-members (404, same as a missing one)', async () => {
    const owner = await api.user();
    const stranger = await api.user();
    const group = await createGroup(owner);
    const res = await api.request<Err>('GET', `/api/groups/${group.id}`, { token: stranger.token });
    assert.equal(res.status, 404);
    const missing = await api.request<Err>('GET', '/api/groups/0123456789abcdef01234567', { token: stranger.token });
    assert.deepEqual(res.body, missing.body);
    for (const [method, path] of [
      ['GET', `/api/groups/${group.id}/members`],
      ['PATCH', `/api/groups/${group.id}`],
      ['POST', `/api/groups/${group.id}/invites`],
      ['DELETE', `/api/groups/${group.id}`],
    ] as const) {
      const r = await api.request(method, path, {
        token: stranger.token,
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      });
      assert.equal(r.status, 404, `${method} ${path}`);
    }
  });

  it('joins by invite; members cannot rename, delete or add panels; the owner promotes an admin who can', async () => {
    const owner = await api.user();
    const member = await api.user();
    const group = await createGroup(owner);
    const { code } = await invite(owner, group.id);
    const joined = await join(member, code);
    assert.equal(joined.status, 200);
    assert.equal(joined.body.myRole, 'member');
    assert.equal(joined.body.memberCount, 2);
    const ev = await waitForEvent('group.member.joined', (p) => p.userId === member.id);
    assert.deepEqual(ev, {
      groupId: group.id,
      userId: member.id,
      role: 'member',
      converseIds: [group.panels[0]!.converseId],
      memberCount: 2,
    });

    for (const [method, path, body] of [
      ['PATCH', `/api/groups/${group.id}`, { name: 'Mine now' }],
      ['DELETE', `/api/groups/${group.id}`, undefined],
      ['POST', `/api/groups/${group.id}/panels`, { name: 'side', type: 'text' }],
      ['PUT', `/api/groups/${group.id}/members/${member.id}/role`, { role: 'admin' }],
    ] as const) {
      const res = await api.request<Err>(method, path, { token: member.token, ...(body ? { body } : {}) });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error.code, 'IM_ERR_FORBIDDEN');
    }
    assert.equal(
      (await api.request<Group>('GET', `/api/groups/${group.id}`, { token: owner.token })).body.name,
      'Team',
    );

    const promoted = await api.request<Member>('PUT', `/api/groups/${group.id}/members/${member.id}/role`, {
      token: owner.token,
      body: { role: 'admin' },
    });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.role, 'admin');
    assert.equal(promoted.body.user.id, member.id);
    const renamed = await api.request<Group>('PATCH', `/api/groups/${group.id}`, {
      token: member.token,
      body: { name: 'Renamed' },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed');
    assert.equal(renamed.body.myRole, 'admin');
    const updated = await waitForEvent('group.updated', (p) => (p.group as Group).id === group.id);
    assert.equal((updated.group as Group).name, 'Renamed');
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}`, { token: member.token })).status,
      403,
      'only the owner deletes',
    );
    const ownerRole = await api.request('PUT', `/api/groups/${group.id}/members/${owner.id}/role`, {
      token: owner.token,
      body: { role: 'member' },
    });
    assert.equal(ownerRole.status, 403);
  });

  it('admins kick plain members but not the owner or other admins; the owner cannot leave', async () => {
    const owner = await api.user();
    const [admin1, admin2, plain] = [await api.user(), await api.user(), await api.user()];
    const group = await createGroup(owner);
    const { code } = await invite(owner, group.id);
    for (const u of [admin1, admin2, plain]) assert.equal((await join(u, code)).status, 200);
    for (const a of [admin1, admin2]) {
      assert.equal(
        (
          await api.request('PUT', `/api/groups/${group.id}/members/${a.id}/role`, {
            token: owner.token,
            body: { role: 'admin' },
          })
        ).status,
        200,
      );
    }
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${owner.id}`, { token: admin1.token })).status,
      403,
    );
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${admin2.id}`, { token: admin1.token })).status,
      403,
    );
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${admin1.id}`, { token: plain.token })).status,
      403,
    );
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${plain.id}`, { token: admin1.token })).status,
      204,
    );
    const left = await waitForEvent('group.member.left', (p) => p.userId === plain.id);
    assert.equal(left.removedBy, admin1.id);
    assert.equal((await api.request('GET', `/api/groups/${group.id}`, { token: plain.token })).status, 404);
    const ownerLeaves = await api.request<Err>('DELETE', `/api/groups/${group.id}/members/${owner.id}`, {
      token: owner.token,
    });
    assert.equal(ownerLeaves.status, 403);
    // The owner may remove an admin; an admin may leave.
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${admin2.id}`, { token: owner.token })).status,
      204,
    );
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${admin1.id}`, { token: admin1.token })).status,
      204,
    );
    const g = await api.request<Group>('GET', `/api/groups/${group.id}`, { token: owner.token });
    assert.equal(g.body.memberCount, 1);
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${plain.id}`, { token: owner.token })).status,
      404,
    );
  });

  it('lists members page by page with a cursor, each exactly once', async () => {
    const owner = await api.user();
    const group = await createGroup(owner);
    const { code } = await invite(owner, group.id);
    const joined = [owner.id];
    for (let i = 0; i < 6; i += 1) {
      const u = await api.user();
      await join(u, code);
      joined.push(u.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Page<Member> } = await api.request<Page<Member>>(
        'GET',
        `/api/groups/${group.id}/members?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        { token: owner.token },
      );
      assert.equal(res.status, 200);
      assert.ok(res.body.items.length <= 3);
      seen.push(...res.body.items.map((m) => m.user.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, joined);
    assert.equal(
      (await api.request('GET', `/api/groups/${group.id}/members?limit=0`, { token: owner.token })).status,
      400,
    );
    assert.equal(
      (await api.request('GET', `/api/groups/${group.id}/members?cursor=abc`, { token: owner.token })).status,
      400,
    );
  });

  it('manages panels (owner/admin) and tells listeners', async () => {
    const owner = await api.user();
    const group = await createGroup(owner);
    const created = await api.request<Panel>('POST', `/api/groups/${group.id}/panels`, {
      token: owner.token,
      body: { name: 'random', type: 'text' },
    });
    assert.equal(created.status, 201);
    assert.notEqual(created.body.converseId, group.panels[0]!.converseId);
    await waitForEvent('group.panel.created', (p) => (p.panel as Panel).id === created.body.id);
    const renamed = await api.request<Panel>('PATCH', `/api/groups/${group.id}/panels/${created.body.id}`, {
      token: owner.token,
      body: { name: 'off-topic' },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'off-topic');
    assert.equal(
      (
        await api.request('POST', `/api/groups/${group.id}/panels`, {
          token: owner.token,
          body: { name: 'video', type: 'video' },
        })
      ).status,
      400,
      'a panel type that does not exist',
    );
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/panels/${created.body.id}`, { token: owner.token })).status,
      204,
    );
    await waitForEvent(
      'group.panel.deleted',
      (p) => p.panelId === created.body.id && p.converseId === created.body.converseId,
    );
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/panels/${created.body.id}`, { token: owner.token })).status,
      404,
    );
    const g = await api.request<Group>('GET', `/api/groups/${group.id}`, { token: owner.token });
    assert.deepEqual(
      g.body.panels.map((p) => p.name),
      ['general'],
    );
  });

  it('an empty PATCH of a panel, a role or a user group is 400, as the document declares (minProperties: 1)', async () => {
    const owner = await api.user();
    const group = await createGroup(owner);
    const made = async (path: string, body: Record<string, unknown>) => {
      const res = await api.request<{ id: string }>('POST', path, { token: owner.token, body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id;
    };
    const roleId = await made(`/api/groups/${group.id}/roles`, { name: 'helpers', permissions: [] });
    const userGroupId = await made(`/api/groups/${group.id}/user-groups`, {
      handle: 'crew',
      name: 'Crew',
      memberIds: [owner.id],
    });
    const doc = (await (await fetch(`${api.base}/api/openapi.json`)).json()) as {
      paths: Record<
        string,
        { patch: { requestBody: { required: boolean; content: Record<string, { schema: object }> } } }
      >;
    };
    for (const [documented, path] of [
      ['/api/groups/{groupId}/panels/{panelId}', `/api/groups/${group.id}/panels/${group.panels[0]!.id}`],
      ['/api/groups/{groupId}/roles/{roleId}', `/api/groups/${group.id}/roles/${roleId}`],
      ['/api/groups/{groupId}/user-groups/{userGroupId}', `/api/groups/${group.id}/user-groups/${userGroupId}`],
    ] as const) {
      const body = doc.paths[documented]!.patch.requestBody;
      assert.equal(body.required, true, documented);
      assert.equal((body.content['application/json']!.schema as { minProperties?: number }).minProperties, 1);
      const empty = await api.request<Err>('PATCH', path, { token: owner.token, body: {} });
      assert.equal(empty.status, 400, path);
      assert.equal(empty.body.error.code, 'IM_ERR_VALIDATION');
    }
    // The group itself takes an empty change (nothing changes), and says so: no minProperties.
    const same = await api.request<Group>('PATCH', `/api/groups/${group.id}`, { token: owner.token, body: {} });
    assert.equal(same.status, 200);
    assert.equal(same.body.name, group.name);
  });

  it('allow lists on a panel that is not private are 400, a reason the document gives for its 400', async () => {
    const owner = await api.user();
    const group = await createGroup(owner);
    const create = await api.request<Err>('POST', `/api/groups/${group.id}/panels`, {
      token: owner.token,
      body: { name: 'open', type: 'text', private: false, allowUserIds: [owner.id] },
    });
    assert.equal(create.status, 400);
    assert.equal(create.body.error.code, 'IM_ERR_VALIDATION');
    const update = await api.request<Err>('PATCH', `/api/groups/${group.id}/panels/${group.panels[0]!.id}`, {
      token: owner.token,
      body: { allowUserIds: [owner.id] },
    });
    assert.equal(update.status, 400);
    const doc = (await (await fetch(`${api.base}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    assert.match(doc.paths['/api/groups/{groupId}/panels']!.post!.responses['400']!.description, /allowUserIds/);
    assert.match(
      doc.paths['/api/groups/{groupId}/panels/{panelId}']!.patch!.responses['400']!.description,
      /allowUserIds/,
    );
  });

  it('refuses expired and used-up invites; accepting twice uses nothing', async () => {
    const owner = await api.user();
    const group = await createGroup(owner);
    const once = await invite(owner, group.id, { maxUses: 1 });
    assert.equal(once.maxUses, 1);
    const first = await api.user();
    assert.equal((await join(first, once.code)).status, 200);
    assert.equal((await join(first, once.code)).status, 200, 'a member accepting again is fine');
    const late = await join(await api.user(), once.code);
    assert.equal(late.status, 404);
    assert.equal((late.body as unknown as Err).error.code, 'IM_ERR_NOT_FOUND');

    const short = await invite(owner, group.id, { expiresInSec: 1 });
    assert.ok(Date.parse(short.expiresAt) - Date.now() <= 1000);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await join(await api.user(), short.code)).status, 404);
    assert.equal((await join(await api.user(), 'no-such-code')).status, 404);
    for (const body of [
      { maxUses: 0 },
      { expiresInSec: 0 },
      { expiresInSec: 31_536_001 },
      { maxUses: 1.5 },
      { maxUses: '3' },
    ]) {
      assert.equal(
        (await api.request('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body })).status,
        400,
        JSON.stringify(body),
      );
    }
    const g = await api.request<Group>('GET', `/api/groups/${group.id}`, { token: owner.token });
    assert.equal(g.body.memberCount, 2);
  });

  it('lets exactly one of five concurrent accepts of a one-use invite win', async () => {
    const owner = await api.user();
    const group = await createGroup(owner);
    const { code } = await invite(owner, group.id, { maxUses: 1 });
    const users = await Promise.all(Array.from({ length: 5 }, () => api.user()));
    const results = await Promise.all(users.map((u) => join(u, code)));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 404, 404, 404, 404]);
    const g = await api.request<Group>('GET', `/api/groups/${group.id}`, { token: owner.token });
    assert.equal(g.body.memberCount, 2);
    assert.equal(
      await api.node.app
        .mongo!.collection('members')
        .countDocuments({ groupId: new (await import('mongoose')).Types.ObjectId(group.id) }),
      2,
    );
  });

  it('deleting a group removes its panels, members and invites', async () => {
    const owner = await api.user();
    const member = await api.user();
    const group = await createGroup(owner);
    const { code } = await invite(owner, group.id);
    await join(member, code);
    const oid = new (await import('mongoose')).Types.ObjectId(group.id);
    const db = api.node.app.mongo!;
    assert.equal(await db.collection('members').countDocuments({ groupId: oid }), 2);
    assert.equal((await api.request('DELETE', `/api/groups/${group.id}`, { token: owner.token })).status, 204);
    const ev = await waitForEvent('group.deleted', (p) => p.groupId === group.id);
    assert.deepEqual(ev.converseIds, [group.panels[0]!.converseId]);
    assert.equal(await db.collection('groups').countDocuments({ _id: oid }), 0);
    assert.equal(await db.collection('members').countDocuments({ groupId: oid }), 0);
    assert.equal(await db.collection('invites').countDocuments({ groupId: oid }), 0);
    assert.equal((await api.request('GET', `/api/groups/${group.id}`, { token: owner.token })).status, 404);
    assert.equal((await join(await api.user(), code)).status, 404);
    assert.deepEqual((await api.request<Group[]>('GET', '/api/groups', { token: member.token })).body, []);
  });

  it('answers converse membership from the cache and forgets it on kick, panel delete and group delete', async () => {
    const owner = await api.user();
    const member = await api.user();
    const group = await createGroup(owner);
    const converseId = group.panels[0]!.converseId;
    const lookup = (userId: string, c = converseId) =>
      api.broker.call('group.converseMember', { converseId: c, userId });
    assert.equal(await lookup(member.id), null);
    const { code } = await invite(owner, group.id);
    await join(member, code);
    assert.deepEqual(await lookup(member.id), {
      groupId: group.id,
      role: 'member',
      postingRole: 'member',
      permissions: ['createInvites'],
    });
    await api.request('PUT', `/api/groups/${group.id}/members/${member.id}/role`, {
      token: owner.token,
      body: { role: 'admin' },
    });
    assert.deepEqual(await lookup(member.id), {
      groupId: group.id,
      role: 'admin',
      postingRole: 'member',
      permissions: [...PERMISSIONS],
    });
    await api.request('DELETE', `/api/groups/${group.id}/members/${member.id}`, { token: owner.token });
    assert.equal(await lookup(member.id), null);

    const side = (
      await api.request<Panel>('POST', `/api/groups/${group.id}/panels`, {
        token: owner.token,
        body: { name: 'side', type: 'text' },
      })
    ).body;
    assert.deepEqual(await lookup(owner.id, side.converseId), {
      groupId: group.id,
      role: 'owner',
      postingRole: 'member',
      permissions: [...PERMISSIONS],
    });
    await api.request('DELETE', `/api/groups/${group.id}/panels/${side.id}`, { token: owner.token });
    assert.equal(await lookup(owner.id, side.converseId), null);
    await api.request('DELETE', `/api/groups/${group.id}`, { token: owner.token });
    assert.equal(await lookup(owner.id), null);
  });
});
