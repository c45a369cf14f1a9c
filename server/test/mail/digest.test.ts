import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DmConverse, Group, Invite, Me, Message } from '@im/protocol';
import type { SmtpSink } from '@im/testkit';
import { Types } from 'mongoose';
import { eventually, type ApiHarness } from '../api/harness.ts';
import { connectClient, type ClientSocket } from '../realtime/client.ts';
import { PUBLIC_URL, startMailApi, verifiedAddress, type User } from './mail-harness.ts';

/**
 * Every missed-message e-mail waits this long (MAIL_DIGEST_DELAY_MS) instead
 * of 10 minutes: long enough for a test's sends and reads to land within it
 * on a loaded machine (1.5 s was not), short enough to keep the file quick.
 */
const DELAY_MS = 6000;

describe('missed-message e-mails', () => {
  let api: ApiHarness;
  let sink: SmtpSink;
  const sockets: ClientSocket[] = [];
  before(async () => {
    ({ api, sink } = await startMailApi(import.meta.url, { MAIL_DIGEST_DELAY_MS: String(DELAY_MS) }));
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
    await sink.stop();
  });

  const dmWith = async (from: User, to: User) =>
    (await api.request<DmConverse>('POST', '/api/dms', { token: from.token, body: { userId: to.id } })).body.id;
  const send = async (from: User, converseId: string, content: string) => {
    const res = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
      token: from.token,
      body: { content },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const groupWith = async (owner: User, member: User, name: string) => {
    const g = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name } })).body;
    const invite = await api.request<Invite>('POST', `/api/groups/${g.id}/invites`, { token: owner.token, body: {} });
    await api.request('POST', `/api/invites/${invite.body.code}/accept`, { token: member.token });
    return { converseId: g.panels[0]!.converseId, panelName: g.panels[0]!.name };
  };
  const digestFor = (email: string) =>
    sink.waitForMail((m) => m.to.includes(email) && /unread message/.test(m.subject), DELAY_MS + 30_000);

  it('sends one e-mail after the delay: DMs and mentions grouped by converse, Markdown rendered, spoilers hidden', async () => {
    const reader = await api.user('away');
    const friend = await api.user('friend');
    const owner = await api.user('owner');
    const email = await verifiedAddress(api, sink, reader);
    const dm = await dmWith(friend, reader);
    const group = await groupWith(owner, reader, 'Mail Club');

    const first = await send(friend, dm, 'Look: **bold** and ||the ending is a twist||');
    // Recorded when the mail service hears the message, after the send answered.
    const digests = api.node.app.mongo!.collection<{ _id: Types.ObjectId; dueAt: Date }>('mail_digests');
    const scheduled = await eventually(
      () => digests.findOne({ _id: new Types.ObjectId(reader.id) }),
      (doc) => doc !== null,
    );
    assert.ok(scheduled, 'a digest is scheduled');
    assert.ok(scheduled.dueAt.getTime() >= new Date(first.createdAt).getTime() + DELAY_MS, 'not due before the delay');
    const second = await send(friend, dm, 'second one');
    const mention = await send(owner, group.converseId, `hey @${reader.username}, see _this_`);
    await send(owner, group.converseId, 'not a mention: not in the e-mail');

    const mail = await digestFor(email);
    assert.match(mail.subject, /^3 unread messages from /);
    const dmTitle = mail.text.indexOf('== Direct message from');
    const groupTitle = mail.text.indexOf(`== #${group.panelName} in Mail Club`);
    assert.ok(dmTitle >= 0 && groupTitle > dmTitle, `sections in order of their first message:\n${mail.text}`);
    for (const m of [first, second]) assert.ok(mail.text.includes(`${PUBLIC_URL}/c/${dm}?message=${m.id}`));
    assert.ok(mail.html.includes(`${PUBLIC_URL}/c/${group.converseId}?message=${mention.id}`));
    assert.ok(!mail.text.includes('not a mention'));

    assert.ok(mail.html.includes('<strong>bold</strong>'));
    assert.ok(mail.html.includes('<em>this</em>'));
    for (const body of [mail.text, mail.html]) {
      assert.ok(!body.includes('twist'), 'a spoiler stays hidden');
      assert.ok(body.includes('[spoiler]'));
    }
    assert.equal(mail.headers.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    assert.match(
      mail.headers.get('list-unsubscribe') ?? '',
      new RegExp(`^<${PUBLIC_URL}/api/mail/unsubscribe\\?token=`),
    );
    assert.match(mail.text, new RegExp(`${PUBLIC_URL}/unsubscribe\\?token=`));
  });

  it('cancels what the reader read before the delay, and e-mails nobody who is online', async () => {
    const reader = await api.user('reads');
    const online = await api.user('online');
    const friend = await api.user('pal');
    const other = await api.user('pal2');
    const email = await verifiedAddress(api, sink, reader);
    const onlineEmail = await verifiedAddress(api, sink, online);
    const socket = await connectClient(api.base, online.token);
    sockets.push(socket);

    // First, so a wrongly scheduled e-mail would be due before the reader's.
    await send(friend, await dmWith(friend, online), 'seen live');
    const readDm = await dmWith(friend, reader);
    const read = await send(friend, readDm, 'read in time');
    const ack = await api.request('POST', `/api/converses/${readDm}/ack`, {
      token: reader.token,
      body: { seq: read.seq },
    });
    assert.equal(ack.status, 204);
    const laterDm = await dmWith(other, reader);
    await send(other, laterDm, 'unread');

    const mail = await digestFor(email);
    assert.match(mail.subject, /^1 unread message from /);
    assert.ok(mail.text.includes(`/c/${laterDm}?message=`));
    assert.ok(!mail.text.includes('read in time'), 'the converse read before the delay is not in it');
    assert.ok(!sink.mails.some((m) => m.to.includes(onlineEmail) && /unread/.test(m.subject)), 'online: no e-mail');
  });

  it('leaves out a converse the reader muted in their notification settings', async () => {
    const reader = await api.user('mutes');
    const noisy = await api.user('noisy');
    const quiet = await api.user('quiet');
    const email = await verifiedAddress(api, sink, reader);
    const mutedDm = await dmWith(noisy, reader);
    const muting = await api.request('PUT', '/api/notifications/settings', {
      token: reader.token,
      body: { mutedConverseIds: [mutedDm] },
    });
    assert.equal(muting.status, 200, JSON.stringify(muting.body));
    await send(noisy, mutedDm, 'muted chatter');
    const otherDm = await dmWith(quiet, reader);
    await send(quiet, otherDm, 'worth an e-mail');

    const mail = await digestFor(email);
    assert.match(mail.subject, /^1 unread message from /);
    assert.ok(mail.text.includes('worth an e-mail'));
    assert.ok(!mail.text.includes('muted chatter'), 'the muted converse is not in it');
  });

  it('unsubscribes in one click with the List-Unsubscribe URL (no sign-in)', async () => {
    const reader = await api.user('unsub');
    const friend = await api.user('sender');
    const email = await verifiedAddress(api, sink, reader);
    await send(friend, await dmWith(friend, reader), 'hello');
    const mail = await digestFor(email);
    const url = /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe')!)![1]!;

    const res = await fetch(url.replace(PUBLIC_URL, api.base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(res.status, 204);
    const me = await api.request<Me>('GET', '/api/users/me', { token: reader.token });
    assert.equal(me.body.emailNotifications, 'off');
    assert.deepEqual(await api.broker.call('user.mailRecipients', { ids: [reader.id] }), {});

    const forged = await fetch(`${api.base}/api/mail/unsubscribe?token=${url.split('token=')[1]!.slice(0, -3)}abc`, {
      method: 'POST',
    });
    assert.equal(forged.status, 400);
  });

  it('lets the owner choose when, or turn them off', async () => {
    const user = await api.user('prefs');
    for (const choice of ['1h', 'daily', 'off', '10m'] as const) {
      const res = await api.request<Me>('PATCH', '/api/users/me', {
        token: user.token,
        body: { emailNotifications: choice },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.emailNotifications, choice);
    }
    const bad = await api.request('PATCH', '/api/users/me', { token: user.token, body: { emailNotifications: '5m' } });
    assert.equal(bad.status, 400);
  });
});
