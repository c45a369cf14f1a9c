// The single instance without MONGO_URL keeps its data in DATA_DIR (the
// embedded database), also when it is killed in the middle of a burst of sends.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findBinary } from '@im/dev-servers';
import { call, SingleInstance } from './single-instance.ts';

const SECRET = 'e'.repeat(40);
const PASSWORD = 'correct horse battery';

interface Message {
  id: string;
  seq: number;
  content: string;
  deleted?: boolean;
}

/** Every message of a converse, oldest first, paging with after=. */
async function allMessages(base: string, token: string, converseId: string): Promise<Message[]> {
  const out: Message[] = [];
  for (;;) {
    const after = out.at(-1)?.seq ?? 0;
    const page = await call<Message[]>(
      base,
      'GET',
      `/api/converses/${converseId}/messages?after=${after}&limit=100`,
      token,
    );
    assert.equal(page.status, 200);
    if (page.body.length === 0) return out;
    out.push(...page.body);
  }
}

describe('the single instance without MONGO_URL keeps its data in DATA_DIR', () => {
  let dataDir: string;
  const instance = new SingleInstance(() => ({ DATA_DIR: dataDir, SECRET }));
  const start = () => instance.start();

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'im-embedded-'));
  });
  after(() => {
    instance.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('after SIGKILL in a burst of sends: every acknowledged message, seqs without gaps, sends continue', async (t) => {
    let base = await start();
    if (!findBinary('mongod')) {
      assert.match(instance.node!.stdout(), /using the embedded database, kept in .*im\.mv\.db/);
      assert.ok(existsSync(join(dataDir, 'im.mv.db')));
    }
    const alice = await call<{ token: string; user: { id: string } }>(base, 'POST', '/api/auth/register', undefined, {
      username: 'alice',
      password: PASSWORD,
    });
    const bob = await call<{ token: string; user: { id: string } }>(base, 'POST', '/api/auth/register', undefined, {
      username: 'bob',
      password: PASSWORD,
    });
    assert.equal(bob.status, 201);
    const dm = await call<{ id: string }>(base, 'POST', '/api/dms', alice.body.token, { userId: bob.body.user.id });
    assert.ok(dm.status === 200 || dm.status === 201, `DM opened (${dm.status})`);

    // 20 senders, each sending one after another until the server is gone (at most 500 each).
    const acked = new Map<string, Message>();
    let killed = false;
    const sender = async (n: number) => {
      for (let i = 0; i < 500; i += 1) {
        const content = `sender ${n} message ${i}`;
        try {
          const res = await call<Message>(base, 'POST', `/api/converses/${dm.body.id}/messages`, alice.body.token, {
            content,
            clientMsgId: `s${n}-${i}`,
          });
          if (res.status !== 201) return;
          acked.set(res.body.id, res.body);
        } catch {
          return; // the server is gone
        }
        if (!killed && acked.size >= 300) {
          killed = true;
          // The node gets no chance to drain anything; its database server sees its parent gone.
          instance.node!.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, n) => sender(n)));
    assert.ok(killed, 'the server was killed mid-burst');
    await instance.node!.exited;

    // Started again at once on the same DATA_DIR.
    base = await start();
    // The session survived too: the token from before the crash still works.
    const messages = await allMessages(base, alice.body.token, dm.body.id);
    const seqs = messages.map((m) => m.seq);
    assert.deepEqual(
      seqs,
      Array.from({ length: seqs.length }, (_, i) => i + 1),
      'seqs 1..N without gaps',
    );
    const stored = new Map(messages.map((m) => [m.id, m]));
    for (const [id, sent] of acked) {
      const found = stored.get(id);
      assert.ok(found, `acknowledged message ${sent.seq} is there`);
      assert.equal(found.seq, sent.seq);
      assert.equal(found.content, sent.content);
    }
    assert.ok(messages.length >= acked.size);
    const filled = messages.filter((m) => m.deleted).length;
    t.diagnostic(`${acked.size} acknowledged, ${messages.length} stored, ${filled} lost seqs filled`);

    const next = await call<Message>(base, 'POST', `/api/converses/${dm.body.id}/messages`, bob.body.token, {
      content: 'after the restart',
    });
    assert.equal(next.status, 201);
    assert.equal(next.body.seq, seqs.length + 1);

    // A clean stop right after a write keeps it too (the database closes its file on the way out).
    instance.node!.child.kill('SIGTERM');
    assert.equal(await instance.node!.exited, 0);
    base = await start();
    const afterStop = await allMessages(base, bob.body.token, dm.body.id);
    assert.equal(afterStop.at(-1)?.id, next.body.id);
    assert.equal(afterStop.at(-1)?.content, 'after the restart');
    assert.equal(afterStop.length, seqs.length + 1);
  });
});
