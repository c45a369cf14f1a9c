import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEntry, AuditPage, Ban, Group, Invite, Member, Message, Page, Panel, Report } from '@im/protocol';
import { connectClient } from '../realtime/client.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { type ApiErrorBody } from './harness.ts';

type Err = ApiErrorBody;
/**
 * Moderation inside a group (invites, bans, mutes, announcement panels,
 * reports) and its audit log, against the single instance and real servers.
 */
describe('group moderation: invites, bans, mutes, announcement panels, reports, audit', () => {
  const { api, sockets, ok, refused } = apiSuite(import.meta.url);

  /** A group with an owner, an admin and two plain members. */
  const community = async () => {
    const [owner, admin, alice, bob] = await Promise.all([
      api.user('own'),
      api.user('adm'),
      api.user('ali'),
      api.user('bob'),
    ]);
    const group = await ok<Group>('POST', '/api/groups', owner!, { name: 'Community' }, 201);
    const invite = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, owner!, {}, 201);
    for (const u of [admin!, alice!, bob!]) await ok('POST', `/api/invites/${invite.code}/accept`, u);
    await ok('PUT', `/api/groups/${group.id}/members/${admin!.id}/role`, owner!, { role: 'admin' });
    return {
      owner: owner!,
      admin: admin!,
      alice: alice!,
      bob: bob!,
      group,
      converseId: group.panels[0]!.converseId,
      invite,
    };
  };
  const send = (user: User, converseId: string, content: string) =>
    api.request<Message & Err>('POST', `/api/converses/${converseId}/messages`, {
      token: user.token,
      body: { content },
    });
  const auditOf = async (by: User, groupId: string) =>
    (await ok<AuditPage>('GET', `/api/groups/${groupId}/audit?limit=100`, by)).items;
  const only = (entries: AuditEntry[], action: string, targetId: string) => {
    const found = entries.filter((e) => e.action === action && e.target.id === targetId);
    assert.equal(found.length, 1, `${action} on ${targetId}: ${JSON.stringify(entries)}`);
    return found[0]!;
  };

  describe('invites', () => {
    it('are listed with their uses for admins, and revocable by an admin or their creator', async () => {
      const { owner, admin, alice, bob, group, invite } = await community();
      const list = await ok<Invite[]>('GET', `/api/groups/${group.id}/invites`, admin);
      const first = list.find((i) => i.code === invite.code)!;
      assert.equal(first.uses, 3);
      assert.equal(first.createdBy, owner.id);
      assert.equal(first.maxUses, null);
      await refused('GET', `/api/groups/${group.id}/invites`, alice, 403, 'IM_ERR_FORBIDDEN');

      const mine = await ok<Invite>(
        'POST',
        `/api/groups/${group.id}/invites`,
        alice,
        { maxUses: 2, expiresInSec: 3600 },
        201,
      );
      assert.equal(mine.maxUses, 2);
      assert.equal(mine.uses, 0);
      assert.ok(Math.abs(Date.parse(mine.expiresAt) - Date.now() - 3_600_000) < 60_000);
      // Another plain member may not revoke it; its creator may.
      await refused('DELETE', `/api/groups/${group.id}/invites/${mine.code}`, bob, 403, 'IM_ERR_FORBIDDEN');
      await ok('DELETE', `/api/groups/${group.id}/invites/${mine.code}`, alice, undefined, 204);
      const outsider = await api.user('out');
      await refused('POST', `/api/invites/${mine.code}/accept`, outsider, 404, 'IM_ERR_NOT_FOUND');
      await refused('DELETE', `/api/groups/${group.id}/invites/${mine.code}`, alice, 404, 'IM_ERR_NOT_FOUND');

      // An admin revokes anyone's; the owner's first invite is then dead too.
      await ok('DELETE', `/api/groups/${group.id}/invites/${invite.code}`, admin, undefined, 204);
      await refused('POST', `/api/invites/${invite.code}/accept`, outsider, 404, 'IM_ERR_NOT_FOUND');
      const entries = await auditOf(owner, group.id);
      assert.equal(only(entries, 'invite.revoke', invite.code).actorId, admin.id);
      assert.equal(only(entries, 'invite.revoke', mine.code).actorId, alice.id);
    });
  });

  describe('bans', () => {
    it('remove the member and refuse every later join, even through an invite made before the ban', async () => {
      const { owner, admin, alice, bob, group, invite } = await community();
      const bobsInvite = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, bob, {}, 201);
      await ok('PUT', `/api/groups/${group.id}/bans/${bob.id}`, admin, { reason: 'spam links' }, 204);

      const members = await ok<Page<Member>>('GET', `/api/groups/${group.id}/members`, owner);
      assert.ok(!members.items.some((m) => m.user.id === bob.id));
      assert.equal((await ok<Group>('GET', `/api/groups/${group.id}`, owner)).memberCount, 3);
      await refused('GET', `/api/groups/${group.id}`, bob, 404, 'IM_ERR_NOT_FOUND');

      const before = await refused('POST', `/api/invites/${invite.code}/accept`, bob, 403, 'IM_ERR_BANNED');
      assert.match(before.error.message, /banned/i);
      const fresh = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, alice, {}, 201);
      await refused('POST', `/api/invites/${fresh.code}/accept`, bob, 403, 'IM_ERR_BANNED');
      // What the banned member had made stops working for everyone.
      await refused('POST', `/api/invites/${bobsInvite.code}/accept`, await api.user('new'), 404, 'IM_ERR_NOT_FOUND');

      const bans = await ok<Ban[]>('GET', `/api/groups/${group.id}/bans`, owner);
      assert.equal(bans.length, 1);
      assert.equal(bans[0]!.user.id, bob.id);
      assert.equal(bans[0]!.reason, 'spam links');
      assert.equal(bans[0]!.bannedBy, admin.id);
      assert.ok(Date.now() - Date.parse(bans[0]!.bannedAt) < 60_000);
      await refused('GET', `/api/groups/${group.id}/bans`, alice, 403, 'IM_ERR_FORBIDDEN');

      // Banning again changes nothing and is recorded once.
      await ok('PUT', `/api/groups/${group.id}/bans/${bob.id}`, owner, {}, 204);
      assert.equal((await ok<Ban[]>('GET', `/api/groups/${group.id}/bans`, owner))[0]!.reason, 'spam links');
      const ban = only(await auditOf(owner, group.id), 'member.ban', bob.id);
      assert.equal(ban.actorId, admin.id);
      assert.equal(ban.details.reason, 'spam links');
      assert.equal(ban.details.username, bob.username, 'the name as it was, for when the account is gone');

      await ok('DELETE', `/api/groups/${group.id}/bans/${bob.id}`, admin, undefined, 204);
      await refused('DELETE', `/api/groups/${group.id}/bans/${bob.id}`, admin, 404, 'IM_ERR_NOT_FOUND');
      assert.equal((await ok<Group>('POST', `/api/invites/${fresh.code}/accept`, bob)).id, group.id);
      only(await auditOf(owner, group.id), 'member.unban', bob.id);
    });

    it('follow the roles: nobody bans the owner or themself, admins only plain members, members nobody', async () => {
      const { owner, admin, alice, bob, group } = await community();
      await refused('PUT', `/api/groups/${group.id}/bans/${owner.id}`, admin, 403, 'IM_ERR_FORBIDDEN', {});
      await refused('PUT', `/api/groups/${group.id}/bans/${owner.id}`, owner, 403, 'IM_ERR_FORBIDDEN', {});
      await refused('PUT', `/api/groups/${group.id}/bans/${bob.id}`, alice, 403, 'IM_ERR_FORBIDDEN', {});
      const second = await api.user('adm');
      const invite = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
      await ok('POST', `/api/invites/${invite.code}/accept`, second);
      await ok('PUT', `/api/groups/${group.id}/members/${second.id}/role`, owner, { role: 'admin' });
      await refused('PUT', `/api/groups/${group.id}/bans/${second.id}`, admin, 403, 'IM_ERR_FORBIDDEN', {});
      await refused('PUT', `/api/groups/${group.id}/bans/${'0'.repeat(24)}`, owner, 404, 'IM_ERR_NOT_FOUND', {});
      await refused('PUT', `/api/groups/${group.id}/bans/${bob.id}`, owner, 400, 'IM_ERR_VALIDATION', {
        reason: 'x'.repeat(501),
      });
      // A ban of someone who already left keeps them out too.
      const outsider = await api.user('out');
      await ok('PUT', `/api/groups/${group.id}/bans/${outsider.id}`, admin, {}, 204);
      await refused('POST', `/api/invites/${invite.code}/accept`, outsider, 403, 'IM_ERR_BANNED');
      // The owner may ban an admin.
      await ok('PUT', `/api/groups/${group.id}/bans/${second.id}`, owner, {}, 204);
    });
  });

  describe('mutes', () => {
    it('stop sends (HTTP and socket), reactions and edits until the time passes; 0 lifts them', async () => {
      const { owner, admin, alice, group, converseId } = await community();
      const earlier = (await send(alice, converseId, 'before the mute')).body;
      const socket = await connectClient(api.base, alice.token);
      sockets.push(socket);

      await ok('PUT', `/api/groups/${group.id}/members/${alice.id}/mute`, admin, { seconds: 600 }, 204);
      const http = await send(alice, converseId, 'muted?');
      assert.equal(http.status, 403);
      assert.equal(http.body.error.code, 'IM_ERR_MUTED');
      const until = Date.parse(http.body.error.details!.mutedUntil!);
      assert.ok(Math.abs(until - Date.now() - 600_000) < 60_000);
      const overSocket = await socket.timeout(10_000).emitWithAck('message:send', { converseId, content: 'muted?' });
      assert.equal(overSocket.ok, false);
      assert.equal(!overSocket.ok && overSocket.error.code, 'IM_ERR_MUTED');
      await refused(
        'PUT',
        `/api/messages/${earlier.id}/reactions/${encodeURIComponent('👍')}`,
        alice,
        403,
        'IM_ERR_MUTED',
      );
      await refused('PATCH', `/api/messages/${earlier.id}`, alice, 403, 'IM_ERR_MUTED', { content: 'edited' });

      // The member and the admins see it; others still talk.
      const mine = (await ok<Group[]>('GET', '/api/groups', alice)).find((g) => g.id === group.id)!;
      assert.equal(Date.parse(mine.myMutedUntil!), until);
      const listed = (await ok<Page<Member>>('GET', `/api/groups/${group.id}/members`, owner)).items;
      assert.equal(Date.parse(listed.find((m) => m.user.id === alice.id)!.mutedUntil!), until);
      assert.equal((await send(owner, converseId, 'still open')).status, 201);
      const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, alice);
      assert.ok(!history.some((m) => m.content === 'muted?'), 'nothing of the refused sends was written');

      await ok('PUT', `/api/groups/${group.id}/members/${alice.id}/mute`, admin, { seconds: 0 }, 204);
      assert.equal((await send(alice, converseId, 'free again')).status, 201);
      assert.equal((await ok<Group>('GET', `/api/groups/${group.id}`, alice)).myMutedUntil, undefined);

      // A short mute ends by itself: no job, just the stored time.
      await ok('PUT', `/api/groups/${group.id}/members/${alice.id}/mute`, admin, { seconds: 1 }, 204);
      assert.equal((await send(alice, converseId, 'too soon')).status, 403);
      await new Promise((r) => setTimeout(r, 1_100));
      assert.equal((await send(alice, converseId, 'after it ended')).status, 201);

      const entries = await auditOf(owner, group.id);
      assert.equal(entries.filter((e) => e.action === 'member.mute' && e.target.id === alice.id).length, 2);
      only(entries, 'member.unmute', alice.id);
    });

    it('are for admins, not on the owner, and validated', async () => {
      const { owner, admin, alice, bob, group } = await community();
      await refused('PUT', `/api/groups/${group.id}/members/${bob.id}/mute`, alice, 403, 'IM_ERR_FORBIDDEN', {
        seconds: 60,
      });
      await refused('PUT', `/api/groups/${group.id}/members/${owner.id}/mute`, admin, 403, 'IM_ERR_FORBIDDEN', {
        seconds: 60,
      });
      await refused('PUT', `/api/groups/${group.id}/members/${admin.id}/mute`, admin, 403, 'IM_ERR_FORBIDDEN', {
        seconds: 60,
      });
      const outsider = await api.user('out');
      await refused('PUT', `/api/groups/${group.id}/members/${outsider.id}/mute`, admin, 404, 'IM_ERR_NOT_FOUND', {
        seconds: 60,
      });
      for (const seconds of [-1, 1.5, 31_536_001, '60', null])
        await refused('PUT', `/api/groups/${group.id}/members/${bob.id}/mute`, admin, 400, 'IM_ERR_VALIDATION', {
          seconds,
        });
      await refused('PUT', `/api/groups/${group.id}/members/${bob.id}/mute`, admin, 400, 'IM_ERR_VALIDATION', {});
    });
  });

  describe('announcement panels', () => {
    it("let members read but only owners and admins post when postingRole is 'admin'", async () => {
      const { owner, admin, alice, group, converseId } = await community();
      const panelId = group.panels[0]!.id;
      await refused('PATCH', `/api/groups/${group.id}/panels/${panelId}`, alice, 403, 'IM_ERR_FORBIDDEN', {
        postingRole: 'admin',
      });
      await refused('PATCH', `/api/groups/${group.id}/panels/${panelId}`, admin, 400, 'IM_ERR_VALIDATION', {});
      await refused('PATCH', `/api/groups/${group.id}/panels/${panelId}`, admin, 400, 'IM_ERR_VALIDATION', {
        postingRole: 'owner',
      });
      const panel = await ok<Panel>('PATCH', `/api/groups/${group.id}/panels/${panelId}`, admin, {
        postingRole: 'admin',
      });
      assert.equal(panel.postingRole, 'admin');
      assert.equal(panel.name, 'general');

      const refusedSend = await send(alice, converseId, 'can I post?');
      assert.equal(refusedSend.status, 403);
      assert.equal(refusedSend.body.error.code, 'IM_ERR_FORBIDDEN');
      assert.equal((await send(admin, converseId, 'Release on Friday')).status, 201);
      assert.equal((await send(owner, converseId, 'Thanks all')).status, 201);
      const read = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, alice);
      assert.deepEqual(
        read.map((m) => m.content),
        ['Release on Friday', 'Thanks all'],
      );
      const seen = (await ok<Group>('GET', `/api/groups/${group.id}`, alice)).panels[0]!;
      assert.equal(seen.postingRole, 'admin');

      await ok<Panel>('PATCH', `/api/groups/${group.id}/panels/${panelId}`, owner, { postingRole: 'member' });
      assert.equal((await send(alice, converseId, 'now I can')).status, 201);
      const changes = (await auditOf(owner, group.id)).filter((e) => e.action === 'panel.update');
      assert.deepEqual(
        changes.map((e) => e.details.postingRole),
        ['member', 'admin'],
      );
    });
  });

  describe('reports', () => {
    it('go to the group admins, who delete the message from the queue; everything is recorded once', async () => {
      const { owner, admin, alice, bob, group, converseId } = await community();
      const bad = (await send(bob, converseId, 'buy cheap followers at spam.example')).body;
      const report = await ok<Report>('POST', `/api/messages/${bad.id}/report`, alice, { reason: 'spam' }, 201);
      assert.equal(report.status, 'open');
      assert.equal(report.groupId, group.id);
      assert.equal(report.message.content, bad.content);
      assert.equal(report.message.authorId, bob.id);
      await refused('POST', `/api/messages/${bad.id}/report`, alice, 409, 'IM_ERR_CONFLICT', { reason: 'again' });
      await refused('POST', `/api/messages/${bad.id}/report`, await api.user('out'), 404, 'IM_ERR_NOT_FOUND', {
        reason: 'x',
      });
      await refused('POST', `/api/messages/${bad.id}/report`, owner, 400, 'IM_ERR_VALIDATION', { reason: '   ' });
      await ok<Report>('POST', `/api/messages/${bad.id}/report`, owner, { reason: 'spam too' }, 201);

      await refused('GET', `/api/groups/${group.id}/reports`, alice, 403, 'IM_ERR_FORBIDDEN');
      const queue = await ok<Report[]>('GET', `/api/groups/${group.id}/reports`, admin);
      assert.equal(queue.length, 2);
      assert.equal(queue[1]!.reporter?.id, alice.id);
      assert.equal(queue[1]!.author?.id, bob.id);

      const resolved = await ok<Report>('POST', `/api/groups/${group.id}/reports/${report.id}/resolve`, admin, {
        action: 'delete',
      });
      assert.equal(resolved.status, 'deleted');
      assert.equal(resolved.resolvedBy, admin.id);
      const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, alice);
      const gone = history.find((m) => m.id === bad.id)!;
      assert.equal(gone.deleted, true);
      assert.equal(gone.content, '');
      assert.deepEqual(await ok<Report[]>('GET', `/api/groups/${group.id}/reports`, admin), []);
      await refused('POST', `/api/groups/${group.id}/reports/${report.id}/resolve`, owner, 409, 'IM_ERR_CONFLICT', {
        action: 'dismiss',
      });

      const entries = await auditOf(owner, group.id);
      const deletion = only(entries, 'message.delete', bad.id);
      assert.equal(deletion.actorId, admin.id);
      assert.equal(deletion.details.authorId, bob.id);
      assert.equal(only(entries, 'report.resolve', report.id).details.outcome, 'deleted');

      // A dismissal closes the report and leaves the message.
      const fine = (await send(bob, converseId, 'a fine message')).body;
      const second = await ok<Report>('POST', `/api/messages/${fine.id}/report`, alice, { reason: 'I disagree' }, 201);
      await refused('POST', `/api/groups/${group.id}/reports/${second.id}/resolve`, alice, 403, 'IM_ERR_FORBIDDEN', {
        action: 'dismiss',
      });
      const dismissed = await ok<Report>('POST', `/api/groups/${group.id}/reports/${second.id}/resolve`, owner, {
        action: 'dismiss',
      });
      assert.equal(dismissed.status, 'dismissed');
      const kept = await ok<Message>('GET', `/api/messages/${fine.id}`, alice);
      assert.equal(kept.content, 'a fine message');
      assert.equal(only(await auditOf(owner, group.id), 'report.resolve', second.id).details.outcome, 'dismissed');
    });
  });

  describe('the audit log', () => {
    it('records kicks, role changes and panel and group deletions; group admins page through their own', async () => {
      const { owner, admin, alice, bob, group } = await community();
      await ok('DELETE', `/api/groups/${group.id}/members/${bob.id}`, admin, undefined, 204);
      await ok('PUT', `/api/groups/${group.id}/members/${alice.id}/role`, owner, { role: 'admin' });
      const panel = await ok<Panel>(
        'POST',
        `/api/groups/${group.id}/panels`,
        owner,
        { name: 'old', type: 'text' },
        201,
      );
      await ok('DELETE', `/api/groups/${group.id}/panels/${panel.id}`, admin, undefined, 204);
      // Leaving on one's own is no moderation action.
      await ok('DELETE', `/api/groups/${group.id}/members/${alice.id}`, alice, undefined, 204);

      const first = await ok<AuditPage>('GET', `/api/groups/${group.id}/audit?limit=2`, owner);
      assert.equal(first.items.length, 2);
      assert.ok(first.nextCursor);
      const rest = await ok<AuditPage>('GET', `/api/groups/${group.id}/audit?cursor=${first.nextCursor}`, owner);
      const all = [...first.items, ...rest.items];
      assert.deepEqual(
        all.map((e) => e.action),
        ['panel.delete', 'member.role', 'member.kick', 'member.role'],
        'newest first',
      );
      assert.ok(all.every((e, i) => i === 0 || Date.parse(all[i - 1]!.at) >= Date.parse(e.at)));
      assert.equal(only(all, 'member.kick', bob.id).actorId, admin.id);
      assert.deepEqual(only(all, 'member.role', alice.id).details, {
        username: alice.username,
        from: 'member',
        to: 'admin',
      });
      assert.equal(only(all, 'panel.delete', panel.id).details.name, 'old');
      assert.ok(all.every((e) => e.groupId === group.id));
      await refused('GET', `/api/groups/${group.id}/audit`, bob, 404, 'IM_ERR_NOT_FOUND');
      const member = await api.user('mem');
      const invite = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
      await ok('POST', `/api/invites/${invite.code}/accept`, member);
      await refused('GET', `/api/groups/${group.id}/audit`, member, 403, 'IM_ERR_FORBIDDEN');
      await refused('GET', `/api/groups/${group.id}/audit?limit=0`, owner, 400, 'IM_ERR_VALIDATION');
      await refused('GET', `/api/groups/${group.id}/audit?cursor=nope`, owner, 400, 'IM_ERR_VALIDATION');

      await ok('DELETE', `/api/groups/${group.id}`, owner, undefined, 204);
      const deleted = await api.node.app
        .mongo!.collection('audit')
        .find({ action: 'group.delete', 'target.id': group.id })
        .toArray();
      assert.equal(deleted.length, 1);
    });
  });
});
