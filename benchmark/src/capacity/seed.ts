// The capacity benchmark's dataset: `npm run bench -- seed --users N --groups G
// --messages M [--seed S] [--mongo-url URL]` fills a MongoDB database with
// users, groups, members, panels, DMs, messages, reactions, read positions,
// files and inbox entries, in the services' own shapes and under their own
// indexes, written in bulk (not through the API). The same options give the
// same dataset; its manifest (collection `bench_dataset`) makes a second run
// with the same options a no-op. The capacity run calls `seedDataset`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Connection } from 'mongoose';
import { connectMongo } from '@im/sdk';
import { startMongo, type MongoServerHandle } from '@im/dev-servers';
import { withDatabase } from '@im/testkit';
import { createPasswordHasher } from '@im/service-user';
import { benchArgs, intOption } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { phasedProgress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { idMaker } from './seed-ids.ts';
import { messageBatches } from './seed-messages.ts';
import { createServiceIndexes, serviceModels, type ServiceModels } from './seed-models.ts';
import { planCommunity } from './seed-plan.ts';
import { planTraffic } from './seed-traffic.ts';
import type { DatasetCounts, DatasetManifest, SeedOptions } from './types.ts';

/** Every seeded user is `cap_<index>`. */
export const USERNAME_PREFIX = 'cap_';
/** The cost the benchmark deployments hash new passwords at (PASSWORD_HASH_MEMORY_KIB in lib/target.ts). */
export const PASSWORD_HASH_MEMORY_KIB = 1024;
/** Where the manifest lives, in the dataset's own database. */
export const MANIFEST_COLLECTION = 'bench_dataset';
const MANIFEST_ID = 'manifest';
/** Present while a dataset is being written: what is there may be dropped. */
const MARKER_ID = 'generating';
/** Documents per insertMany, and how many may be in flight at once (the next batch is made meanwhile). */
const BATCH = 5000;
const IN_FLIGHT = 2;
const DAY_MS = 86_400_000;

type Db = NonNullable<Connection['db']>;

export const passwordFor = (seed: number) => `capacity-${seed}`;

export type SeedOutcome =
  /** The database held this dataset already: nothing was written. */
  | { kind: 'reused' }
  /** The database had no dataset. */
  | { kind: 'created' }
  /** It held another one (these options), which was dropped. */
  | { kind: 'replaced'; previous: Pick<DatasetManifest, 'seed' | 'users' | 'groups' | 'messages'> }
  /** A run had stopped midway; what it left was dropped. */
  | { kind: 'resumed' };

/** Makes sure the database holds the dataset of these options; returns its manifest. */
export async function seedDataset(options: SeedOptions): Promise<DatasetManifest> {
  return (await ensureDataset(options)).manifest;
}

/** seedDataset, also telling whether anything was written and what was there before. */
export async function ensureDataset(
  options: SeedOptions,
): Promise<{ manifest: DatasetManifest; outcome: SeedOutcome }> {
  validate(options);
  const connection = await connectMongo(options.mongoUrl, { timeoutMs: 15_000 });
  try {
    const db = connection.db!;
    const store = db.collection<{ _id: string }>(MANIFEST_COLLECTION);
    const stored = (await store.findOne({ _id: MANIFEST_ID })) as (DatasetManifest & { _id: string }) | null;
    if (stored && sameDataset(stored, options)) {
      const { _id, ...manifest } = stored;
      return { manifest, outcome: { kind: 'reused' } };
    }
    const interrupted = !stored && (await store.findOne({ _id: MARKER_ID })) !== null;
    if (!stored && !interrupted) await refuseForeignData(db);
    await dropAll(db);
    await store.insertOne({ _id: MARKER_ID, startedAt: new Date(), seed: options.seed } as { _id: string });
    const manifest = await generate(connection, options);
    await store.insertOne({ _id: MANIFEST_ID, ...manifest });
    await store.deleteOne({ _id: MARKER_ID });
    const outcome: SeedOutcome = stored
      ? {
          kind: 'replaced',
          previous: { seed: stored.seed, users: stored.users, groups: stored.groups, messages: stored.messages },
        }
      : interrupted
        ? { kind: 'resumed' }
        : { kind: 'created' };
    return { manifest, outcome };
  } finally {
    await connection.close();
  }
}

/** The manifest of the dataset in this database, or null when there is none (or only a half-written one). */
export async function readManifest(mongoUrl: string): Promise<DatasetManifest | null> {
  const connection = await connectMongo(mongoUrl, { timeoutMs: 15_000 });
  try {
    const stored = await connection.db!.collection<{ _id: string }>(MANIFEST_COLLECTION).findOne({ _id: MANIFEST_ID });
    if (!stored) return null;
    const { _id, ...manifest } = stored as DatasetManifest & { _id: string };
    return manifest;
  } finally {
    await connection.close();
  }
}

function validate(o: SeedOptions): void {
  const check = (name: string, value: number, min: number) => {
    if (!Number.isSafeInteger(value) || value < min) throw new Error(`seed: ${name} must be an integer >= ${min}`);
  };
  check('users', o.users, 2);
  check('groups', o.groups, 1);
  check('messages', o.messages, 0);
  check('seed', o.seed, 0);
  if (o.seed > 0xffffffff) throw new Error('seed: seed must fit in 32 bits');
}

const sameDataset = (m: DatasetManifest, o: SeedOptions) =>
  m.version === 1 && m.seed === o.seed && m.users === o.users && m.groups === o.groups && m.messages === o.messages;

/** A database with documents but neither a manifest nor a run's marker is not ours to drop. */
async function refuseForeignData(db: Db): Promise<void> {
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name === MANIFEST_COLLECTION || name.startsWith('system.')) continue;
    const n = await db.collection(name).estimatedDocumentCount();
    if (n > 0) {
      throw new Error(
        `seed: database ${db.databaseName} holds data that is not a seeded dataset (${name}: ${n} documents); ` +
          'refusing to drop it. Point --mongo-url at an empty database.',
      );
    }
  }
}

async function dropAll(db: Db): Promise<void> {
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (!name.startsWith('system.')) await db.dropCollection(name);
  }
}

/** What a bulk insert needs of a service model: its schema (to check a document) and its collection. */
interface BulkModel {
  readonly modelName: string;
  readonly collection: { insertMany(docs: object[], options: { ordered: boolean }): Promise<unknown> };
  new (doc: object): { validateSync(): Error | null | undefined };
}

/** Bulk inserts with a bounded number in flight; the first failure fails the run. */
class Writes {
  readonly #inFlight = new Set<Promise<void>>();
  #failure: unknown;
  #written = 0;

  get written(): number {
    return this.#written;
  }

  async add(model: BulkModel, docs: readonly object[], done?: () => void): Promise<void> {
    if (docs.length === 0) return;
    // The services' schema judges the first document of every batch: the shapes cannot drift unnoticed.
    const invalid = new model(docs[0]!).validateSync();
    if (invalid) throw new Error(`seed: a ${model.modelName} document does not fit its schema: ${invalid.message}`);
    while (this.#inFlight.size >= IN_FLIGHT) await Promise.race(this.#inFlight);
    this.#throwIfFailed();
    const write: Promise<void> = model.collection
      .insertMany(docs as object[], { ordered: false })
      .then(() => {
        this.#written += docs.length;
        done?.();
      })
      .catch((err: unknown) => {
        this.#failure ??= err;
      })
      .finally(() => this.#inFlight.delete(write));
    this.#inFlight.add(write);
  }

  /** add() in BATCH-sized pieces. */
  async addAll(model: BulkModel, docs: readonly object[], done?: (n: number) => void): Promise<void> {
    for (let i = 0; i < docs.length; i += BATCH) {
      const part = docs.slice(i, i + BATCH);
      await this.add(model, part, () => done?.(part.length));
    }
  }

  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.race(this.#inFlight);
    this.#throwIfFailed();
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}

/** Writes the dataset into an emptied database; returns its manifest (not yet stored). */
async function generate(connection: Connection, options: SeedOptions): Promise<DatasetManifest> {
  const started = performance.now();
  const { seed } = options;
  const report = options.onProgress ?? (() => undefined);
  const models = serviceModels(connection);
  const as = (m: ServiceModels[keyof ServiceModels]) => m as unknown as BulkModel;
  report('indexes', 0, 1);
  await createServiceIndexes(models);
  report('indexes', 1, 1);

  const plan = planCommunity(options.users, options.groups, seed);
  const traffic = planTraffic(plan, options.messages, seed);
  const makeId = idMaker(seed);
  const now = Math.floor(Date.now() / 1000) * 1000;
  const writes = new Writes();
  const counter = (phase: string, total: number) => {
    let done = 0;
    report(phase, 0, total);
    return (n: number) => report(phase, (done += n), total);
  };

  // Users: one password hash (the user service's own hasher), shared by all.
  const password = passwordFor(seed);
  const passwordHash = await createPasswordHasher(PASSWORD_HASH_MEMORY_KIB).hash(password);
  const userIds = Array.from({ length: options.users }, (_, i) =>
    makeId('user', i, now - 40 * DAY_MS + Math.floor((i * 4 * DAY_MS) / options.users)),
  );
  const users = userIds.map((_id, i) => {
    const username = `${USERNAME_PREFIX}${i}`;
    return {
      _id,
      username,
      nickname: username,
      nicknameLower: username,
      passwordHash,
      status: 'active' as const,
      createdAt: _id.getTimestamp(),
    };
  });
  await writes.addAll(as(models.users), users, counter('users', users.length));
  await writes.drain();

  // Groups with their panels (each panel's converse id), and their members in their own collection.
  const converseIds = traffic.converses.map((slot, c) => {
    const at =
      slot.kind === 'panel'
        ? now - 35 * DAY_MS + slot.owner * 60_000
        : now - 32 * DAY_MS + Math.floor((slot.owner * DAY_MS) / plan.dms.length);
    return makeId('converse', c, at);
  });
  let panelCount = 0;
  let converseIndex = 0;
  const groups = plan.groups.map((g, gi) => {
    const createdAt = new Date(now - 35 * DAY_MS + gi * 60_000);
    return {
      _id: makeId('group', gi, createdAt),
      name: g.name,
      ownerId: userIds[g.members[0]!]!,
      panels: g.panels.map((name) => ({
        _id: makeId('panel', panelCount++, createdAt),
        name,
        type: 'text' as const,
        converseId: converseIds[converseIndex++]!,
      })),
      memberCount: g.members.length,
      createdAt,
    };
  });
  await writes.addAll(as(models.groups), groups, counter('groups', groups.length));
  await writes.drain();
  const membersTotal = plan.groups.reduce((n, g) => n + g.members.length, 0);
  const memberProgress = counter('members', membersTotal);
  let memberCount = 0;
  for (const [gi, g] of plan.groups.entries()) {
    const joinedBase = groups[gi]!.createdAt.getTime();
    const docs = g.members.map((u, j) => {
      const joinedAt = new Date(joinedBase + j * 1000);
      return {
        _id: makeId('member', memberCount++, joinedAt),
        groupId: groups[gi]!._id,
        userId: userIds[u]!,
        role: j === 0 ? ('owner' as const) : j <= g.admins ? ('admin' as const) : ('member' as const),
        joinedAt,
      };
    });
    await writes.addAll(as(models.members), docs, memberProgress);
  }
  await writes.drain();

  // Messages, with their reactions, files and inbox entries, in time order over the last 30 days.
  const from = now - 30 * DAY_MS;
  const step = options.messages > 1 ? (30 * DAY_MS - 60_000) / (options.messages - 1) : 0;
  const messageProgress = counter('messages', options.messages);
  const extras = {
    reactions: [] as object[],
    files: [] as object[],
    notifications: [] as object[],
  };
  const counts = { mentions: 0, replies: 0, reactedMessages: 0, reactions: 0, files: 0, notifications: 0 };
  const flushExtras = async (all: boolean) => {
    for (const [name, model] of [
      ['reactions', models.reactions],
      ['files', models.files],
      ['notifications', models.notifications],
    ] as const) {
      if (extras[name].length >= BATCH || (all && extras[name].length > 0)) {
        await writes.addAll(as(model), extras[name]);
        extras[name] = [];
      }
    }
  };
  for (const batch of messageBatches(
    { seed, traffic, usernamePrefix: USERNAME_PREFIX, userIds, converseIds, makeId, from, step },
    BATCH,
  )) {
    for (const m of batch.messages) {
      if (m.mentions.length > 0) counts.mentions += 1;
      if (m.replyTo) counts.replies += 1;
      if (Object.keys(m.reactionCounts).length > 0) counts.reactedMessages += 1;
    }
    counts.reactions += batch.reactions.length;
    counts.files += batch.files.length;
    counts.notifications += batch.notifications.length;
    extras.reactions.push(...batch.reactions);
    extras.files.push(...batch.files);
    extras.notifications.push(...batch.notifications);
    await writes.add(as(models.messages), batch.messages, () => messageProgress(batch.messages.length));
    await flushExtras(false);
  }
  await flushExtras(true);
  await writes.drain();

  // Counters: every DM (opened before its first message), every panel with messages (the writer's
  // upsert makes it with the first one), lastSeq = its message count, lastMessageAt = its last message's time.
  const lastAt = new Float64Array(traffic.converses.length);
  traffic.converseOf.forEach((c, k) => (lastAt[c] = from + Math.floor(k * step)));
  const converses: object[] = [];
  traffic.converses.forEach((slot, c) => {
    const lastSeq = traffic.lastSeq[c]!;
    const lastMessageAt = lastSeq > 0 ? { lastMessageAt: new Date(lastAt[c]!) } : {};
    if (slot.kind === 'panel') {
      if (lastSeq > 0) converses.push({ _id: converseIds[c]!, lastSeq, ...lastMessageAt });
      return;
    }
    // As openDm stores them: the two ids sorted as strings, joined for the unique key.
    const memberIds = slot.members.map((u) => userIds[u]!).sort((a, b) => (a.toHexString() < b.toHexString() ? -1 : 1));
    converses.push({
      _id: converseIds[c]!,
      dmKey: memberIds.map((id) => id.toHexString()).join(':'),
      type: 'dm',
      memberIds,
      lastSeq,
      createdAt: converseIds[c]!.getTimestamp(),
      ...lastMessageAt,
    });
  });
  await writes.addAll(as(models.converses), converses, counter('converses', converses.length));
  await writes.drain();

  // Read positions.
  const reads: object[] = [];
  traffic.converses.forEach((slot, c) => {
    for (const u of slot.members) {
      const readSeq = traffic.readSeq.get(traffic.key(c, u));
      if (readSeq === undefined) continue;
      reads.push({
        _id: makeId('read', reads.length, lastAt[c]!),
        userId: userIds[u]!,
        converseId: converseIds[c]!,
        readSeq,
      });
    }
  });
  await writes.addAll(as(models.reads), reads, counter('reads', reads.length));
  await writes.drain();

  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const fullCounts: DatasetCounts = {
    users: users.length,
    groups: groups.length,
    members: memberCount,
    panels: panelCount,
    dms: plan.dms.length,
    converses: converses.length,
    messages: options.messages,
    ...counts,
    reads: reads.length,
  };
  return {
    version: 1,
    seed,
    users: options.users,
    groups: options.groups,
    messages: options.messages,
    usernamePrefix: USERNAME_PREFIX,
    password,
    groupList: plan.groups.map((g, gi) => ({
      id: groups[gi]!._id.toHexString(),
      name: g.name,
      memberIndexes: g.members,
      converseIds: groups[gi]!.panels.map((p) => p.converseId.toHexString()),
    })),
    dmList: plan.dms.map((pair, di) => ({ id: converseIds[panelCount + di]!.toHexString(), memberIndexes: pair })),
    createdAt: new Date().toISOString(),
    seconds,
    counts: fullCounts,
    messagesFrom: new Date(from).toISOString(),
    messagesTo: new Date(from + Math.floor(Math.max(0, options.messages - 1) * step)).toISOString(),
    passwordHashMemoryKib: PASSWORD_HASH_MEMORY_KIB,
  };
}

/** Total documents a manifest's dataset holds. */
export const documentTotal = (c: DatasetCounts) =>
  c.users + c.groups + c.members + c.converses + c.messages + c.reactions + c.files + c.reads + c.notifications;

/** The JVM's memory (the dev server): resident now and at peak, and the live heap after a full GC when jcmd is there. */
function jvmMemory(pid: number | undefined): Record<string, number> {
  if (pid === undefined) return {};
  const out: Record<string, number> = {};
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    out.rssMiB = Math.round(kb('VmRSS') / 1024);
    out.peakRssMiB = Math.round(kb('VmHWM') / 1024);
  } catch {
    return out;
  }
  try {
    execFileSync('jcmd', [String(pid), 'GC.run'], { encoding: 'utf8', timeout: 60_000 });
    const info = execFileSync('jcmd', [String(pid), 'GC.heap_info'], { encoding: 'utf8', timeout: 30_000 });
    const totals = [...info.matchAll(/total (\d+)K, used (\d+)K/g)];
    if (totals.length > 0) {
      out.heapCommittedMiB = Math.round(totals.reduce((n, m) => n + Number(m[1]), 0) / 1024);
      out.heapUsedAfterGcMiB = Math.round(totals.reduce((n, m) => n + Number(m[2]), 0) / 1024);
    }
    const flags = execFileSync('jcmd', [String(pid), 'VM.flags'], { encoding: 'utf8', timeout: 30_000 });
    const max = /MaxHeapSize=(\d+)/.exec(flags)?.[1];
    if (max) out.maxHeapMiB = Math.round(Number(max) / 2 ** 20);
  } catch {
    // No jcmd (a JRE without the tools): RSS only.
  }
  return out;
}

/** A URL without a database gets `capacity`. */
function withDefaultDatabase(url: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(url);
  if (!match) return url;
  const [, base, path, query] = match;
  return path && path !== '/' ? url : `${base}/capacity${query ?? ''}`;
}

/** `npm run bench -- seed ...` */
export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    users: { type: 'string' },
    groups: { type: 'string' },
    messages: { type: 'string' },
    seed: { type: 'string' },
    'mongo-url': { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run bench -- seed [--users 10000] [--groups 200] [--messages 1000000] [--seed 1] [--mongo-url URL] [--out FILE]\n',
    );
    return;
  }
  if (values.cluster) {
    process.stderr.write('seed writes a database; --cluster has no meaning here\n');
    process.exit(2);
  }
  const users = intOption('users', values.users, 10_000);
  const groups = intOption('groups', values.groups, 200);
  const messages = values.messages === '0' ? 0 : intOption('messages', values.messages, 1_000_000);
  const seed = values.seed === '0' ? 0 : intOption('seed', values.seed, 1);
  const load = new LoadCpu();

  const given = values['mongo-url'] ?? process.env.MONGO_URL;
  let server: MongoServerHandle | undefined;
  let mongoUrl: string;
  if (given) {
    mongoUrl = withDefaultDatabase(given);
  } else {
    process.stdout.write(
      'No --mongo-url or MONGO_URL: seeding a fresh in-memory dev server (mongo-java-server) to measure ' +
        'generation; its data is gone when this command exits.\n',
    );
    server = await startMongo({ preferInMemory: true });
    mongoUrl = withDatabase(server.url, 'capacity');
  }
  const bars = phasedProgress();
  try {
    const { manifest, outcome } = await ensureDataset({
      mongoUrl,
      users,
      groups,
      messages,
      seed,
      onProgress: bars.onProgress,
    });
    bars.stop();
    const where = mongoUrl.replace(/\/\/[^@/]*@/, '//***@');
    if (outcome.kind === 'reused') {
      process.stdout.write(
        `${where} already holds this dataset (seed ${seed}, ${users} users, ${groups} groups, ${messages} messages, ` +
          `made ${manifest.createdAt}): nothing to do.\n`,
      );
    } else if (outcome.kind === 'replaced') {
      const p = outcome.previous;
      process.stdout.write(
        `${where} held another dataset (seed ${p.seed}, ${p.users} users, ${p.groups} groups, ${p.messages} messages): ` +
          'dropped its collections and generated this one.\n',
      );
    } else if (outcome.kind === 'resumed') {
      process.stdout.write(
        `${where} held a half-written dataset (an interrupted run): dropped it and generated anew.\n`,
      );
    }
    const counts = manifest.counts;
    const memory = server ? jvmMemory(server.process?.pid) : {};
    if (counts) {
      const total = documentTotal(counts);
      process.stdout.write(
        table(Object.entries(counts).map(([kind, n]) => ({ kind, count: n.toLocaleString('en-US') }))),
      );
      process.stdout.write(
        `${total.toLocaleString('en-US')} documents in ${manifest.seconds} s: ` +
          `${Math.round(total / manifest.seconds).toLocaleString('en-US')} documents/s, ` +
          `${Math.round(manifest.messages / manifest.seconds).toLocaleString('en-US')} messages/s` +
          `${outcome.kind === 'reused' ? ' (when it was generated)' : ''}.\n`,
      );
    }
    process.stdout.write(
      `log in as ${manifest.usernamePrefix}0..${manifest.usernamePrefix}${manifest.users - 1} with password ${manifest.password}\n`,
    );
    if (server) {
      process.stdout.write(
        `dev server (JVM) memory: ${Object.entries(memory)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}\n`,
      );
    }
    if (values.out) {
      const { groupList, dmList, ...summary } = manifest;
      writeResult(
        {
          benchmark: 'seed',
          mongo: server?.kind ?? 'given',
          outcome: outcome.kind,
          manifest: { ...summary, groupSizes: groupList.map((g) => g.memberIndexes.length), dms: dmList.length },
          documentsPerSecond: counts ? Math.round(documentTotal(counts) / manifest.seconds) : undefined,
          ...(server ? { jvm: memory } : {}),
        },
        { out: values.out, load },
      );
    }
  } finally {
    bars.stop();
    await server?.stop();
  }
}
