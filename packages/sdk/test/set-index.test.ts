import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { Redis } from 'ioredis';
import {
  MemorySetIndexStore,
  rebuildSetIndex,
  RedisSetIndexStore,
  type IndexSource,
  type Scored,
  type SetIndexStore,
} from '../src/index.ts';

/** A system of record of sets, with the index written after it the way services do. */
class Truth {
  readonly sets = new Map<string, Map<string, number>>();
  readonly store: SetIndexStore;
  constructor(store: SetIndexStore) {
    this.store = store;
  }

  async add(key: string, member: string, score = 0) {
    if (!this.sets.has(key)) this.sets.set(key, new Map());
    this.sets.get(key)!.set(member, score);
    await this.store.apply([{ kind: 'add', key, members: [[member, score]] }], [key]);
  }

  async remove(key: string, member: string) {
    this.sets.get(key)?.delete(member);
    await this.store.apply([{ kind: 'remove', key, members: [member] }], [key]);
  }

  snapshot(): Array<[string, string, number]> {
    return [...this.sets].flatMap(([key, set]) => [...set].map(([m, s]): [string, string, number] => [key, m, s]));
  }

  reread = async (keys: readonly string[]) =>
    new Map(keys.map((k): [string, Scored[]] => [k, [...(this.sets.get(k) ?? [])]]));
}

const members = async (store: SetIndexStore, key: string) => (await store.read([key]))?.members[0];

function suite(name: string, makeStore: () => SetIndexStore) {
  describe(name, () => {
    it('answers nothing until a generation is built, then the sets in score order', async () => {
      const store = makeStore();
      const truth = new Truth(store);
      await truth.add('u:1', 'b', 2);
      await truth.add('u:1', 'a', 1);
      assert.equal(await store.read(['u:1']), undefined);
      const source: IndexSource = { scan: (load) => load(truth.snapshot()), reread: truth.reread };
      assert.equal(await rebuildSetIndex(store, source), 'built');
      assert.deepEqual(await store.read(['u:1', 'u:2'], ['u:1', 'u:2']), { members: [['a', 'b'], []], sizes: [2, 0] });
      await truth.add('u:1', 'c', 0);
      assert.deepEqual(await members(store, 'u:1'), ['c', 'a', 'b']);
    });

    it('keeps the writes made during a rebuild: a removal after the scan read, an add after it', async () => {
      const store = makeStore();
      const truth = new Truth(store);
      await truth.add('u:1', 'old');
      let racing = true;
      const source: IndexSource = {
        scan: async (load) => {
          const read = truth.snapshot();
          // Written after the scan read them: its copy says 'old' is there and 'new' is not.
          await truth.remove('u:1', 'old');
          await truth.add('u:1', 'new');
          await truth.add('u:2', 'x');
          await load(read);
        },
        reread: async (keys) => {
          const found = await truth.reread(keys);
          // A write that lands while dirty keys are read again marks its key once more.
          if (racing && keys.includes('u:2')) {
            racing = false;
            await truth.add('u:2', 'y');
          }
          return found;
        },
      };
      assert.equal(await rebuildSetIndex(store, source), 'built');
      assert.deepEqual(await members(store, 'u:1'), ['new']);
      assert.deepEqual(await members(store, 'u:2'), ['x', 'y']);
    });

    it('lets one rebuild run at a time; a drop removes the backlinks', async () => {
      const store = makeStore();
      const truth = new Truth(store);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const first = rebuildSetIndex(store, {
        scan: async (load) => {
          await held;
          await load([
            ['m:g', 'u1', 0],
            ['u:u1', 'g', 0],
            ['u:u1', 'h', 0],
          ]);
        },
        reread: truth.reread,
      });
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(await rebuildSetIndex(store, { scan: async () => {}, reread: truth.reread }), 'busy');
      release();
      assert.equal(await first, 'built');
      await store.apply([{ kind: 'drop', key: 'm:g', backlink: { prefix: 'u:', member: 'g' } }], ['m:g']);
      assert.deepEqual(await store.read(['u:u1'], ['m:g']), { members: [['h']], sizes: [0] });
    });
  });
}

suite('set index in memory', () => new MemorySetIndexStore());

describe('set index in Redis', () => {
  let env: TestEnv;
  let redis: Redis;
  let n = 0;
  before(async () => {
    env = await openTestEnv(import.meta.url);
    redis = new Redis(env.redisUrl, { keyPrefix: env.redisPrefix });
  });
  after(async () => {
    redis?.disconnect();
    await env?.close();
  });

  suite('a store', () => new RedisSetIndexStore(redis, `t${(n += 1)}`));

  it('drops the generation it replaced, and keeps every key under the prefix', async () => {
    const store = new RedisSetIndexStore(redis, 'gens');
    const source = (member: string): IndexSource => ({
      scan: (load) => load([['u:1', member, 0]]),
      reread: async () => new Map(),
    });
    await rebuildSetIndex(store, source('a'));
    await rebuildSetIndex(store, source('b'));
    assert.deepEqual(await members(store, 'u:1'), ['b']);
    const raw = new Redis(env.redisUrl);
    try {
      const keys = (await raw.keys(`${env.redisPrefix}index:gens:*`)).sort();
      assert.deepEqual(
        keys.map((k) => k.slice(env.redisPrefix.length)),
        ['index:gens:2:k:u:1', 'index:gens:ready', 'index:gens:seq'],
      );
    } finally {
      raw.disconnect();
    }
  });
});
