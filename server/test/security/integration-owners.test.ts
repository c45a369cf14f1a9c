import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type {
  BotWithToken,
  CommandAccepted,
  Group,
  IncomingWebhook,
  IncomingWebhookWithUrl,
  Message,
  OutgoingWebhook,
  OutgoingWebhookWithSecret,
  Role,
  SlashCommand,
  SlashCommandWithSecret,
  WebhookDelivery,
} from '@im/protocol';
import { eventually, expectations, startApi, type ApiHarness } from '../api/harness.ts';
import { receiverPool } from '../integrations/receiver.ts';

type Account = Awaited<ReturnType<ApiHarness['user']>>;

/**
 * What a group admin made keeps nothing working for them once they are no
 * longer an admin of the group (kicked, left, demoted, account deleted):
 * their integrations are suspended until a current admin renews them.
 */
describe('integrations of an admin who is removed', () => {
  let api: ApiHarness;
  const { start: receiver, closeAll } = receiverPool();
  before(async () => {
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
  });
  after(async () => {
    await closeAll();
    await api.close();
  });
  const { ok, refused } = expectations(() => api);
  const postToHook = (hook: IncomingWebhookWithUrl, text: string) => api.request('POST', hook.url, { body: { text } });

  /** A group whose owner made `admins` admins. */
  const groupWithAdmins = async (admins: number) => {
    const owner = await api.user('own');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Integrations' }, 201);
    const { code } = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    const made: Account[] = [];
    for (let i = 0; i < admins; i += 1) {
      const admin = await api.user('adm');
      await ok('POST', `/api/invites/${code}/accept`, admin);
      await ok('PUT', `/api/groups/${group.id}/members/${admin.id}/role`, owner, { role: 'admin' });
      made.push(admin);
    }
    return { owner, group, admins: made, panelId: group.panels[0]!.id, converseId: group.panels[0]!.converseId };
  };
  const incomingOf = (groupId: string, by: Account, panelId: string, name: string) =>
    ok<IncomingWebhookWithUrl>('POST', `/api/groups/${groupId}/webhooks/incoming`, by, { panelId, name }, 201);
  const incomingList = (groupId: string, user: Account) =>
    ok<IncomingWebhook[]>('GET', `/api/groups/${groupId}/webhooks/incoming`, user);
  const suspendedHook = (groupId: string, hookId: string, user: Account) =>
    eventually(
      () => incomingList(groupId, user),
      (hooks) => hooks.find((h) => h.id === hookId)?.suspended === true,
    );

  it('kicked: their bot token, incoming hook, outgoing hook and command stop; the rest of the group goes on', async () => {
    const { owner, group, admins, panelId, converseId } = await groupWithAdmins(1);
    const admin = admins[0]!;
    const theirs = await receiver(() => ({ status: 200, body: { text: 'from the removed admin' } }));
    const ours = await receiver(() => ({ status: 200 }));

    const bot = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots`, admin, { name: 'Theirs' }, 201);
    const incoming = await incomingOf(group.id, admin, panelId, 'CI');
    const outgoing = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      admin,
      { url: theirs.url },
      201,
    );
    await ok<SlashCommandWithSecret>(
      'POST',
      `/api/groups/${group.id}/commands`,
      admin,
      { trigger: 'leak', url: theirs.url },
      201,
    );
    const ownersHook = await incomingOf(group.id, owner, panelId, 'Owner CI');
    const ownersOutgoing = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url: ours.url },
      201,
    );
    // Before: all of it works for them.
    assert.equal((await postToHook(incoming, 'before')).status, 200);
    assert.equal((await api.request('GET', `/api/groups/${group.id}`, { token: bot.token })).status, 200);

    await ok('DELETE', `/api/groups/${group.id}/members/${admin.id}`, owner, undefined, 204);
    const hooks = await suspendedHook(group.id, incoming.id, owner);
    assert.equal(hooks.find((h) => h.id === ownersHook.id)?.suspended, undefined, "the owner's hook is untouched");

    assert.equal((await postToHook(incoming, 'after')).status, 404, 'their hook URL stops');
    await refused('GET', `/api/groups/${group.id}`, { token: bot.token }, 401, 'IM_ERR_UNAUTHORIZED');
    const listedOut = await ok<OutgoingWebhook[]>('GET', `/api/groups/${group.id}/webhooks/outgoing`, owner);
    assert.equal(listedOut.find((h) => h.id === outgoing.id)?.suspended, true);
    assert.equal(listedOut.find((h) => h.id === ownersOutgoing.id)?.suspended, undefined);
    const commands = await ok<SlashCommand[]>('GET', `/api/groups/${group.id}/commands`, owner);
    assert.equal(commands[0]!.suspended, true);

    // New messages reach the owner's hook, not theirs; their command calls nothing.
    const before = theirs.received.length;
    await ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, { content: 'secret plans' }, 201);
    const log = await eventually(
      () =>
        ok<WebhookDelivery[]>(
          'GET',
          `/api/groups/${group.id}/webhooks/outgoing/${ownersOutgoing.id}/deliveries`,
          owner,
        ),
      (entries) => entries.some((d) => d.status === 'delivered'),
    );
    assert.ok(log.some((d) => d.status === 'delivered'));
    const theirLog = await ok<WebhookDelivery[]>(
      'GET',
      `/api/groups/${group.id}/webhooks/outgoing/${outgoing.id}/deliveries`,
      owner,
    );
    assert.deepEqual(theirLog, []);
    const run = await api.request<CommandAccepted>('POST', `/api/converses/${converseId}/messages`, {
      token: owner.token,
      body: { content: '/leak now' },
    });
    assert.equal(run.status, 202, JSON.stringify(run.body));
    assert.equal(theirs.received.length, before, 'nothing reached the removed admin');
    assert.equal((await postToHook(ownersHook, 'still fine')).status, 200);

    // A current admin renews them: a new secret (URL), and they work again.
    const renewed = await ok<IncomingWebhookWithUrl>(
      'POST',
      `/api/groups/${group.id}/webhooks/incoming/${incoming.id}/secret`,
      owner,
    );
    assert.equal(renewed.suspended, undefined);
    assert.notEqual(renewed.url, incoming.url);
    assert.equal((await postToHook(renewed, 'renewed')).status, 200);
    assert.equal((await postToHook(incoming, 'old url')).status, 404);
    const renewedOut = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing/${outgoing.id}/secret`,
      owner,
    );
    assert.equal(renewedOut.suspended, undefined);
    const fresh = await ok<BotWithToken>('POST', `/api/groups/${group.id}/bots/${bot.bot.id}/token`, owner);
    assert.equal((await api.request('GET', `/api/groups/${group.id}`, { token: fresh.token })).status, 200);
  });

  it("the list shows no hook's secret: an admin who is removed keeps no working URL they only saw there", async () => {
    const { owner, group, admins, panelId } = await groupWithAdmins(2);
    const [maker, other] = admins as [Account, Account];
    const made = await incomingOf(group.id, maker, panelId, 'CI');
    const secret = made.url.split('/').at(-1)!;
    const listed = await api.request<IncomingWebhook[]>('GET', `/api/groups/${group.id}/webhooks/incoming`, {
      token: other.token,
    });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.some((h) => h.id === made.id));
    assert.ok(!JSON.stringify(listed.body).includes(secret), 'no secret in the list');
    assert.ok(listed.body.every((h) => !('url' in h)));
    await ok('DELETE', `/api/groups/${group.id}/members/${other.id}`, owner, undefined, 204);
    assert.equal((await postToHook(made, 'maker still here')).status, 200);
  });

  it('whoever renews a secret holds it: the hook stops when the renewer is removed, and works once renewed again', async () => {
    const { owner, group, admins, panelId } = await groupWithAdmins(2);
    const [maker, renewer] = admins as [Account, Account];
    const made = await incomingOf(group.id, maker, panelId, 'CI');
    const renewed = await ok<IncomingWebhookWithUrl>(
      'POST',
      `/api/groups/${group.id}/webhooks/incoming/${made.id}/secret`,
      renewer,
    );
    assert.equal((await postToHook(renewed, 'renewed')).status, 200);
    const untouched = await incomingOf(group.id, maker, panelId, 'Not renewed');
    // The same for an outgoing hook and a command the maker made and the renewer renewed.
    const target = await receiver(() => ({ status: 200 }));
    const outgoing = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      maker,
      { url: target.url },
      201,
    );
    const command = await ok<SlashCommandWithSecret>(
      'POST',
      `/api/groups/${group.id}/commands`,
      maker,
      { trigger: 'renewed', url: target.url },
      201,
    );
    await ok('POST', `/api/groups/${group.id}/webhooks/outgoing/${outgoing.id}/secret`, renewer);
    await ok('POST', `/api/groups/${group.id}/commands/${command.id}/secret`, renewer);

    await ok('DELETE', `/api/groups/${group.id}/members/${renewer.id}`, owner, undefined, 204);
    await suspendedHook(group.id, made.id, maker);
    assert.equal((await postToHook(renewed, 'kept by the removed admin')).status, 404);
    assert.equal((await postToHook(untouched, 'never renewed: still the maker')).status, 200);
    const listedOut = await ok<OutgoingWebhook[]>('GET', `/api/groups/${group.id}/webhooks/outgoing`, maker);
    assert.equal(listedOut.find((h) => h.id === outgoing.id)?.suspended, true);
    const commands = await ok<SlashCommand[]>('GET', `/api/groups/${group.id}/commands`, maker);
    assert.equal(commands.find((c) => c.id === command.id)?.suspended, true);
    const again = await ok<IncomingWebhookWithUrl>(
      'POST',
      `/api/groups/${group.id}/webhooks/incoming/${made.id}/secret`,
      maker,
    );
    assert.equal((await postToHook(again, 'renewed by a current admin')).status, 200);
  });

  it('demoted, left, or account deleted: their hooks stop too; a remaining admin keeps theirs', async () => {
    const { owner, group, admins, panelId } = await groupWithAdmins(4);
    const [demoted, leaving, deleting, staying] = admins as [Account, Account, Account, Account];
    const hookOf = new Map<string, IncomingWebhookWithUrl>();
    for (const admin of admins) hookOf.set(admin.id, await incomingOf(group.id, admin, panelId, admin.username));

    await ok('PUT', `/api/groups/${group.id}/members/${demoted.id}/role`, owner, { role: 'member' });
    await ok('DELETE', `/api/groups/${group.id}/members/${leaving.id}`, leaving, undefined, 204);
    await ok('DELETE', '/api/users/me', deleting, undefined, 204);
    for (const gone of [demoted, leaving, deleting]) {
      await suspendedHook(group.id, hookOf.get(gone.id)!.id, owner);
      assert.equal((await postToHook(hookOf.get(gone.id)!, 'after')).status, 404, gone.username);
    }
    assert.equal((await postToHook(hookOf.get(staying.id)!, 'still here')).status, 200);
    const listed = await incomingList(group.id, owner);
    assert.equal(listed.find((h) => h.id === hookOf.get(staying.id)!.id)?.suspended, undefined);
  });

  it('a member who manages integrations through a role: theirs stop when the role, its permission or the member goes', async () => {
    const { owner, group, panelId } = await groupWithAdmins(0);
    const { code } = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    const join = async () => {
      const member = await api.user('mem');
      await ok('POST', `/api/invites/${code}/accept`, member);
      return member;
    };
    const [roleTaken, permissionDropped, roleDeleted, leaving, keeper, plain] = [
      await join(),
      await join(),
      await join(),
      await join(),
      await join(),
      await join(),
    ];
    const roleOf = async (name: string) =>
      ok<Role>('POST', `/api/groups/${group.id}/roles`, owner, { name, permissions: ['manageIntegrations'] }, 201);
    const give = (user: Account, role: Role) =>
      ok('PUT', `/api/groups/${group.id}/members/${user.id}/roles/${role.id}`, owner);
    const integrators = await roleOf('Integrators');
    const builders = await roleOf('Builders');
    const temporary = await roleOf('Temporary');
    for (const user of [roleTaken, leaving, keeper]) await give(user, integrators);
    await give(permissionDropped, builders);
    await give(roleDeleted, temporary);

    // Without the permission: 403; with it through a role, as an admin would.
    await refused('POST', `/api/groups/${group.id}/webhooks/incoming`, plain, 403, 'IM_ERR_FORBIDDEN', {
      panelId,
      name: 'nope',
    });
    const makers = [roleTaken, permissionDropped, roleDeleted, leaving, keeper];
    const hookOf = new Map<string, IncomingWebhookWithUrl>();
    for (const maker of makers) hookOf.set(maker.id, await incomingOf(group.id, maker, panelId, maker.username));
    const receiving = await receiver(() => ({ status: 200 }));
    await ok<SlashCommandWithSecret>(
      'POST',
      `/api/groups/${group.id}/commands`,
      keeper,
      { trigger: 'deploy', url: receiving.url },
      201,
    );
    // The command's url: for those who manage integrations only.
    assert.equal((await ok<SlashCommand[]>('GET', `/api/groups/${group.id}/commands`, keeper))[0]!.url, receiving.url);
    assert.equal((await ok<SlashCommand[]>('GET', `/api/groups/${group.id}/commands`, plain))[0]!.url, undefined);

    // The keeper is made admin and demoted again: the role still lets them manage, so theirs keep working.
    await ok('PUT', `/api/groups/${group.id}/members/${keeper.id}/role`, owner, { role: 'admin' });
    await ok('PUT', `/api/groups/${group.id}/members/${keeper.id}/role`, owner, { role: 'member' });

    await ok(
      'DELETE',
      `/api/groups/${group.id}/members/${roleTaken.id}/roles/${integrators.id}`,
      owner,
      undefined,
      204,
    );
    await ok('PATCH', `/api/groups/${group.id}/roles/${builders.id}`, owner, { permissions: [] });
    await ok('DELETE', `/api/groups/${group.id}/roles/${temporary.id}`, owner, undefined, 204);
    await ok('DELETE', `/api/groups/${group.id}/members/${leaving.id}`, leaving, undefined, 204);
    for (const gone of [roleTaken, permissionDropped, roleDeleted, leaving]) {
      await suspendedHook(group.id, hookOf.get(gone.id)!.id, owner);
      assert.equal((await postToHook(hookOf.get(gone.id)!, 'after')).status, 404, gone.username);
    }
    assert.equal((await postToHook(hookOf.get(keeper.id)!, 'still here')).status, 200);
    const listed = await incomingList(group.id, owner);
    assert.equal(listed.find((h) => h.id === hookOf.get(keeper.id)!.id)?.suspended, undefined);
    const commands = await ok<SlashCommand[]>('GET', `/api/groups/${group.id}/commands`, owner);
    assert.equal(commands[0]!.suspended, undefined);
  });
});
