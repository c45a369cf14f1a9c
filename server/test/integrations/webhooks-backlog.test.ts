import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Message, OutgoingWebhook, OutgoingWebhookWithSecret, WebhookDelivery } from '@im/protocol';
import { eventually, expectations, startApi, type ApiHarness } from '../api/harness.ts';
import { receiverPool } from './receiver.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
const WAITING = new Set(['pending', 'retrying']);

/** A group with one member besides its owner, and the helpers both tests use. */
function hookHarness(api: () => ApiHarness) {
  const { ok, refused } = expectations(api);
  const { start: receiver, closeAll } = receiverPool();
  const setUp = async () => {
    const owner = await api().user('wb');
    const member = await api().user('wb');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Backlog' }, 201);
    const invite = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, member);
    return { owner, member, group, converseId: group.panels[0]!.converseId };
  };
  const hook = (group: Group, owner: User, url: string) =>
    ok<OutgoingWebhookWithSecret>('POST', `/api/groups/${group.id}/webhooks/outgoing`, owner, { url }, 201);
  const log = (group: Group, hookId: string, owner: User) =>
    ok<WebhookDelivery[]>('GET', `/api/groups/${group.id}/webhooks/outgoing/${hookId}/deliveries`, owner);
  const hooks = (group: Group, owner: User) =>
    ok<OutgoingWebhook[]>('GET', `/api/groups/${group.id}/webhooks/outgoing`, owner);
  const send = (converseId: string, user: User, content: string) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, user, { content }, 201);
  return { ok, refused, setUp, receiver, hook, log, hooks, send, closeAll };
}

describe('outgoing webhooks: the backlog of a failing hook is capped (WEBHOOK_MAX_WAITING=5)', () => {
  let api: ApiHarness;
  const h = hookHarness(() => api);
  before(async () => {
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1', WEBHOOK_MAX_WAITING: '5' });
  });
  after(async () => {
    await h.closeAll();
    await api.close();
  });

  it('keeps the newest 5 waiting while the circuit is open and marks the older ones dropped', async () => {
    const { owner, group, converseId } = await h.setUp();
    const down = await h.receiver(() => ({ status: 500 }));
    const created = await h.hook(group, owner, down.url);
    // Five failures in a row open the hook's circuit.
    const first: Message[] = [];
    for (let i = 0; i < 5; i++) first.push(await h.send(converseId, owner, `first ${i}`));
    await eventually(
      () => h.log(group, created.id, owner),
      (l) => l.length === 5 && l.every((d) => d.attempts >= 1),
    );
    assert.equal(down.received.length, 5);
    // Meanwhile messages keep coming: they wait behind the open circuit.
    const later: Message[] = [];
    for (let i = 0; i < 10; i++) later.push(await h.send(converseId, owner, `later ${i}`));
    const entries = await eventually(
      () => h.log(group, created.id, owner),
      (l) => l.length === 15 && l.filter((d) => WAITING.has(d.status)).length === 5,
    );
    assert.equal(entries.length, 15);
    // The log is newest first: the five newest wait, the ten before them were dropped.
    assert.ok(entries.slice(0, 5).every((d) => WAITING.has(d.status)));
    assert.ok(entries.slice(5).every((d) => d.status === 'dropped' && d.nextAttemptAt === undefined));
    assert.equal(down.received.length, 5, 'nothing more was sent while the circuit was open');
  });
});

describe('outgoing webhooks: a hook failing past WEBHOOK_DISABLE_AFTER_MS is disabled', () => {
  let api: ApiHarness;
  const h = hookHarness(() => api);
  before(async () => {
    // The 24 h window shortened to 1 ms: a hook's second failure is past it.
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1', WEBHOOK_DISABLE_AFTER_MS: '1' });
  });
  after(async () => {
    await h.closeAll();
    await api.close();
  });

  it('gets no new deliveries once disabled; an admin re-enables it and it delivers again', async () => {
    const { owner, member, group, converseId } = await h.setUp();
    const failing = await h.receiver(() => ({ status: 503 }));
    const healthy = await h.receiver();
    const broken = await h.hook(group, owner, failing.url);
    const witness = await h.hook(group, owner, healthy.url);
    assert.equal((await h.hooks(group, owner)).find((x) => x.id === broken.id)!.disabled, false);

    await h.send(converseId, owner, 'one');
    await eventually(
      () => h.log(group, broken.id, owner),
      (l) => l[0]?.attempts === 1,
    );
    await h.send(converseId, owner, 'two');
    const listed = await eventually(
      () => h.hooks(group, owner),
      (list) => list.find((x) => x.id === broken.id)?.disabled === true,
    );
    assert.equal(listed.find((x) => x.id === broken.id)!.disabled, true);
    assert.equal(listed.find((x) => x.id === witness.id)!.disabled, false);
    const atDisable = await eventually(
      () => h.log(group, broken.id, owner),
      (l) => l.every((d) => !WAITING.has(d.status)),
    );
    assert.deepEqual(
      atDisable.map((d) => d.status),
      ['dropped', 'dropped'],
      'what was waiting is dropped with the hook',
    );

    // A disabled hook gets nothing: the healthy hook of the same group, which the same event reaches, is the witness.
    const three = await h.send(converseId, owner, 'three');
    await eventually(
      async () => healthy.received.some((r) => r.raw.includes(three.id)),
      (seen) => seen,
    );
    assert.equal((await h.log(group, broken.id, owner)).length, 2, 'no delivery for the disabled hook');
    assert.equal(failing.received.length, 2);

    // Only an admin re-enables it.
    const path = `/api/groups/${group.id}/webhooks/outgoing/${broken.id}`;
    await h.refused('PATCH', path, member, 403, 'IM_ERR_FORBIDDEN', { disabled: false });
    await h.refused('PATCH', path, owner, 400, 'IM_ERR_VALIDATION', { disabled: 'no' });
    failing.answer(() => ({ status: 200 }));
    const enabled = await h.ok<OutgoingWebhook>('PATCH', path, owner, { disabled: false });
    assert.equal(enabled.disabled, false);
    const four = await h.send(converseId, owner, 'four');
    const delivered = await eventually(
      () => h.log(group, broken.id, owner),
      (l) => l[0]?.status === 'delivered',
    );
    assert.equal(delivered[0]!.status, 'delivered');
    assert.ok(failing.received.at(-1)!.raw.includes(four.id));
  });
});

describe('outgoing webhooks: turning a hook back on, or renewing its secret, closes its circuit', () => {
  let api: ApiHarness;
  const h = hookHarness(() => api);
  before(async () => {
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
  });
  after(async () => {
    await h.closeAll();
    await api.close();
  });

  /** A hook whose receiver failed five times in a row: its circuit is open (for a minute), then it answers again. */
  const openCircuit = async () => {
    const { owner, group, converseId } = await h.setUp();
    const receiver = await h.receiver(() => ({ status: 500 }));
    const hook = await h.hook(group, owner, receiver.url);
    for (let i = 0; i < 5; i++) await h.send(converseId, owner, `failing ${i}`);
    await eventually(
      () => h.log(group, hook.id, owner),
      (l) => l.length === 5 && l.every((d) => d.attempts >= 1),
    );
    receiver.answer(() => ({ status: 200 }));
    return { owner, group, converseId, receiver, hook };
  };
  const deliveredTo = (receiver: { received: Array<{ raw: string }> }, message: Message) =>
    eventually(
      async () => receiver.received.some((r) => r.raw.includes(message.id)),
      (seen) => seen,
      15_000,
    );

  it('delivers the next message at once after an admin turns the hook back on', async () => {
    const { owner, group, converseId, receiver, hook } = await openCircuit();
    const path = `/api/groups/${group.id}/webhooks/outgoing/${hook.id}`;
    assert.equal((await h.ok<OutgoingWebhook>('PATCH', path, owner, { disabled: true })).disabled, true);
    assert.equal((await h.ok<OutgoingWebhook>('PATCH', path, owner, { disabled: false })).disabled, false);
    const next = await h.send(converseId, owner, 'back on');
    assert.equal(await deliveredTo(receiver, next), true, 'delivered, not held behind the circuit');
  });

  it('delivers the next message at once after an admin renews the secret', async () => {
    const { owner, group, converseId, receiver, hook } = await openCircuit();
    await h.ok('POST', `/api/groups/${group.id}/webhooks/outgoing/${hook.id}/secret`, owner);
    const next = await h.send(converseId, owner, 'new secret');
    assert.equal(await deliveredTo(receiver, next), true, 'delivered, not held behind the circuit');
  });
});
