import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type {
  DmConverse,
  FeedToken,
  FollowedThreadPage,
  Group,
  Message,
  NotificationPage,
  OutgoingWebhookWithSecret,
  Panel,
  Report,
  SyncResult,
  UnreadEntry,
  WebhookEventBody,
} from '@im/protocol';
import { startSmtpSink, type SmtpSink } from '@im/testkit';
import { Types } from 'mongoose';
import sharp from 'sharp';
import { verifiedAddress } from '../mail/mail-harness.ts';
import { receiverPool } from '../integrations/receiver.ts';
import { connectClient, record, sync, until, type ClientSocket } from '../realtime/client.ts';
import { eventually, expectations, groupWithMembers, startApi, uploadAs, type ApiHarness } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** Missed-message e-mails wait this long (MAIL_DIGEST_DELAY_MS) instead of 10 minutes. */
const DIGEST_DELAY_MS = 1500;

/**
 * A private panel is invisible everywhere to the members it does not allow
 * (shared/API.md, "Roles and private panels"): each place is checked as
 * such a member (nothing, or 404) and as an allowed one (works as usual).
 * "Never receives an event" is checked with a marker sent after it in a
 * panel everyone sees: once the marker arrived, the other would have too.
 */
describe('private panels reach only those allowed', () => {
  let api: ApiHarness;
  let sink: SmtpSink;
  const sockets: ClientSocket[] = [];
  const receivers = receiverPool();
  const { ok, refused } = expectations(() => api);

  before(async () => {
    sink = await startSmtpSink();
    api = await startApi(import.meta.url, {
      SMTP_URL: sink.url,
      MAIL_FROM: 'Example Chat <chat@example.org>',
      PUBLIC_URL: 'http://chat.example.org',
      MAIL_DIGEST_DELAY_MS: String(DIGEST_DELAY_MS),
      // Webhook receivers listen on loopback.
      OUTBOUND_ALLOW: '127.0.0.1',
    });
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await receivers.closeAll();
    await api.close();
    await sink.stop();
  });

  const connect = async (user: User) => {
    const socket = await connectClient(api.base, user.token);
    sockets.push(socket);
    return socket;
  };
  const send = (user: User, converseId: string, content: string, extra: object = {}) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, user, { content, ...extra }, 201);

  /**
   * A group with a private panel allowing one member by name; `outsider` is
   * a member it does not allow; `general` is the panel everyone sees.
   */
  const privateRoom = async (type: 'text' | 'voice' = 'text') => {
    const { owner, members, groupId, converseId: general } = await groupWithMembers(api, 2);
    const [allowed, outsider] = members as [User, User];
    const panel = await ok<Panel>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      { name: 'inner-circle', type, private: true, allowUserIds: [allowed.id] },
      201,
    );
    return { owner, allowed, outsider, groupId, general, panel, secret: panel.converseId };
  };

  /** Sends a marker in `general` and waits until `seen` (what the watcher's socket recorded) has it. */
  const marker = async (owner: User, general: string, seen: Message[]) => {
    const sent = await send(owner, general, 'marker');
    await until('the marker', () => seen.some((m) => m.id === sent.id));
  };

  const revoke = (owner: User, groupId: string, panel: Panel) =>
    ok<Panel>('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { allowUserIds: [] });

  it('group views: the panel is absent for the outsider, present for the allowed member', async () => {
    const { allowed, outsider, groupId, panel } = await privateRoom();
    const has = (g: Group) => g.panels.some((p) => p.id === panel.id);
    assert.equal(has(await ok<Group>('GET', `/api/groups/${groupId}`, outsider)), false);
    assert.equal((await ok<Group[]>('GET', '/api/groups', outsider)).some(has), false);
    assert.equal(has(await ok<Group>('GET', `/api/groups/${groupId}`, allowed)), true);
  });

  it('history, around a message, one message and its thread: 404 for the outsider', async () => {
    const { allowed, outsider, secret } = await privateRoom();
    const root = await send(allowed, secret, 'the plan');
    await send(allowed, secret, 'a reply', { threadId: root.id });
    for (const path of [
      `/api/converses/${secret}/messages`,
      `/api/converses/${secret}/messages?around=${root.seq}`,
      `/api/messages/${root.id}`,
      `/api/messages/${root.id}/thread`,
    ]) {
      await refused('GET', path, outsider, 404, 'IM_ERR_NOT_FOUND');
      await ok('GET', path, allowed);
    }
    await refused('PATCH', `/api/messages/${root.id}`, outsider, 404, 'IM_ERR_NOT_FOUND', { content: 'x' });
    await refused('POST', `/api/messages/${root.id}/thread/ack`, outsider, 404, 'IM_ERR_NOT_FOUND', {
      seq: root.seq,
    });
  });

  it('sync leaves the panel out for the outsider and catches the allowed member up', async () => {
    const { allowed, outsider, secret } = await privateRoom();
    const sent = await send(allowed, secret, 'while you were away');
    const outsiders: SyncResult = await sync(await connect(outsider), { [secret]: 0 });
    assert.equal(outsiders.converses[secret], undefined);
    const allowedOnes: SyncResult = await sync(await connect(allowed), { [secret]: 0 });
    assert.deepEqual(
      allowedOnes.converses[secret]?.messages.map((m) => m.id),
      [sent.id],
    );
  });

  it('search finds a private message for the allowed member only', async () => {
    const { allowed, outsider, secret } = await privateRoom();
    const word = `quasar${Date.now()}`;
    const sent = await send(allowed, secret, `the ${word} file`);
    const found = await eventually(
      () => ok<Message[]>('GET', `/api/search?q=${word}`, allowed),
      (list) => list.length > 0,
    );
    assert.deepEqual(
      found.map((m) => m.id),
      [sent.id],
    );
    assert.deepEqual(await ok<Message[]>('GET', `/api/search?q=${word}`, outsider), []);
    const scoped = await api.request<Message[]>('GET', `/api/search?q=${word}&converseId=${secret}`, {
      token: outsider.token,
    });
    assert.ok(
      scoped.status === 404 || (scoped.status === 200 && scoped.body.length === 0),
      `scoped search: ${scoped.status} ${JSON.stringify(scoped.body)}`,
    );
  });

  it('followed threads: a follower who loses access no longer lists the thread, nor reads it', async () => {
    const { owner, allowed, groupId, panel, secret } = await privateRoom();
    const root = await send(owner, secret, 'thread root');
    await send(allowed, secret, 'my reply makes me follow', { threadId: root.id });
    const listed = async () =>
      (await ok<FollowedThreadPage>('GET', '/api/threads', allowed)).items.map((t) => t.root.id);
    assert.deepEqual(await listed(), [root.id]);
    await revoke(owner, groupId, panel);
    assert.deepEqual(await listed(), []);
    await refused('GET', `/api/messages/${root.id}/thread`, allowed, 404, 'IM_ERR_NOT_FOUND');
  });

  it('pins: the outsider can neither list nor pin; the allowed member sees the pin', async () => {
    const { owner, allowed, outsider, secret } = await privateRoom();
    const sent = await send(allowed, secret, 'pin me');
    await ok('PUT', `/api/messages/${sent.id}/pin`, owner);
    await refused('GET', `/api/converses/${secret}/pins`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('PUT', `/api/messages/${sent.id}/pin`, outsider, 404, 'IM_ERR_NOT_FOUND');
    const pins = await ok<Message[]>('GET', `/api/converses/${secret}/pins`, allowed);
    assert.deepEqual(
      pins.map((m) => m.id),
      [sent.id],
    );
  });

  it('reactions, read receipts and typing: no events to the outsider, 404 on their requests', async () => {
    const { owner, allowed, outsider, general, secret } = await privateRoom();
    const sent = await send(owner, secret, 'react to me');
    const [outsiderSocket, ownerSocket, allowedSocket] = await Promise.all([
      connect(outsider),
      connect(owner),
      connect(allowed),
    ]);
    const outsiderSeen = {
      reactions: record(outsiderSocket, 'reaction:updated'),
      reads: record(outsiderSocket, 'read:updated'),
      typing: record(outsiderSocket, 'typing'),
      messages: record(outsiderSocket, 'message:new'),
    };
    const ownerSeen = {
      reactions: record(ownerSocket, 'reaction:updated'),
      reads: record(ownerSocket, 'read:updated'),
      typing: record(ownerSocket, 'typing'),
    };
    const thumbs = encodeURIComponent('👍');
    await ok('PUT', `/api/messages/${sent.id}/reactions/${thumbs}`, allowed);
    await ok('POST', `/api/converses/${secret}/ack`, allowed, { seq: sent.seq }, 204);
    const typed = (await allowedSocket.timeout(5000).emitWithAck('typing', { converseId: secret })) as {
      ok: boolean;
    };
    assert.equal(typed.ok, true);
    await until('the allowed events to reach the owner', () =>
      [ownerSeen.reactions, ownerSeen.reads, ownerSeen.typing].every((l) => l.some((e) => e.converseId === secret)),
    );
    await marker(owner, general, outsiderSeen.messages);
    for (const list of [outsiderSeen.reactions, outsiderSeen.reads, outsiderSeen.typing])
      assert.equal(
        list.some((e) => e.converseId === secret),
        false,
      );

    await refused('PUT', `/api/messages/${sent.id}/reactions/${thumbs}`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('GET', `/api/converses/${secret}/reads`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', `/api/converses/${secret}/ack`, outsider, 404, 'IM_ERR_NOT_FOUND', { seq: 1 });
    const outsiderTyped = (await outsiderSocket.timeout(5000).emitWithAck('typing', { converseId: secret })) as {
      ok: boolean;
      error?: { code: string };
    };
    assert.deepEqual([outsiderTyped.ok, outsiderTyped.error?.code], [false, 'IM_ERR_NOT_FOUND']);
  });

  it('read receipts: a reader from before the panel went private drops out of its receipts', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 2);
    const [allowed, outsider] = members as [User, User];
    const panel = await ok<Panel>('POST', `/api/groups/${groupId}/panels`, owner, { name: 'soon', type: 'text' }, 201);
    const sent = await send(owner, panel.converseId, 'read me');
    for (const reader of [allowed, outsider])
      await ok('POST', `/api/converses/${panel.converseId}/ack`, reader, { seq: sent.seq }, 204);
    const readers = async () =>
      (await ok<Array<{ userId: string }>>('GET', `/api/converses/${panel.converseId}/reads`, owner))
        .map((r) => r.userId)
        .sort();
    assert.deepEqual(await readers(), [owner.id, allowed.id, outsider.id].sort());
    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, {
      private: true,
      allowUserIds: [allowed.id],
    });
    assert.deepEqual(await readers(), [owner.id, allowed.id].sort());
  });

  it('files attached there: 404 for the outsider (bytes, info, signed URL, thumbnail)', async () => {
    const { allowed, outsider, secret } = await privateRoom();
    const file = await uploadAs(api, allowed.token, new TextEncoder().encode('secret notes'), 'notes.txt');
    await send(allowed, secret, 'see attached', { attachments: [file.id] });
    for (const path of [
      `/api/files/${file.id}`,
      `/api/files/${file.id}/info`,
      `/api/files/${file.id}/url`,
      `/api/files/${file.id}/thumbnail`,
    ]) {
      const res = await api.request<{ error: { code: string } }>('GET', path, { token: outsider.token });
      assert.equal(res.status, 404, `${path}: ${res.status}`);
    }
    await ok('GET', `/api/files/${file.id}/info`, allowed);
  });

  it('link previews: the card travels with the message, its image is a file of the panel (404 for the outsider)', async () => {
    const { allowed, outsider, secret } = await privateRoom();
    const image = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    const site = createServer((req, res) => {
      if (req.url === '/pic.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(image);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><head><meta property="og:title" content="Plans"><meta property="og:image" content="/pic.png"></head></html>',
        );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = site.address() as AddressInfo;
      const sent = await send(allowed, secret, `read http://127.0.0.1:${port}/plans`);
      const seen = await eventually(
        () => ok<Message>('GET', `/api/messages/${sent.id}`, allowed),
        (m) => m.preview?.imageFileId !== undefined,
      );
      const imageFileId = seen.preview?.imageFileId;
      assert.ok(imageFileId, 'the preview has its image');
      await refused('GET', `/api/messages/${sent.id}`, outsider, 404, 'IM_ERR_NOT_FOUND');
      for (const path of [`/api/files/${imageFileId}/info`, `/api/files/${imageFileId}/url`]) {
        await refused('GET', path, outsider, 404, 'IM_ERR_NOT_FOUND');
        await ok('GET', path, allowed);
      }
    } finally {
      site.closeAllConnections();
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });

  it('unread summary and mentions: the outsider has no entry and is never mentioned there', async () => {
    const { allowed, outsider, secret } = await privateRoom();
    const sent = await send(allowed, secret, `hey @${outsider.username}, are you there?`);
    assert.deepEqual(sent.mentions, []);
    const outsiders = await ok<UnreadEntry[]>('GET', '/api/unread', outsider);
    assert.equal(
      outsiders.some((e) => e.converseId === secret),
      false,
    );
    const allowedOnes = await ok<UnreadEntry[]>('GET', '/api/unread', allowed);
    assert.ok(allowedOnes.some((e) => e.converseId === secret));
  });

  it('notifications: @all there reaches only those allowed; the inbox drops it once access goes', async () => {
    const { owner, allowed, outsider, groupId, general, panel, secret } = await privateRoom();
    const everyone = await send(owner, secret, '@all the private meeting moves to noon');
    await send(owner, secret, `@${outsider.username} you are not here`);
    const mark = await send(owner, general, `@${outsider.username} marker`);
    const inbox = (user: User) => ok<NotificationPage>('GET', '/api/notifications', user);
    const outsiders = await eventually(
      () => inbox(outsider),
      (page) => page.items.some((n) => n.messageId === mark.id),
    );
    assert.ok(outsiders.items.some((n) => n.messageId === mark.id));
    assert.equal(
      outsiders.items.some((n) => n.converseId === secret),
      false,
    );
    const allowedOnes = await eventually(
      () => inbox(allowed),
      (page) => page.items.some((n) => n.messageId === everyone.id),
    );
    assert.ok(allowedOnes.items.some((n) => n.messageId === everyone.id));

    await revoke(owner, groupId, panel);
    assert.equal(
      (await inbox(allowed)).items.some((n) => n.converseId === secret),
      false,
    );
  });

  it('missed-message e-mails leave out a mention in a panel the reader lost meanwhile', async () => {
    const { owner, allowed, groupId, panel, secret } = await privateRoom();
    const email = await verifiedAddress(api, sink, allowed);
    const hidden = await send(owner, secret, `@${allowed.username} the hidden agenda`);
    const missed = api.node.app.mongo!.collection<{ messageId: Types.ObjectId }>('mail_missed');
    await eventually(
      () => missed.findOne({ messageId: new Types.ObjectId(hidden.id) }),
      (doc) => doc !== null,
    );
    await revoke(owner, groupId, panel);
    const dm = await ok<DmConverse>('POST', '/api/dms', owner, { userId: allowed.id });
    await send(owner, dm.id, 'a direct word after it');
    const mail = await sink.waitForMail((m) => m.to.includes(email) && m.text.includes('a direct word after it'));
    for (const m of sink.mails.filter((x) => x.to.includes(email)))
      assert.ok(!m.text.includes('hidden agenda') && !m.html.includes('hidden agenda'), m.text);
    assert.ok(!mail.text.includes(secret));
  });

  it('personal feeds: 404 for the outsider, an Atom feed for the allowed member', async () => {
    const { allowed, outsider, secret } = await privateRoom();
    await send(allowed, secret, 'feed item');
    const feed = async (user: User) => {
      const { token } = await ok<FeedToken>('POST', '/api/feeds/token', user);
      return fetch(`${api.base}/feeds/${token}/converses/${secret}.atom`);
    };
    assert.equal((await feed(outsider)).status, 404);
    const allowedFeed = await feed(allowed);
    assert.equal(allowedFeed.status, 200);
    assert.match(await allowedFeed.text(), /feed item/);
  });

  it('the web: a panel made private leaves the web at once (page, feeds, JSON 404)', async () => {
    const { owner, groupId } = await groupWithMembers(api, 0);
    await ok('PATCH', `/api/groups/${groupId}`, owner, { visibility: 'public' });
    const panel = await ok<Panel>('POST', `/api/groups/${groupId}/panels`, owner, { name: 'news', type: 'text' }, 201);
    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { webPublic: true });
    await send(owner, panel.converseId, 'public news');
    const paths = [
      `/p/${panel.id}`,
      `/p/${panel.id}/feed.atom`,
      `/p/${panel.id}/feed.rss`,
      `/api/public/panels/${panel.id}/messages`,
    ];
    for (const path of paths) assert.equal((await fetch(api.base + path)).status, 200, path);
    const made = await ok<Panel>('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { private: true });
    assert.deepEqual([made.private, made.webPublic], [true, false]);
    for (const path of paths) assert.equal((await fetch(api.base + path)).status, 404, path);
    // A stranger looking at the public group does not see it either.
    const stranger = await api.user('str');
    const seen = await api.request<Group>('GET', `/api/groups/${groupId}`, { token: stranger.token });
    assert.equal(JSON.stringify(seen.body).includes(panel.id), false);
  });

  it('outgoing webhooks: a hook sends a private message only if the member holding it sees the panel', async () => {
    const { owner, outsider, groupId, general, secret } = await privateRoom();
    const [ownersRx, outsidersRx] = await Promise.all([receivers.start(), receivers.start()]);
    await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${groupId}/webhooks/outgoing`,
      owner,
      { url: ownersRx.url, name: 'Owner' },
      201,
    );
    const other = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${groupId}/webhooks/outgoing`,
      owner,
      { url: outsidersRx.url, name: 'Outsider' },
      201,
    );
    // A hook answered for by a member the panel does not allow (as a holder of
    // manageIntegrations may be): set here, before the group's hooks are first read.
    await api.node.app
      .mongo!.collection('outgoinghooks')
      .updateOne({ _id: new Types.ObjectId(other.id) }, { $set: { secretHolder: new Types.ObjectId(outsider.id) } });
    const hidden = await send(owner, secret, 'private to the hook');
    const shared = await send(owner, general, 'for every hook');
    const bodies = (rx: typeof ownersRx) => rx.received.map((r) => (JSON.parse(r.raw) as WebhookEventBody).message.id);
    await until('both deliveries to the owner', () => bodies(ownersRx).length === 2, 10_000);
    assert.deepEqual(bodies(ownersRx).sort(), [hidden.id, shared.id].sort());
    await until('the shared one to the other hook', () => bodies(outsidersRx).includes(shared.id), 10_000);
    assert.deepEqual(bodies(outsidersRx), [shared.id]);
  });

  it("incoming webhooks: a hook's bot posts into a private panel only once the panel allows it", async () => {
    const { owner, outsider, groupId, general, panel, secret } = await privateRoom();
    const hook = await ok<{ url: string; botId: string }>(
      'POST',
      `/api/groups/${groupId}/webhooks/incoming`,
      owner,
      { panelId: panel.id, name: 'CI' },
      201,
    );
    const post = (text: string) =>
      fetch(api.base + hook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    assert.equal((await post('not allowed yet')).status, 404);
    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { allowUserIds: [hook.botId] });
    const outsiderMessages = record(await connect(outsider), 'message:new');
    const posted = await post('build passed');
    assert.equal(posted.status, 200);
    const { messageId } = (await posted.json()) as { messageId: string };
    await ok('GET', `/api/messages/${messageId}`, owner);
    await marker(owner, general, outsiderMessages);
    assert.equal(
      outsiderMessages.some((m) => m.converseId === secret),
      false,
    );
  });

  it('calls in a private voice panel: 404 for the outsider', async () => {
    const { allowed, outsider, secret } = await privateRoom('voice');
    await refused('POST', `/api/converses/${secret}/call/join`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('GET', `/api/converses/${secret}/call`, outsider, 404, 'IM_ERR_NOT_FOUND');
    // The allowed member passes the access check (voice is off in these tests).
    await refused('POST', `/api/converses/${secret}/call/join`, allowed, 503, 'IM_ERR_SERVICE_UNAVAILABLE');
    await ok('GET', `/api/converses/${secret}/call`, allowed);
  });

  it('moderation: a member who lost access cannot report a message of the panel', async () => {
    const { owner, allowed, outsider, groupId, panel, secret } = await privateRoom();
    const first = await send(owner, secret, 'questionable');
    const second = await send(owner, secret, 'also questionable');
    await ok<Report>('POST', `/api/messages/${first.id}/report`, allowed, { reason: 'spam' }, 201);
    await refused('POST', `/api/messages/${first.id}/report`, outsider, 404, 'IM_ERR_NOT_FOUND', { reason: 'spam' });
    await revoke(owner, groupId, panel);
    await refused('POST', `/api/messages/${second.id}/report`, allowed, 404, 'IM_ERR_NOT_FOUND', { reason: 'spam' });
  });

  it("moderation: a role holder the panel does not allow sees neither its reports nor the log's entries about it", async () => {
    const { owner, allowed, outsider, groupId, general, panel, secret } = await privateRoom();
    const moderators = await ok<{ id: string }>(
      'POST',
      `/api/groups/${groupId}/roles`,
      owner,
      { name: 'Moderators', permissions: ['manageMessages', 'viewAuditLog'] },
      201,
    );
    await ok('PUT', `/api/groups/${groupId}/members/${outsider.id}/roles/${moderators.id}`, owner);
    const hidden = await send(owner, secret, 'private and reported');
    const shown = await send(owner, general, 'public and reported');
    const privateReport = await ok<Report>(
      'POST',
      `/api/messages/${hidden.id}/report`,
      allowed,
      { reason: 'spam' },
      201,
    );
    await ok<Report>('POST', `/api/messages/${shown.id}/report`, allowed, { reason: 'spam' }, 201);
    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { allowUserIds: [allowed.id] });

    const queue = await ok<Report[]>('GET', `/api/groups/${groupId}/reports`, outsider);
    assert.deepEqual(
      queue.map((r) => r.messageId),
      [shown.id],
    );
    await refused(
      'POST',
      `/api/groups/${groupId}/reports/${privateReport.id}/resolve`,
      outsider,
      404,
      'IM_ERR_NOT_FOUND',
      { action: 'dismiss' },
    );
    const log = await ok<{ items: Array<{ target: { type: string; id: string } }> }>(
      'GET',
      `/api/groups/${groupId}/audit`,
      outsider,
    );
    assert.equal(
      log.items.some((e) => e.target.type === 'panel' && e.target.id === panel.id),
      false,
    );
    // The owner sees both reports and the panel's entry.
    assert.equal((await ok<Report[]>('GET', `/api/groups/${groupId}/reports`, owner)).length, 2);
    const ownersLog = await ok<{ items: Array<{ target: { type: string; id: string } }> }>(
      'GET',
      `/api/groups/${groupId}/audit`,
      owner,
    );
    assert.ok(ownersLog.items.some((e) => e.target.type === 'panel' && e.target.id === panel.id));
  });

  it('a member revoked while connected gets no further events of the panel', async () => {
    const { owner, allowed, groupId, general, panel, secret } = await privateRoom();
    const socket = await connect(allowed);
    const messages = record(socket, 'message:new');
    const gone = record(socket, 'panel:deleted');
    const before = await send(owner, secret, 'while allowed');
    await until('the message while allowed', () => messages.some((m) => m.id === before.id));
    await revoke(owner, groupId, panel);
    await until('the panel to leave them', () => gone.some((e) => e.panelId === panel.id));
    const afterwards = await send(owner, secret, 'after the revoke');
    await marker(owner, general, messages);
    assert.equal(
      messages.some((m) => m.id === afterwards.id),
      false,
    );
    const typed = (await socket.timeout(5000).emitWithAck('typing', { converseId: secret })) as { ok: boolean };
    assert.equal(typed.ok, false);
  });

  it('deleting a private panel is told to those who saw it only', async () => {
    const { owner, allowed, outsider, groupId, general, panel } = await privateRoom();
    const [outsiderSocket, allowedSocket] = await Promise.all([connect(outsider), connect(allowed)]);
    const outsiderGone = record(outsiderSocket, 'panel:deleted');
    const outsiderMessages = record(outsiderSocket, 'message:new');
    const allowedGone = record(allowedSocket, 'panel:deleted');
    await ok('DELETE', `/api/groups/${groupId}/panels/${panel.id}`, owner, undefined, 204);
    await until('the allowed member to see it go', () => allowedGone.some((e) => e.panelId === panel.id));
    await marker(owner, general, outsiderMessages);
    assert.deepEqual(outsiderGone, []);
  });

  it('a socket that connects after the panel went private never joins its room', async () => {
    const { owner, members, groupId, converseId: general } = await groupWithMembers(api, 1);
    const [late] = members as [User];
    const panel = await ok<Panel>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      { name: 'was-open', type: 'text' },
      201,
    );
    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { private: true });
    const socket = await connect(late);
    const messages = record(socket, 'message:new');
    const hidden = await send(owner, panel.converseId, 'not for late sockets');
    await marker(owner, general, messages);
    assert.equal(
      messages.some((m) => m.id === hidden.id),
      false,
    );
  });
});
