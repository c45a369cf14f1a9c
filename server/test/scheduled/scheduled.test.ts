import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  Message,
  NotificationPage,
  Reminder,
  ReminderEntry,
  ScheduledAccepted,
  ScheduledEntry,
  ScheduledUpdatedEvent,
} from '@im/protocol';
import { Types } from 'mongoose';
import { apiWithSockets, eventually, expectations, groupWithMembers } from '../api/harness.ts';
import { connectClient, record, until } from '../realtime/client.ts';

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe('scheduled messages and reminders on a single instance', () => {
  const { api, sockets } = apiWithSockets(import.meta.url, { SCHEDULE_POLL_MS: '200' });
  const { ok, refused } = expectations(() => api);

  it('sends a scheduled message as its author at sendAt, to the other members, and drops it from the list', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const reader = await connectClient(api.base, members[0]!.token);
    const author = await connectClient(api.base, owner.token);
    sockets.push(reader, author);
    const arrived = record(reader, 'message:new');
    const told = record(author, 'scheduled:updated');
    const sendAt = inSeconds(1.5);
    const res = await api.request<ScheduledAccepted>('POST', `/api/converses/${converseId}/messages`, {
      token: owner.token,
      body: { content: 'good morning, later', sendAt },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const { scheduled } = res.body;
    assert.equal(scheduled.converseId, converseId);
    assert.equal(scheduled.content, 'good morning, later');
    assert.equal(scheduled.sendAt, sendAt);
    assert.deepEqual(Object.keys(scheduled).sort(), ['content', 'converseId', 'createdAt', 'id', 'sendAt']);
    const listed = await ok<ScheduledEntry[]>('GET', '/api/scheduled', owner);
    assert.deepEqual(
      listed.map((s) => [s.id, s.status]),
      [[scheduled.id, 'pending']],
    );
    assert.equal(arrived.length, 0, 'nothing is sent before sendAt');

    await until('the scheduled message', () => arrived.some((m) => m.content === 'good morning, later'), 15_000);
    const message = arrived.find((m) => m.content === 'good morning, later')!;
    assert.equal(message.authorId, owner.id);
    assert.ok(Date.parse(message.createdAt) >= Date.parse(sendAt), 'not before its time');
    await until('the author told it was sent', () => told.some((e) => e.scheduled.status === 'sent'));
    const sent = told.find((e) => e.scheduled.status === 'sent')!;
    assert.equal(sent.scheduled.messageId, message.id);
    assert.deepEqual(await ok<ScheduledEntry[]>('GET', '/api/scheduled', owner), []);
    const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, owner);
    assert.equal(history.filter((m) => m.content === 'good morning, later').length, 1);
  });

  it('refuses a time in the past, more than a year ahead, or not a real time', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const path = `/api/converses/${converseId}/messages`;
    for (const sendAt of [inSeconds(-60), inSeconds(400 * 24 * 3600), '2030-13-45T99:00:00Z']) {
      const body = await refused('POST', path, owner, 400, 'IM_ERR_VALIDATION', { content: 'x', sendAt });
      assert.match(body.error.message, /sendAt/);
    }
    await refused('POST', path, owner, 400, 'IM_ERR_VALIDATION', { content: 'x', sendAt: 'tomorrow' });
    assert.deepEqual(await ok<ScheduledEntry[]>('GET', '/api/scheduled', owner), []);
  });

  it('lets only the author see, change and cancel a scheduled message; outsiders cannot schedule', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const other = members[0]!;
    const outsider = await api.user('out');
    await refused('POST', `/api/converses/${converseId}/messages`, outsider, 404, 'IM_ERR_NOT_FOUND', {
      content: 'x',
      sendAt: inSeconds(600),
    });
    const { scheduled } = await ok<ScheduledAccepted>(
      'POST',
      `/api/converses/${converseId}/messages`,
      owner,
      { content: 'draft', sendAt: inSeconds(600) },
      202,
    );
    assert.deepEqual(await ok<ScheduledEntry[]>('GET', '/api/scheduled', other), []);
    await refused('PATCH', `/api/scheduled/${scheduled.id}`, other, 404, 'IM_ERR_NOT_FOUND', { content: 'mine now' });
    await refused('DELETE', `/api/scheduled/${scheduled.id}`, other, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', `/api/scheduled/${scheduled.id}/send`, other, 404, 'IM_ERR_NOT_FOUND');

    const later = inSeconds(1200);
    const edited = await ok<ScheduledEntry>('PATCH', `/api/scheduled/${scheduled.id}`, owner, {
      content: 'final words',
      sendAt: later,
    });
    assert.equal(edited.content, 'final words');
    assert.equal(edited.sendAt, later);
    await refused('PATCH', `/api/scheduled/${scheduled.id}`, owner, 400, 'IM_ERR_VALIDATION', {
      sendAt: inSeconds(-5),
    });
    await ok('DELETE', `/api/scheduled/${scheduled.id}`, owner, undefined, 204);
    assert.deepEqual(await ok<ScheduledEntry[]>('GET', '/api/scheduled', owner), []);
    await refused('DELETE', `/api/scheduled/${scheduled.id}`, owner, 404, 'IM_ERR_NOT_FOUND');
  });

  it('sends one now on request, once', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const { scheduled } = await ok<ScheduledAccepted>(
      'POST',
      `/api/converses/${converseId}/messages`,
      owner,
      { content: 'now rather', sendAt: inSeconds(600) },
      202,
    );
    const message = await ok<Message>('POST', `/api/scheduled/${scheduled.id}/send`, owner, undefined, 201);
    assert.equal(message.content, 'now rather');
    await refused('POST', `/api/scheduled/${scheduled.id}/send`, owner, 404, 'IM_ERR_NOT_FOUND');
    const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, owner);
    assert.equal(history.filter((m) => m.content === 'now rather').length, 1);
  });

  it('keeps 100 waiting at most per author', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const path = `/api/converses/${converseId}/messages`;
    for (let i = 0; i < 100; i += 1)
      await ok('POST', path, owner, { content: `n${i}`, sendAt: inSeconds(3600 + i) }, 202);
    await refused('POST', path, owner, 409, 'IM_ERR_LIMIT', { content: 'one more', sendAt: inSeconds(7200) });
    const list = await ok<ScheduledEntry[]>('GET', '/api/scheduled', owner);
    assert.equal(list.length, 100);
    for (const s of list) await ok('DELETE', `/api/scheduled/${s.id}`, owner, undefined, 204);
  });

  it('does not send for an author who left the group: it stays as failed with the reason, and the author is told', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 1);
    const leaver = members[0]!;
    const socket = await connectClient(api.base, leaver.token);
    const ownerSocket = await connectClient(api.base, owner.token);
    sockets.push(socket, ownerSocket);
    const told = record(socket, 'scheduled:updated');
    const seen = record(ownerSocket, 'message:new');
    const { scheduled } = await ok<ScheduledAccepted>(
      'POST',
      `/api/converses/${converseId}/messages`,
      leaver,
      { content: 'from beyond', sendAt: inSeconds(1.5) },
      202,
    );
    await ok('DELETE', `/api/groups/${groupId}/members/${leaver.id}`, leaver, undefined, 204);
    await until(
      'the failure told',
      () => told.some((e: ScheduledUpdatedEvent) => e.scheduled.status === 'failed'),
      15_000,
    );
    const [failed] = await ok<ScheduledEntry[]>('GET', '/api/scheduled', leaver);
    assert.equal(failed?.id, scheduled.id);
    assert.equal(failed?.status, 'failed');
    assert.match(failed?.failure ?? '', /no longer write here/);
    assert.equal(seen.filter((m) => m.content === 'from beyond').length, 0);
  });

  it('does not send a reply whose message was deleted meanwhile', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const original = await ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, { content: 'q' }, 201);
    const { scheduled } = await ok<ScheduledAccepted>(
      'POST',
      `/api/converses/${converseId}/messages`,
      owner,
      { content: 'a', replyTo: original.id, sendAt: inSeconds(600) },
      202,
    );
    await ok('DELETE', `/api/messages/${original.id}`, owner, undefined, 204);
    const body = await refused('POST', `/api/scheduled/${scheduled.id}/send`, owner, 409, 'IM_ERR_CONFLICT');
    assert.match(body.error.message, /replies to is gone/);
    const [failed] = await ok<ScheduledEntry[]>('GET', '/api/scheduled', owner);
    assert.equal(failed?.status, 'failed');
    // A new time puts it back in the schedule.
    const again = await ok<ScheduledEntry>('PATCH', `/api/scheduled/${scheduled.id}`, owner, {
      sendAt: inSeconds(600),
    });
    assert.equal(again.status, 'pending');
    assert.equal(again.failure, undefined);
  });

  it('does not send for a muted author: it fails with the mute as its reason', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 1);
    const muted = members[0]!;
    const { scheduled } = await ok<ScheduledAccepted>(
      'POST',
      `/api/converses/${converseId}/messages`,
      muted,
      { content: 'shh', sendAt: inSeconds(600) },
      202,
    );
    await ok('PUT', `/api/groups/${groupId}/members/${muted.id}/mute`, owner, { seconds: 600 }, 204);
    const body = await refused('POST', `/api/scheduled/${scheduled.id}/send`, muted, 409, 'IM_ERR_CONFLICT');
    assert.match(body.error.message, /muted/);
    const [failed] = await ok<ScheduledEntry[]>('GET', '/api/scheduled', muted);
    assert.equal(failed?.status, 'failed');
    assert.match(failed?.failure ?? '', /muted/);
  });

  it('takes over an item whose node died after sending it (lease run out) without sending it twice', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const { scheduled } = await ok<ScheduledAccepted>(
      'POST',
      `/api/converses/${converseId}/messages`,
      owner,
      { content: 'once only', sendAt: inSeconds(600) },
      202,
    );
    // What a node that died mid-send leaves: the message stored (with the item's clientMsgId), the item
    // still pending, its lease run out.
    await api.broker.call(
      'chat.send',
      { converseId, content: 'once only', clientMsgId: `scheduled-${scheduled.id}` },
      { meta: { user: { id: owner.id } } },
    );
    const past = new Date(Date.now() - 1000);
    await api.node.app
      .mongo!.collection('scheduledmessages')
      .updateOne({ _id: new Types.ObjectId(scheduled.id) }, { $set: { sendAt: past, leaseUntil: past } });
    const left = await eventually(
      () => ok<ScheduledEntry[]>('GET', '/api/scheduled', owner),
      (list) => list.length === 0,
      15_000,
    );
    assert.deepEqual(left, []);
    const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, owner);
    assert.equal(history.filter((m) => m.content === 'once only').length, 1);
  });

  it('delivers a reminder at its time: an inbox entry of type reminder and a notification on my sockets', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const me = members[0]!;
    const message = await ok<Message>(
      'POST',
      `/api/converses/${converseId}/messages`,
      owner,
      { content: 'review the plan' },
      201,
    );
    const socket = await connectClient(api.base, me.token);
    sockets.push(socket);
    const notified = record(socket, 'notification');
    const at = inSeconds(1.5);
    const reminder = await ok<Reminder>('POST', `/api/messages/${message.id}/reminder`, me, { at }, 201);
    assert.deepEqual(reminder, { id: reminder.id, messageId: message.id, converseId, at });
    const listed = await ok<ReminderEntry[]>('GET', '/api/reminders', me);
    assert.deepEqual(
      listed.map((r) => [r.id, r.preview]),
      [[reminder.id, 'review the plan']],
    );

    await until('the reminder', () => notified.length > 0, 15_000);
    const event = notified[0] as { type: string; notification: { messageId: string; type: string } };
    assert.equal(event.type, 'reminder');
    assert.equal(event.notification.messageId, message.id);
    const inbox = await ok<NotificationPage>('GET', '/api/notifications', me);
    const entry = inbox.items.find((n) => n.messageId === message.id);
    assert.equal(entry?.type, 'reminder');
    assert.equal(entry?.converseId, converseId);
    assert.equal(entry?.preview, 'review the plan');
    assert.deepEqual(await ok<ReminderEntry[]>('GET', '/api/reminders', me), []);
  });

  it('refuses a reminder of a message I cannot read (404), lets only me cancel mine', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const outsider = await api.user('out');
    const message = await ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, { content: 'x' }, 201);
    await refused('POST', `/api/messages/${message.id}/reminder`, outsider, 404, 'IM_ERR_NOT_FOUND', {
      at: inSeconds(60),
    });
    await refused('POST', `/api/messages/${message.id}/reminder`, owner, 400, 'IM_ERR_VALIDATION', {
      at: inSeconds(-60),
    });
    const reminder = await ok<Reminder>(
      'POST',
      `/api/messages/${message.id}/reminder`,
      owner,
      { at: inSeconds(600) },
      201,
    );
    await refused('DELETE', `/api/reminders/${reminder.id}`, members[0]!, 404, 'IM_ERR_NOT_FOUND');
    await ok('DELETE', `/api/reminders/${reminder.id}`, owner, undefined, 204);
    assert.deepEqual(await ok<ReminderEntry[]>('GET', '/api/reminders', owner), []);
  });

  it('drops what a deleted account scheduled, and its reminders', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const leaving = members[0]!;
    await ok('POST', `/api/converses/${converseId}/messages`, leaving, { content: 'bye', sendAt: inSeconds(600) }, 202);
    const message = await ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, { content: 'x' }, 201);
    await ok('POST', `/api/messages/${message.id}/reminder`, leaving, { at: inSeconds(600) }, 201);
    const db = api.node.app.mongo!;
    const mine = { userId: new Types.ObjectId(leaving.id) };
    assert.equal(await db.collection('scheduledmessages').countDocuments(mine), 1);
    await ok('DELETE', '/api/users/me', leaving, undefined, 204);
    const left = await eventually(
      async () =>
        (await db.collection('scheduledmessages').countDocuments(mine)) +
        (await db.collection('reminders').countDocuments(mine)),
      (n) => n === 0,
    );
    assert.equal(left, 0);
  });

  it('refuses sendAt over the socket (an HTTP send answers 202 with what was scheduled)', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const socket = await connectClient(api.base, owner.token);
    sockets.push(socket);
    const res = await socket
      .timeout(5000)
      .emitWithAck('message:send', { converseId, content: 'later?', sendAt: inSeconds(60) });
    assert.equal(res.ok, false);
    assert.deepEqual(await ok<ScheduledEntry[]>('GET', '/api/scheduled', owner), []);
  });
});
