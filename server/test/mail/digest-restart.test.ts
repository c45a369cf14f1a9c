import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DmConverse } from '@im/protocol';
import type { SmtpSink } from '@im/testkit';
import { Types } from 'mongoose';
import type { RunningNode } from '../../src/node.ts';
import { eventually, startSingleNode, type ApiHarness } from '../api/harness.ts';
import { PUBLIC_URL, startMailApi, verifiedAddress } from './mail-harness.ts';

/** Long enough for the node to stop and start again before the e-mail is due. */
const DELAY_MS = 4000;

describe('e-mail across a restart', () => {
  let api: ApiHarness;
  let sink: SmtpSink;
  let restarted: RunningNode | undefined;
  /** The address of the node running now. */
  let base = '';
  const settings = () => ({
    SMTP_URL: sink.url,
    MAIL_FROM: 'chat@example.org',
    PUBLIC_URL,
    MAIL_DIGEST_DELAY_MS: String(DELAY_MS),
  });
  before(async () => {
    ({ api, sink } = await startMailApi(import.meta.url, { MAIL_DIGEST_DELAY_MS: String(DELAY_MS) }));
  });
  after(async () => {
    await restarted?.stop();
    await api.env.close();
    await sink.stop();
  });

  it('sends the digest a stopped node had scheduled once a node starts again', async () => {
    const reader = await api.user('restart');
    const friend = await api.user('writer');
    const email = await verifiedAddress(api, sink, reader);
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: friend.token, body: { userId: reader.id } }))
      .body.id;
    await api.request('POST', `/api/converses/${dm}/messages`, {
      token: friend.token,
      body: { content: 'still there?' },
    });
    const digests = api.node.app.mongo!.collection('mail_digests');
    const scheduled = await eventually(
      () => digests.findOne({ _id: new Types.ObjectId(reader.id) }),
      (doc) => doc !== null,
    );
    assert.ok(scheduled, 'scheduled in MongoDB');

    await api.node.stop();
    assert.equal(
      sink.mails.filter((m) => /unread/.test(m.subject)).length,
      0,
      'nothing was sent before the stop (the delay is longer than a stop takes)',
    );

    ({ node: restarted, base } = await startSingleNode(api.env, settings()));
    const mail = await sink.waitForMail((m) => m.to.includes(email) && /unread/.test(m.subject));
    assert.ok(mail.text.includes('still there?'));
  });

  it('keeps an e-mail the SMTP server turned away in the outbox, and sends it after a restart', async () => {
    const outbox = restarted!.app.mongo!.collection('mail_outbox');
    const username = `outbox${process.pid}`;
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse battery' }),
    });
    const user = (await registered.json()) as { token: string };
    sink.refuse(true);
    const email = `${username}@example.org`;
    const res = await fetch(`${base}/api/users/me`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    assert.equal(res.status, 200, 'answered whatever SMTP does');
    await eventually(
      async () => sink.refused,
      (n) => n > 0,
    );
    assert.equal(await outbox.countDocuments(), 1, 'waiting in the outbox for its next try');

    await restarted!.stop();
    sink.refuse(false);
    ({ node: restarted, base } = await startSingleNode(api.env, settings()));
    const mail = await sink.waitForMail((m) => m.to.includes(email));
    assert.equal(mail.subject, 'Confirm your e-mail address');
    const after = await eventually(
      () => restarted!.app.mongo!.collection('mail_outbox').countDocuments(),
      (n) => n === 0,
    );
    assert.equal(after, 0, 'gone from the outbox once sent');
  });
});
