// The capacity benchmark's dataset generator at toy size, against a real
// MongoDB wire server: the data is consistent the way the services keep it
// (seqs, counters, reactions, mentions, read positions, inbox), the same
// seed gives the same dataset, a second run is a no-op, and the running
// platform takes the dataset as its own.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AuthResult, Group, Message, UnreadEntry } from '@im/protocol';
import { connectMongo } from '@im/sdk';
import { startServerProcess, type ServerProcess } from '@im/dev-servers';
import { openTestEnv, withDatabase, type TestEnv } from '@im/testkit';
import { Types, type Connection } from 'mongoose';
import { mentionedUsernames } from '@im/service-chat';
import { ensureDataset, MANIFEST_COLLECTION, seedDataset } from '../src/capacity/seed.ts';
import type { DatasetManifest, SeedOptions } from '../src/capacity/types.ts';

const START = fileURLToPath(new URL('../../server/src/start.ts', import.meta.url));
const SEED = fileURLToPath(new URL('../src/capacity/seed.ts', import.meta.url));
const SIZE = { users: 60, groups: 6, messages: 2000, seed: 7 };

type Doc = Record<string, unknown> & { _id: Types.ObjectId };
const hex = (id: unknown) => (id as Types.ObjectId).toHexString();
const oid = (id: string) => new Types.ObjectId(id);

describe('capacity dataset generator (toy size)', () => {
  let env: TestEnv;
  let conn: Connection;
  let manifest: DatasetManifest;
  const extraDbs: string[] = [];
  const options = (db: string, over: Partial<SeedOptions> = {}): SeedOptions => ({
    mongoUrl: withDatabase(env.mongoUrl, db),
    ...SIZE,
    ...over,
  });
  const col = (name: string, c: Connection = conn) => c.db!.collection<Doc>(name);
  const all = (name: string, c: Connection = conn) => col(name, c).find({}).toArray();

  before(async () => {
    env = await openTestEnv(import.meta.url);
    const phases = new Set<string>();
    manifest = await seedDataset({ ...options(env.dbName), onProgress: (phase) => phases.add(phase) });
    assert.deepEqual([...phases], ['indexes', 'users', 'groups', 'members', 'messages', 'converses', 'reads']);
    conn = await connectMongo(env.mongoUrl, { timeoutMs: 10_000 });
  });

  after(async () => {
    for (const db of extraDbs) await conn?.useDb(db).dropDatabase();
    await conn?.close();
    await env?.close();
  });

  it('writes what the options ask for, and the manifest says so', async () => {
    assert.equal(manifest.version, 1);
    assert.deepEqual([manifest.users, manifest.groups, manifest.messages, manifest.seed], [60, 6, 2000, 7]);
    assert.equal(manifest.usernamePrefix, 'cap_');
    assert.equal(manifest.groupList.length, 6);
    assert.equal(manifest.dmList.length, 30);
    const counts = manifest.counts!;
    for (const [name, n] of [
      ['users', 60],
      ['groups', 6],
      ['messages', 2000],
      ['members', counts.members],
      ['converses', counts.converses],
      ['reactions', counts.reactions],
      ['reads', counts.reads],
      ['files', counts.files],
      ['notifications', counts.notifications],
    ] as const) {
      assert.equal(await col(name).countDocuments(), n, name);
    }
    const users = await all('users');
    assert.deepEqual(users.map((u) => u.username).sort(), Array.from({ length: 60 }, (_, i) => `cap_${i}`).sort());
    for (const u of users) assert.match(u.username as string, /^[a-z0-9_.-]{3,32}$/);
    // Sizes: largest first, the biggest group large, the others 5-50.
    const sizes = manifest.groupList.map((g) => g.memberIndexes.length);
    assert.deepEqual(
      sizes,
      [...sizes].sort((a, b) => b - a),
    );
    for (const s of sizes.slice(1)) assert.ok(s >= 5 && s <= 50, String(sizes));
    // Roughly the asked-for shares (at 2,000 messages the draws are near their rates).
    const share = (n: number) => n / 2000;
    assert.ok(share(counts.mentions) > 0.03 && share(counts.mentions) < 0.07, `mentions ${counts.mentions}`);
    assert.ok(share(counts.reactedMessages) > 0.07 && share(counts.reactedMessages) < 0.13);
    assert.ok(counts.replies > 10 && counts.files > 5, JSON.stringify(counts));
    // The services' indexes exist (created by their own models).
    const messageIndexes = (await col('messages').indexes()).map((i) => JSON.stringify(i.key));
    for (const key of ['{"converseId":1,"seq":1}', '{"dedupeKey":1}'])
      assert.ok(messageIndexes.includes(key), `${key} in ${messageIndexes.join(' ')}`);
    assert.ok(
      (await col('members').indexes()).some((i) => i.unique && JSON.stringify(i.key) === '{"groupId":1,"userId":1}'),
    );
  });

  it('numbers each converse 1..n without gaps, in time order, and its counter agrees', async () => {
    const messages = await col('messages').find({}).sort({ converseId: 1, seq: 1 }).toArray();
    const byConverse = Map.groupBy(messages, (m) => hex(m.converseId));
    const counters = new Map((await all('converses')).map((c) => [hex(c._id), c]));
    const known = new Set([...manifest.groupList.flatMap((g) => g.converseIds), ...manifest.dmList.map((d) => d.id)]);
    assert.ok(byConverse.size > 10);
    for (const [converseId, list] of byConverse) {
      assert.ok(known.has(converseId));
      assert.deepEqual(
        list.map((m) => m.seq),
        list.map((_, i) => i + 1),
      );
      for (let i = 1; i < list.length; i += 1) assert.ok(list[i]!.createdAt! >= list[i - 1]!.createdAt!);
      const counter = counters.get(converseId)!;
      assert.equal(counter.lastSeq, list.length);
      assert.deepEqual(counter.lastMessageAt, list.at(-1)!.createdAt);
    }
    // Every DM has its document; a panel has one only once it has messages (as the writer makes it).
    for (const dm of manifest.dmList) assert.equal(counters.get(dm.id)?.type, 'dm');
    for (const id of counters.keys()) assert.ok(byConverse.has(id) || counters.get(id)!.type === 'dm');
    // createdAt within the last ~30 days; the id carries the same time.
    const now = Date.now();
    for (const m of messages) {
      const at = (m.createdAt as Date).getTime();
      assert.ok(at > now - 31 * 86_400_000 && at <= now);
      assert.equal(Math.floor(at / 1000), Math.floor(m._id.getTimestamp().getTime() / 1000));
      assert.equal(m.dedupeKey, `${hex(m.authorId)}:${m.clientMsgId as string}`);
    }
  });

  it('keeps reaction counts equal to the reaction documents', async () => {
    const reactions = await all('reactions');
    const counted = new Map<string, number>();
    for (const r of reactions) {
      const key = `${hex(r.messageId)} ${r.emoji as string}`;
      counted.set(key, (counted.get(key) ?? 0) + 1);
    }
    const onMessages = new Map<string, number>();
    for (const m of await all('messages')) {
      for (const [emoji, n] of Object.entries(m.reactionCounts as Record<string, number>))
        onMessages.set(`${hex(m._id)} ${emoji}`, n);
    }
    assert.ok(counted.size > 100);
    assert.deepEqual(new Map([...onMessages].sort()), new Map([...counted].sort()));
    // Reactors are members of the message's converse.
    const members = await converseMembers();
    const converseOf = new Map((await all('messages')).map((m) => [hex(m._id), hex(m.converseId)]));
    for (const r of reactions) assert.ok(members.get(converseOf.get(hex(r.messageId))!)!.has(hex(r.userId)));
  });

  it('resolves mentions like the chat service: @names in the content, members only', async () => {
    const usernames = new Map((await all('users')).map((u) => [u.username as string, hex(u._id)]));
    const members = await converseMembers();
    let withMentions = 0;
    for (const m of await all('messages')) {
      const expected = mentionedUsernames(m.content as string)
        .map((name) => usernames.get(name))
        .filter((id): id is string => id !== undefined && members.get(hex(m.converseId))!.has(id));
      assert.deepEqual((m.mentions as Types.ObjectId[]).map(hex).sort(), [...new Set(expected)].sort());
      if (expected.length > 0) withMentions += 1;
    }
    assert.equal(withMentions, manifest.counts!.mentions);
  });

  it('puts every user in a group, with an owner, roles and member counts that agree', async () => {
    const members = await all('members');
    assert.equal(new Set(members.map((m) => hex(m.userId))).size, 60);
    for (const g of await all('groups')) {
      const mine = members.filter((m) => hex(m.groupId) === hex(g._id));
      assert.equal(g.memberCount, mine.length);
      assert.deepEqual(
        mine.filter((m) => m.role === 'owner').map((m) => hex(m.userId)),
        [hex(g.ownerId)],
      );
      const panels = g.panels as Array<{ name: string; type: string; converseId: Types.ObjectId }>;
      assert.ok(panels.length >= 1 && panels.length <= 3 && panels[0]!.name === 'general');
      const listed = manifest.groupList.find((l) => l.id === hex(g._id))!;
      assert.deepEqual(
        panels.map((p) => hex(p.converseId)),
        listed.converseIds,
      );
    }
  });

  it('makes replies, attachments, read positions and inbox entries the services would', async () => {
    const messages = await all('messages');
    const byId = new Map(messages.map((m) => [hex(m._id), m]));
    for (const m of messages.filter((x) => x.replyTo)) {
      const target = byId.get(hex(m.replyTo))!;
      assert.equal(hex(target.converseId), hex(m.converseId));
      assert.ok((target.seq as number) < (m.seq as number));
    }
    const files = new Map((await all('files')).map((f) => [hex(f._id), f]));
    const attached = messages.filter((m) => (m.attachments as unknown[]).length > 0);
    assert.equal(attached.length, files.size);
    for (const m of attached) {
      const file = files.get(hex((m.attachments as Types.ObjectId[])[0]))!;
      assert.equal(hex(file.uploaderId), hex(m.authorId));
      assert.deepEqual((file.converseIds as Types.ObjectId[]).map(hex), [hex(m.converseId)]);
    }
    // Reads: never past the counter, never behind the reader's own last message; some behind.
    const lastSeq = new Map((await all('converses')).map((c) => [hex(c._id), c.lastSeq as number]));
    const reads = await all('reads');
    const readOf = new Map(reads.map((r) => [`${hex(r.converseId)} ${hex(r.userId)}`, r.readSeq as number]));
    for (const r of reads)
      assert.ok((r.readSeq as number) >= 1 && (r.readSeq as number) <= lastSeq.get(hex(r.converseId))!);
    for (const m of messages) assert.ok(readOf.get(`${hex(m.converseId)} ${hex(m.authorId)}`)! >= (m.seq as number));
    assert.ok(reads.filter((r) => (r.readSeq as number) < lastSeq.get(hex(r.converseId))!).length > 10);
    // Inbox: exactly the unread mentions and DMs of their recipients.
    for (const n of await all('notifications')) {
      const m = byId.get(hex(n.messageId))!;
      assert.ok((readOf.get(`${hex(n.converseId)} ${hex(n.userId)}`) ?? 0) < (n.seq as number));
      assert.notEqual(hex(n.userId), hex(m.authorId));
      if (n.kind === 'mention') assert.ok((m.mentions as Types.ObjectId[]).map(hex).includes(hex(n.userId)));
    }
  });

  it('is deterministic: the same seed gives the same messages per converse, another seed does not', async () => {
    const again = `${env.dbName}-same`;
    const other = `${env.dbName}-other`;
    extraDbs.push(again, other);
    const twin = await seedDataset(options(again));
    const different = await seedDataset(options(other, { seed: 8 }));
    const strip = (m: DatasetManifest) => ({
      ...m,
      groupList: m.groupList.map((g) => ({ ...g, id: '', converseIds: [] })),
      dmList: m.dmList.map((d) => ({ ...d, id: '' })),
      createdAt: '',
      seconds: 0,
      messagesFrom: '',
      messagesTo: '',
    });
    assert.deepEqual(strip(twin), strip(manifest));
    const a = await fingerprint(conn, manifest);
    assert.equal(a.length, manifest.groupList.reduce((n, g) => n + g.converseIds.length, 0) + manifest.dmList.length);
    assert.deepEqual(await fingerprint(conn.useDb(again), twin), a);
    assert.notDeepEqual(await fingerprint(conn.useDb(other), different), a);
  });

  it('does nothing the second time; replaces a dataset of other options; redoes a half-written one', async () => {
    const messagesBefore = await col('messages').countDocuments();
    const second = await ensureDataset(options(env.dbName));
    assert.equal(second.outcome.kind, 'reused');
    assert.deepEqual(second.manifest, manifest);
    assert.equal(await col('messages').countDocuments(), messagesBefore);

    const db = `${env.dbName}-redo`;
    extraDbs.push(db);
    const small = { users: 10, groups: 2, messages: 50 };
    assert.equal((await ensureDataset(options(db, small))).outcome.kind, 'created');
    const replaced = await ensureDataset(options(db, { ...small, messages: 80 }));
    assert.deepEqual(replaced.outcome, { kind: 'replaced', previous: { seed: 7, ...small } });
    assert.equal(await col('messages', conn.useDb(db)).countDocuments(), 80);
    // A run that stopped midway: no manifest, only its marker. The next one starts over.
    const store = conn.useDb(db).db!.collection<{ _id: string }>(MANIFEST_COLLECTION);
    await store.deleteOne({ _id: 'manifest' });
    await store.insertOne({ _id: 'generating' });
    const redone = await ensureDataset(options(db, { ...small, messages: 80 }));
    assert.equal(redone.outcome.kind, 'resumed');
    assert.equal(await col('messages', conn.useDb(db)).countDocuments(), 80);
    assert.equal(await store.countDocuments(), 1);
    // Data that is not a dataset is never dropped.
    const foreign = `${env.dbName}-foreign`;
    extraDbs.push(foreign);
    await conn.useDb(foreign).db!.collection('users').insertOne({ username: 'someone' });
    await assert.rejects(ensureDataset(options(foreign, small)), /not a seeded dataset/);
  });

  it('the seed command prints what it made, and says so when there is nothing to do', async () => {
    const db = `${env.dbName}-cli`;
    extraDbs.push(db);
    const args = [
      '--users',
      '12',
      '--groups',
      '3',
      '--messages',
      '200',
      '--seed',
      '3',
      '--mongo-url',
      options(db).mongoUrl,
    ];
    const first = await seedCommand(args);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /messages\s+200\b/);
    assert.match(first.stdout, /documents in [\d.]+ s: [\d,]+ documents\/s/);
    assert.match(first.stdout, /log in as cap_0\.\.cap_11 with password capacity-3/);
    assert.match(first.stderr, /messages\s+\[=+\] 100% 200\/200/);
    const second = await seedCommand(args);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /already holds this dataset .*nothing to do/);
    const other = await seedCommand(args.map((a) => (a === '200' ? '150' : a)));
    assert.match(other.stdout, /held another dataset \(seed 3, 12 users, 3 groups, 200 messages\): dropped/);
    const bad = await seedCommand(['--users', 'lots']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--users must be a positive integer/);
  });

  describe('the platform takes the dataset as its own', () => {
    let server: ServerProcess;
    before(async () => {
      server = await startServerProcess(START, {
        MONGO_URL: env.mongoUrl,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'im-seed-')),
      });
    });
    after(async () => {
      await server?.stop();
    });

    const call = async <T>(method: string, path: string, token?: string, body?: unknown): Promise<T> => {
      const res = await fetch(server.base + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      assert.ok(res.status < 400, `${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    };

    it('logs in a seeded user, lists their groups, reads history, counts unread, and continues the seqs', async () => {
      // Someone with an unread mention: their inbox has it and /api/unread must show it.
      const note = (await col('notifications').findOne({ kind: 'mention' }))!;
      assert.ok(note, 'the toy dataset has an unread mention');
      const user = (await col('users').findOne({ _id: note.userId as Types.ObjectId }))!;
      const auth = await call<AuthResult>('POST', '/api/auth/login', undefined, {
        username: user.username,
        password: manifest.password,
      });
      const token = auth.token;
      assert.equal(auth.user.id, hex(user._id));
      const index = Number((user.username as string).slice(manifest.usernamePrefix.length));

      const groups = await call<Group[]>('GET', '/api/groups', token);
      const expected = manifest.groupList.filter((g) => g.memberIndexes.includes(index)).map((g) => g.id);
      assert.deepEqual(groups.map((g) => g.id).sort(), [...expected].sort());

      // History of the converse of the mention: the seeded messages, newest page.
      const converseId = hex(note.converseId);
      const stored = await col('messages').find({ converseId: note.converseId }).sort({ seq: -1 }).limit(50).toArray();
      const page = await call<Message[]>('GET', `/api/converses/${converseId}/messages`, token);
      assert.deepEqual(
        page.map((m) => [m.seq, m.content, m.authorId]),
        stored.reverse().map((m) => [m.seq, m.content, hex(m.authorId)]),
      );
      const reacted = page.find((m) => m.reactions.length > 0)!;
      assert.ok(reacted, 'the page has a message with reactions');
      assert.deepEqual(
        Object.fromEntries(reacted.reactions.map((r) => [r.emoji, r.count])),
        stored.find((m) => hex(m._id) === reacted.id)!.reactionCounts,
      );

      const unread = await call<UnreadEntry[]>('GET', '/api/unread', token);
      const entry = unread.find((u) => u.converseId === converseId)!;
      assert.ok(entry.unread > 0 && entry.mentions > 0, JSON.stringify(entry));
      assert.ok(unread.reduce((n, u) => n + u.unread, 0) > 0);
      const inbox = await call<{ items: Array<{ messageId: string }> }>('GET', '/api/notifications', token);
      assert.ok(inbox.items.some((i) => i.messageId === hex(note.messageId)));

      const counter = (await col('converses').findOne({ _id: note.converseId as Types.ObjectId }))!;
      const sent = await call<Message>('POST', `/api/converses/${converseId}/messages`, token, {
        content: `hello @${user.username as string} from the test`,
        clientMsgId: 'capacity-seed-test-1',
      });
      assert.equal(sent.seq, (counter.lastSeq as number) + 1);
      assert.deepEqual(sent.mentions, [hex(user._id)]);
      const after = await call<Message[]>('GET', `/api/converses/${converseId}/messages?after=${sent.seq - 2}`, token);
      assert.deepEqual(
        after.map((m) => m.seq),
        [sent.seq - 1, sent.seq],
      );
    });

    it('lists a seeded DM and continues its seqs', async () => {
      const dm = manifest.dmList[0]!;
      const auth = await call<AuthResult>('POST', '/api/auth/login', undefined, {
        username: `${manifest.usernamePrefix}${dm.memberIndexes[0]}`,
        password: manifest.password,
      });
      const dms = await call<Array<{ id: string; memberIds: string[] }>>('GET', '/api/dms', auth.token);
      const listed = dms.find((d) => d.id === dm.id)!;
      assert.ok(listed, 'the DM is listed');
      assert.ok(listed.memberIds.includes(auth.user.id));
      const counter = (await col('converses').findOne({ _id: oid(dm.id) }))!;
      const history = await call<Message[]>('GET', `/api/converses/${dm.id}/messages`, auth.token);
      assert.equal(history.at(-1)?.seq ?? 0, counter.lastSeq);
      const sent = await call<Message>('POST', `/api/converses/${dm.id}/messages`, auth.token, { content: 'hi' });
      assert.equal(sent.seq, (counter.lastSeq as number) + 1);
    });
  });

  /** Members (user id hex) of every converse of the dataset. */
  async function converseMembers(): Promise<Map<string, Set<string>>> {
    const userIds = (await col('users').find({}).toArray()).map(
      (u) => [Number((u.username as string).slice(4)), hex(u._id)] as const,
    );
    const idOf = new Map(userIds);
    const out = new Map<string, Set<string>>();
    for (const g of manifest.groupList) {
      const set = new Set(g.memberIndexes.map((i) => idOf.get(i)!));
      for (const c of g.converseIds) out.set(c, set);
    }
    for (const d of manifest.dmList) out.set(d.id, new Set(d.memberIndexes.map((i) => idOf.get(i)!)));
    return out;
  }
});

/** `npm run bench -- seed ARGS`, as the CLI will call it (its run() with the arguments after the name). */
function seedCommand(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `const { run } = await import(${JSON.stringify(SEED)}); await run(process.argv.slice(1));`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script, '--', ...args],
      { timeout: 120_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Per converse of the manifest (in its order): each message as seq, author's name, content, mentions and reactions. */
async function fingerprint(c: Connection, manifest: DatasetManifest): Promise<string[][]> {
  const names = new Map(
    (await c.db!.collection<Doc>('users').find({}).toArray()).map((u) => [hex(u._id), u.username as string]),
  );
  const converseIds = [...manifest.groupList.flatMap((g) => g.converseIds), ...manifest.dmList.map((d) => d.id)];
  const out: string[][] = [];
  for (const id of converseIds) {
    const list = await c
      .db!.collection<Doc>('messages')
      .find({ converseId: oid(id) })
      .sort({ seq: 1 })
      .toArray();
    out.push(
      list.map((m) =>
        [
          m.seq,
          names.get(hex(m.authorId)),
          m.content,
          (m.mentions as Types.ObjectId[]).map((x) => names.get(hex(x))).join(','),
          JSON.stringify(m.reactionCounts),
          m.replyTo ? 'reply' : '',
          (m.attachments as unknown[]).length,
        ].join('|'),
      ),
    );
  }
  return out;
}
