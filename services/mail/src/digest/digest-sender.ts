import { call, type ActionCaller } from '@im/sdk';
import type { DigestDoc, MissedDoc } from '../models.ts';
import type { MailDeps } from '../deps.ts';
import { renderDigest, type DigestSection } from '../templates/digest-mail.ts';
import type { MailJobData } from '../delivery/mail-job.ts';
import { digestDelayMs } from './delays.ts';

/** Digests one run claims at most (the timer runs again at once when there were more). */
const RUN_BATCH = 50;
/** Messages one e-mail shows at most: the oldest first; the rest wait for the next. */
const MESSAGES_MAX = 100;
/** A claimed digest is due again after this if its node died before sending it. */
const LEASE_MS = 5 * 60_000;

/**
 * Sends the digests that are due, each claimed first (several mail nodes
 * may run), and answers when the next one is due. A digest whose messages
 * were all read meanwhile sends nothing.
 */
export function digestSender(deps: MailDeps, broker: ActionCaller) {
  const { app, models, links, publicBase, site } = deps;
  const converseUrl = (converseId: string) => `${publicBase}/c/${converseId}`;

  const claim = (now: Date) =>
    models.digests
      .findOneAndUpdate(
        { dueAt: { $lte: now } },
        { $set: { dueAt: new Date(now.getTime() + LEASE_MS) } },
        { sort: { dueAt: 1 } },
      )
      .lean<DigestDoc>();

  /** The converses of the entries as titled sections, in the order their first message came. */
  const sectionsOf = async (entries: MissedDoc[]): Promise<DigestSection[]> => {
    const authorIds = [...new Set(entries.map((e) => e.authorId.toHexString()))];
    const authors = await call(broker, 'user.getMany', { ids: authorIds, includeInactive: true });
    const nameOf = (id: string) => authors[id]?.nickname ?? 'Someone';
    const byConverse = new Map<string, MissedDoc[]>();
    for (const e of entries) {
      const key = e.converseId.toHexString();
      byConverse.set(key, [...(byConverse.get(key) ?? []), e]);
    }
    return Promise.all(
      [...byConverse].map(async ([converseId, list]): Promise<DigestSection> => {
        const first = list[0]!;
        let title: string;
        if (first.kind === 'dm') title = `Direct message from ${nameOf(first.authorId.toHexString())}`;
        else {
          const panel = await call(broker, 'group.panelInfo', { converseId }).catch(() => null);
          title = panel ? `#${panel.panelName} in ${panel.groupName}` : 'A group conversation';
        }
        return {
          title,
          url: converseUrl(converseId),
          messages: list.map((m) => ({
            author: nameOf(m.authorId.toHexString()),
            sentAt: m.sentAt,
            content: m.content,
            url: `${converseUrl(converseId)}?message=${m.messageId.toHexString()}`,
          })),
        };
      }),
    );
  };

  /**
   * The entries past the reader's position now, in converses they may still
   * read: a read can overtake the recording of a message it covers (the
   * record waits on other services), so the position is asked again just
   * before sending; and a panel made private (or a group left) since the
   * message came is no longer theirs to be told about.
   */
  const stillUnread = async (userId: string, entries: MissedDoc[]): Promise<MissedDoc[]> => {
    if (entries.length === 0) return entries;
    const converseIds = [...new Set(entries.map((e) => e.converseId.toHexString()))];
    const [readSeqs, access] = await Promise.all([
      call(broker, 'chat.readSeqs', { userId, converseIds }),
      Promise.all(converseIds.map((converseId) => call(broker, 'chat.access', { converseId, userId }))),
    ]);
    const readable = new Set(converseIds.filter((_, i) => access[i] !== null));
    return entries.filter(
      (e) => readable.has(e.converseId.toHexString()) && e.seq > (readSeqs[e.converseId.toHexString()] ?? 0),
    );
  };

  /** Sends one claimed digest (if anything is left unread), then schedules the next if more came. */
  const sendOne = async (digest: DigestDoc): Promise<void> => {
    const userId = digest._id.toHexString();
    const recipient = (await call(broker, 'user.mailRecipients', { ids: [userId] }))[userId];
    const entries = recipient
      ? await models.missed.find({ userId: digest._id }).sort({ sentAt: 1 }).limit(MESSAGES_MAX).lean<MissedDoc[]>()
      : [];
    const unread = await stillUnread(userId, entries);
    if (recipient && unread.length > 0) {
      const token = await links.sign('unsubscribe', { userId });
      const mail = renderDigest({
        site,
        nickname: recipient.nickname,
        sections: await sectionsOf(unread),
        unsubscribeUrl: `${publicBase}/unsubscribe?token=${token}`,
      });
      const job: MailJobData = {
        kind: 'digest',
        to: recipient.email,
        ...mail,
        headers: {
          'List-Unsubscribe': `<${publicBase}/api/mail/unsubscribe?token=${token}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      };
      await deps.queue()?.enqueue([job]);
    }
    // Turned off or unverified meanwhile: what was kept for them goes.
    if (!recipient) await models.missed.deleteMany({ userId: digest._id });
    else await models.missed.deleteMany({ _id: { $in: entries.map((e) => e._id) } });
    // Removed before looking for more: a message recorded from here on schedules a digest of its own.
    await models.digests.deleteOne({ _id: digest._id });
    const left = await models.missed.exists({ userId: digest._id });
    if (left) {
      const every = recipient?.emailNotifications ?? digest.every;
      await models.digests.updateOne(
        { _id: digest._id },
        { $setOnInsert: { dueAt: new Date(Date.now() + digestDelayMs(app.config, every)), every } },
        { upsert: true },
      );
    }
  };

  return async function sendDue(): Promise<number | undefined> {
    for (let i = 0; i < RUN_BATCH; i++) {
      const digest = await claim(new Date());
      if (!digest) break;
      // A failure leaves the digest claimed: it is tried again when the lease ends.
      await sendOne(digest).catch((err: unknown) => app.logger.warn({ err }, 'could not send a missed-message e-mail'));
    }
    const next = await models.digests.findOne({}, { dueAt: 1 }).sort({ dueAt: 1 }).lean<DigestDoc>();
    return next?.dueAt.getTime();
  };
}
