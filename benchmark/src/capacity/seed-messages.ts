// The messages themselves, in time order, with everything the services keep
// beside each one: mentions (resolved with the chat service's own parser and
// its rule: members only), reactions (documents, and the counts on the
// message), replies, attachments (file records), the idempotency key, and
// the notification inbox entries of mentions and DMs not yet read.
import type { Types } from 'mongoose';
import { mentionedUsernames, type MessageDoc, type ReactionDoc } from '@im/service-chat';
import type { FileDoc } from '@im/service-file';
import type { NotificationDoc } from '@im/service-push';
import type { IdKind } from './seed-ids.ts';
import { rng } from './seed-prng.ts';
import type { Traffic } from './seed-traffic.ts';

export interface MessageBatch {
  messages: MessageDoc[];
  reactions: ReactionDoc[];
  files: FileDoc[];
  notifications: NotificationDoc[];
}

export interface MessageInputs {
  seed: number;
  traffic: Traffic;
  usernamePrefix: string;
  userIds: readonly Types.ObjectId[];
  converseIds: readonly Types.ObjectId[];
  makeId: (kind: IdKind, index: number, at: Date | number) => Types.ObjectId;
  /** Message k is written at from + k * step (ms): increasing, so seq order is time order. */
  from: number;
  step: number;
}

const MENTION_RATE = 0.05;
const REACTION_RATE = 0.1;
const REPLY_RATE = 0.03;
const ATTACHMENT_RATE = 0.01;
/** The recent messages of a converse that a reply may point at. */
const REPLY_WINDOW = 16;
const EMOJIS = ['👍', '❤️', '😂', '🎉', '👀', '🙏', '🔥', '✅', '😮', '🚀'];
const WORDS = (
  'the a we it this that deploy build test review merge branch release server client socket group panel ' +
  'message queue index cache latency budget meeting lunch coffee today tomorrow yesterday friday later soon ' +
  'looks good great thanks please check again fixed broken slow fast works here there maybe sure agreed ' +
  'idea plan draft notes docs issue ticket patch config metrics graph spike rollback hotfix ship pair ' +
  'call sync update question answer numbers report weekend travel office remote team project'
).split(' ');
const FILES = [
  ['pdf', 'application/pdf'],
  ['txt', 'text/plain'],
  ['zip', 'application/zip'],
  ['csv', 'text/csv'],
] as const;
const PREVIEW_CHARS = 140;

/** Yields the messages in time order, `batchSize` at a time, with what goes with them. */
export function* messageBatches(inputs: MessageInputs, batchSize: number): Generator<MessageBatch> {
  const { traffic, userIds, converseIds, makeId, usernamePrefix } = inputs;
  const r = rng(inputs.seed, 'messages');
  const total = traffic.converseOf.length;
  const seqOf = new Int32Array(traffic.converses.length);
  const recent = new Map<number, Types.ObjectId[]>();
  /** Membership tests for mention resolution, per group (DMs are checked against their pair). */
  const memberSets = new Map<number, Set<number>>();
  const isMember = (c: number, user: number) => {
    const slot = traffic.converses[c]!;
    if (slot.kind === 'dm') return slot.members.includes(user);
    let set = memberSets.get(slot.owner);
    if (!set) memberSets.set(slot.owner, (set = new Set(slot.members)));
    return set.has(user);
  };
  const userByName = (name: string): number | undefined => {
    if (!name.startsWith(usernamePrefix)) return undefined;
    const digits = name.slice(usernamePrefix.length);
    const index = /^(0|[1-9]\d*)$/.test(digits) ? Number(digits) : -1;
    return index >= 0 && index < userIds.length ? index : undefined;
  };
  let reactionCount = 0;
  let fileCount = 0;
  let notificationCount = 0;

  let batch: MessageBatch = { messages: [], reactions: [], files: [], notifications: [] };
  for (let k = 0; k < total; k += 1) {
    const c = traffic.converseOf[k]!;
    const author = traffic.authorOf[k]!;
    const slot = traffic.converses[c]!;
    const seq = (seqOf[c] = seqOf[c]! + 1);
    const at = inputs.from + Math.floor(k * inputs.step);
    const createdAt = new Date(at);
    const id = makeId('message', k, at);
    const converseId = converseIds[c]!;
    const authorId = userIds[author]!;

    // Content: a sentence; some with @mentions of other members, some sharing a file.
    const words = Array.from({ length: r.int(3, 18) }, () => r.pick(WORDS));
    if (r.chance(MENTION_RATE) && slot.members.length > 1) {
      const targets = new Set<number>();
      const want = slot.kind === 'dm' ? 1 : r.int(1, 2);
      for (let tries = 0; targets.size < want && tries < 10; tries += 1) {
        const t = r.pick(slot.members);
        if (t !== author) targets.add(t);
      }
      for (const t of targets) words.splice(r.int(0, words.length), 0, `@${usernamePrefix}${t}`);
    }
    let content = words.join(' ');
    content = content.charAt(0).toUpperCase() + content.slice(1) + (r.chance(0.2) ? '?' : '');

    // Mentions exactly as the chat service resolves them: parsed names, known users, members only.
    const mentionIndexes = content.includes('@')
      ? [
          ...new Set(
            mentionedUsernames(content)
              .map(userByName)
              .filter((u): u is number => u !== undefined && isMember(c, u)),
          ),
        ]
      : [];

    const attachments: Types.ObjectId[] = [];
    if (r.chance(ATTACHMENT_RATE)) {
      const fileAt = at - 5_000;
      const fileId = makeId('file', fileCount++, fileAt);
      const [ext, mime] = r.pick(FILES);
      const month = createdAt.toISOString().slice(0, 7).replace('-', '');
      const uuid = r.hex(32).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
      batch.files.push({
        _id: fileId,
        uploaderId: authorId,
        name: `${r.pick(WORDS)}-${k}.${ext}`,
        size: r.int(2_000, 3_000_000),
        mime,
        sha256: r.hex(64),
        key: `f/${month}/${uuid}`,
        converseIds: [converseId],
        createdAt: new Date(fileAt),
      });
      attachments.push(fileId);
    }

    let replyTo: Types.ObjectId | undefined;
    const window = recent.get(c);
    if (window && window.length > 0 && r.chance(REPLY_RATE)) replyTo = r.pick(window);
    if (window) {
      window.push(id);
      if (window.length > REPLY_WINDOW) window.shift();
    } else recent.set(c, [id]);

    const reactionCounts: Record<string, number> = {};
    if (r.chance(REACTION_RATE)) {
      const kinds = r.sample(EMOJIS, r.pick([1, 1, 1, 1, 1, 1, 2, 2, 2, 3]));
      for (const emoji of kinds) {
        const count = 1 + Math.floor(r.next() ** 3 * Math.min(8, slot.members.length - 1));
        const who = r.sample(slot.members, count);
        for (const u of who) {
          batch.reactions.push({
            _id: makeId('reaction', reactionCount++, at + 60_000),
            messageId: id,
            userId: userIds[u]!,
            emoji,
          });
        }
        reactionCounts[emoji] = who.length;
      }
    }

    // The shape the writer stores: the draft, then id, seq, createdAt and empty counts (here: the counts
    // the reactions' $inc made); fields a send leaves out are absent, not null.
    const clientMsgId = `seed-${k.toString(36)}`;
    const doc: MessageDoc = {
      converseId,
      authorId,
      content,
      mentions: mentionIndexes.map((u) => userIds[u]!),
      attachments,
      ...(replyTo ? { replyTo } : {}),
      clientMsgId,
      dedupeKey: `${authorId.toHexString()}:${clientMsgId}`,
      _id: id,
      seq,
      createdAt,
      reactionCounts,
    };
    batch.messages.push(doc);

    // The push service's inbox: DMs for the other member, mentions for the mentioned (never the
    // author), kept until the recipient reads past them, so only those above their read position.
    const recipients = slot.kind === 'dm' ? slot.members.filter((m) => m !== author) : mentionIndexes;
    for (const u of recipients) {
      if (u === author || (traffic.readSeq.get(traffic.key(c, u)) ?? 0) >= seq) continue;
      batch.notifications.push({
        _id: makeId('notification', notificationCount++, at),
        userId: userIds[u]!,
        kind: slot.kind === 'dm' ? 'dm' : 'mention',
        converseId,
        messageId: id,
        seq,
        authorId,
        preview: content.slice(0, PREVIEW_CHARS),
        createdAt,
      });
    }

    if (batch.messages.length >= batchSize) {
      yield batch;
      batch = { messages: [], reactions: [], files: [], notifications: [] };
    }
  }
  if (batch.messages.length > 0) yield batch;
}
