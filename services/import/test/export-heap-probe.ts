// Not a test: a measurement run by hand. Does a group's export keep what it
// writes? A converse of N messages (default 100,000) is written straight
// into a test database, the group is exported twice in this process, and
// the heap after a full collection is printed every 2 s and after each run:
//   bash scripts/node.sh --expose-gc services/import/test/export-heap-probe.ts [N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalStorage } from '@im/sdk';
import { openTestEnv } from '@im/testkit';
import mongoose from 'mongoose';
import { ArchiveZip } from '../src/export/archive-zip.ts';
import { writeGroupArchive } from '../src/export/group-archive.ts';

const N = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const MiB = 2 ** 20;
const memory = () => {
  gc();
  const m = process.memoryUsage();
  return `heap ${Math.round(m.heapUsed / MiB)} MiB, external ${Math.round(m.external / MiB)} MiB, rss ${Math.round(m.rss / MiB)} MiB`;
};

const env = await openTestEnv(import.meta.url);
const connection = await mongoose.createConnection(env.mongoUrl).asPromise();
const dir = mkdtempSync(join(tmpdir(), 'export-heap-probe-'));
try {
  const db = connection.db!;
  const { ObjectId } = mongoose.mongo;
  const [groupId, converseId, ownerId] = [new ObjectId(), new ObjectId(), new ObjectId()];
  await db.collection('users').insertOne({ _id: ownerId, username: 'owner', nickname: 'Owner', status: 'active' });
  await db.collection('groups').insertOne({
    _id: groupId,
    name: 'Probe',
    ownerId,
    panels: [{ _id: new ObjectId(), name: 'general', type: 'text', converseId }],
  });
  for (let i = 0; i < N; i += 5000) {
    await db.collection('messages').insertMany(
      Array.from({ length: Math.min(5000, N - i) }, (_, j) => ({
        converseId,
        seq: i + j + 1,
        authorId: ownerId,
        content: `message number ${i + j} with a few words in it`,
        createdAt: new Date(),
        reactionCounts: {},
        attachments: [],
        mentions: [],
      })),
    );
  }
  console.log('before', memory());
  const timer = setInterval(() => console.log('during', memory()), 2000);
  for (let run = 1; run <= 2; run += 1) {
    const zip = new ArchiveZip(join(dir, `run-${run}.zip`));
    const started = Date.now();
    await writeGroupArchive(db, new LocalStorage(dir), zip, groupId, 'probe');
    await zip.finish();
    console.log(`run ${run}: ${N} messages in ${Date.now() - started} ms;`, memory());
  }
  clearInterval(timer);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await connection.close();
  await env.close();
}
