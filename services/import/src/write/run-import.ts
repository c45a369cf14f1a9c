import type { ImportSummary } from '@im/protocol';
import type { ObjectStorage } from '@im/sdk';
import type mongoose from 'mongoose';
import type { Types } from 'mongoose';
import type { ImportSource, SourceUser } from '../source/types.ts';
import { settleAccounts, type Person } from './accounts.ts';
import { importCollections } from './collections.ts';
import { importCustomEmoji } from './custom-emoji.ts';
import { finishConverses, markRead, writeGroup } from './finish.ts';
import { DerivedIds } from './ids.ts';
import { skipReason } from './message-filter.ts';
import { MessageWriter } from './message-writer.ts';
import { numberMessages } from './numbering.ts';
import { planDms } from './dms.ts';
import { planGroups, usableDm } from './plan.ts';

export interface ImportProgress {
  phase: 'reading' | 'people' | 'groups' | 'messages' | 'finishing';
  messages: number;
  total?: number;
}

export interface ImportOutcome {
  summary: ImportSummary;
  skippedReasons: Record<string, number>;
  groupIds: Types.ObjectId[];
  dmConverseIds: Types.ObjectId[];
}

/** An account that does not exist: the import cannot start. */
export class UnknownOwnerError extends Error {}

/**
 * Imports one export into the platform's database and storage. The steps,
 * each safe to run again (a second run finds everything and adds nothing):
 * number the messages (a first pass that reads only where and when), settle
 * who everyone is, make memberships, converses and custom emoji, write the
 * messages with their reactions and files, move counters and read positions,
 * and write each group's document last. The running platform is told
 * afterwards (see ../announce/).
 */
export async function runImport(
  db: mongoose.mongo.Db,
  storage: ObjectStorage,
  source: ImportSource,
  options: { owner: string; progress?: (p: ImportProgress) => void },
): Promise<ImportOutcome> {
  const c = importCollections(db);
  const progress = options.progress ?? (() => undefined);
  const owner = await c.users.findOne(
    { username: options.owner.toLowerCase(), status: 'active' },
    { projection: { _id: 1 } },
  );
  if (!owner) throw new UnknownOwnerError(`no active account is named ${options.owner}`);
  const ownerId = owner._id as Types.ObjectId;
  const ids = new DerivedIds(source.kind, source.origin);
  const skipped = source.skipped;

  progress({ phase: 'reading', messages: 0 });
  const groups = await collect(source.groups());
  const people = await collect(source.users());
  const channels = (await collect(source.channels())).filter((ch) => {
    if (ch.kind === 'dm' ? usableDm(ch) : groups.some((g) => g.key === ch.groupKey)) return true;
    skipped.add(ch.kind === 'dm' ? 'DM with fewer than two people' : 'channel of no group in the export');
    return false;
  });
  const known = new Set(people.map((p) => p.key));
  const numbering = await numberMessages(source, known, new Set(channels.map((ch) => ch.key)));

  progress({ phase: 'people', messages: 0, total: numbering.total });
  const everyone: SourceUser[] = [
    ...people,
    ...[...numbering.unknownPeople].map((key) => ({
      key,
      username: `former-${key}`,
      displayName: 'Unknown user',
      deleted: true,
    })),
  ];
  for (const ch of channels)
    for (const k of ch.memberKeys)
      if (!known.has(k) && !numbering.unknownPeople.has(k)) {
        everyone.push({ key: k, username: `former-${k}`, displayName: 'Unknown user', deleted: true });
        numbering.unknownPeople.add(k);
      }
  const accounts = await settleAccounts(c, ids, everyone);
  const person = (key: string): Person => accounts.byKey.get(key)!;

  progress({ phase: 'groups', messages: 0, total: numbering.total });
  const { planned, destinations } = planGroups(ids, groups, channels, person, ownerId, numbering.authorsByChannel);
  const dmConverseIds = await planDms(
    c,
    ids,
    channels.filter((ch) => ch.kind === 'dm'),
    person,
    numbering,
    destinations,
  );
  const converseDocs = planned.flatMap((g) => g.panels.map((p) => ({ _id: p.converseId, lastSeq: 0 })));
  for (const doc of converseDocs)
    await c.converses.updateOne({ _id: doc._id }, { $setOnInsert: doc }, { upsert: true });
  let emoji = 0;
  for (const g of planned) emoji += await importCustomEmoji(c, storage, ids, source, g, ownerId, skipped);

  progress({ phase: 'messages', messages: 0, total: numbering.total });
  const writer = new MessageWriter({
    c,
    storage,
    ids,
    numbering,
    destinations,
    person,
    skipped,
    progress: (messages) => progress({ phase: 'messages', messages, total: numbering.total }),
  });
  let ordinal = 0;
  const channelKeys = new Set(channels.map((ch) => ch.key));
  for await (const m of source.messages()) {
    const reason = skipReason(m, channelKeys);
    if (reason) skipped.add(reason);
    else await writer.add(m, ordinal);
    ordinal++;
  }
  await writer.flush();

  progress({ phase: 'finishing', messages: writer.counts.messages, total: numbering.total });
  await finishConverses(c, writer.converses, writer.threads);
  await markRead(c, destinations.values(), writer.converses);
  const joinedAt = new Date();
  let groupsMade = 0;
  let panels = 0;
  for (const g of planned) {
    const written = await writeGroup(c, g, ownerId, joinedAt);
    if (written.created) groupsMade++;
    else skipped.add('group already imported');
    panels += written.panels;
  }
  skipped.add('account imported before', accounts.importedBefore);
  const reasons = skipped.toJSON();
  return {
    summary: {
      groups: groupsMade,
      panels,
      users: accounts.made,
      messages: writer.counts.messages,
      replies: writer.counts.replies,
      reactions: writer.counts.reactions,
      files: writer.counts.files + emoji,
      skipped: skipped.total,
    },
    skippedReasons: reasons,
    groupIds: planned.map((g) => g.id),
    dmConverseIds,
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
