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

describe('missed-message e-mails across a restart', () => {
  let api: ApiHarness;
  let sink: SmtpSink;
  let restarted: RunningNode | undefined;
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

    ({ node: restarted } = await startSingleNode(api.env, settings()));
    const mail = await sink.waitForMail((m) => m.to.includes(email) && /unread/.test(m.subject));
    assert.ok(mail.text.includes('still there?'));
  });
});
