import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { IndexRead, RebuildSession, SetChange, SetIndexStore } from './set-index-store.ts';

// Keys, under `<base>` = the client's keyPrefix + `index:<name>:`:
//   ready     the generation readers and writers use
//   building  the generation a rebuild fills (expires with its lock)
//   lock      the rebuild's token (expires unless renewed)
//   seq       the last generation number given out
//   <gen>:dirty    keys written while <gen> was being built
//   <gen>:k:<key>  a set (sorted by score, then member)
// The scripts build key names from ARGV, so they spell the whole prefix out
// (ioredis only prefixes KEYS); one Redis, not Redis Cluster, as elsewhere.

const APPLY = `
local base = ARGV[1]
local ready = redis.call('GET', base .. 'ready')
local building = redis.call('GET', base .. 'building')
local dirty = building and (base .. building .. ':dirty')
if ready then
  local gk = base .. ready .. ':k:'
  for _, c in ipairs(cjson.decode(ARGV[2])) do
    local key = gk .. c.key
    if c.kind == 'add' then
      for _, m in ipairs(c.members) do redis.call('ZADD', key, m[2], m[1]) end
    elseif c.kind == 'remove' then
      for _, m in ipairs(c.members) do redis.call('ZREM', key, m) end
    else
      if c.backlink then
        for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do
          local linked = c.backlink.prefix .. m
          redis.call('ZREM', gk .. linked, c.backlink.member)
          if dirty then redis.call('SADD', dirty, linked) end
        end
      end
      redis.call('DEL', key)
    end
  end
end
if dirty then
  for _, k in ipairs(cjson.decode(ARGV[3])) do redis.call('SADD', dirty, k) end
end
return 1`;

const READ = `
local base = ARGV[1]
local ready = redis.call('GET', base .. 'ready')
if not ready then return false end
local gk = base .. ready .. ':k:'
local members = {}
for i, k in ipairs(cjson.decode(ARGV[2])) do members[i] = redis.call('ZRANGE', gk .. k, 0, -1) end
local sizes = {}
for i, k in ipairs(cjson.decode(ARGV[3])) do sizes[i] = redis.call('ZCARD', gk .. k) end
return {members, sizes}`;

/** Takes the lock and a new generation, or answers 0 when another rebuild holds the lock. */
const BEGIN = `
local base = ARGV[1]
if not redis.call('SET', base .. 'lock', ARGV[2], 'NX', 'PX', ARGV[3]) then return 0 end
local gen = redis.call('INCR', base .. 'seq')
redis.call('SET', base .. 'building', gen, 'PX', ARGV[3])
return gen`;

const RENEW = `
local base = ARGV[1]
if redis.call('GET', base .. 'lock') ~= ARGV[2] or redis.call('GET', base .. 'building') ~= ARGV[3] then return 0 end
redis.call('PEXPIRE', base .. 'lock', ARGV[4])
redis.call('PEXPIRE', base .. 'building', ARGV[4])
return 1`;

/** The switch: only while this rebuild still holds the lock and nothing written since is left unread. */
const FINISH = `
local base = ARGV[1]
if redis.call('GET', base .. 'lock') ~= ARGV[2] or redis.call('GET', base .. 'building') ~= ARGV[3] then return 'lost' end
if redis.call('SCARD', base .. ARGV[3] .. ':dirty') > 0 then return 'dirty' end
redis.call('SET', base .. 'ready', ARGV[3])
redis.call('DEL', base .. 'building', base .. 'lock', base .. ARGV[3] .. ':dirty')
return 'done'`;

const ABANDON = `
local base = ARGV[1]
if redis.call('GET', base .. 'lock') == ARGV[2] then redis.call('DEL', base .. 'lock') end
if redis.call('GET', base .. 'building') == ARGV[3] then redis.call('DEL', base .. 'building') end
return 1`;

const LOCK_TTL_MS = 30_000;

const SHA = new Map(
  [APPLY, READ, BEGIN, RENEW, FINISH, ABANDON].map((s) => [s, createHash('sha1').update(s).digest('hex')]),
);

/** Runs a script by its hash (the text crosses the wire only when Redis has not seen it yet). */
async function run(redis: Redis, script: string, ...args: Array<string | number>): Promise<unknown> {
  try {
    return await redis.evalsha(SHA.get(script)!, 0, ...args);
  } catch (err) {
    if (!String(err).includes('NOSCRIPT')) throw err;
    return redis.eval(script, 0, ...args);
  }
}

export class RedisSetIndexStore implements SetIndexStore {
  readonly #redis: Redis;
  /** What plain commands name (ioredis adds its keyPrefix). */
  readonly #short: string;
  /** What scripts and SCAN name. */
  readonly #full: string;
  readonly #clientPrefix: string;

  constructor(redis: Redis, name: string) {
    this.#redis = redis;
    this.#clientPrefix = redis.options.keyPrefix ?? '';
    this.#short = `index:${name}:`;
    this.#full = this.#clientPrefix + this.#short;
  }

  async apply(changes: readonly SetChange[], dirty: readonly string[]): Promise<void> {
    await run(this.#redis, APPLY, this.#full, JSON.stringify(changes), JSON.stringify(dirty));
  }

  async read(keys: readonly string[], sizeKeys: readonly string[] = []): Promise<IndexRead | undefined> {
    const answer = (await run(this.#redis, READ, this.#full, JSON.stringify(keys), JSON.stringify(sizeKeys))) as
      [string[][], number[]] | null;
    return answer ? { members: answer[0], sizes: answer[1] } : undefined;
  }

  async isReady(): Promise<boolean> {
    return (await this.#redis.exists(`${this.#short}ready`)) === 1;
  }

  async beginRebuild(): Promise<RebuildSession | undefined> {
    const token = randomUUID();
    const generation = Number(await run(this.#redis, BEGIN, this.#full, token, LOCK_TTL_MS));
    if (!generation) return undefined;
    const gen = String(generation);
    const key = (k: string) => `${this.#short}${gen}:k:${k}`;
    let lost = false;
    // The lock outlives a stalled or dead rebuilder by at most its TTL; renewed while this one runs.
    const renew = setInterval(() => {
      run(this.#redis, RENEW, this.#full, token, gen, LOCK_TTL_MS)
        .then((ok) => (lost ||= ok !== 1))
        .catch(() => undefined);
    }, LOCK_TTL_MS / 3);
    renew.unref();
    const end = () => clearInterval(renew);
    return {
      generation,
      load: async (entries) => {
        const pipe = this.#redis.pipeline();
        for (const [k, member, score] of entries) pipe.zadd(key(k), score, member);
        await pipe.exec();
      },
      replace: async (keys, found) => {
        const tx = this.#redis.multi();
        for (const k of keys) {
          tx.del(key(k));
          const members = found.get(k) ?? [];
          if (members.length) tx.zadd(key(k), ...members.flatMap(([m, s]) => [s, m]));
        }
        await tx.exec();
      },
      takeDirty: async (max) => this.#redis.spop(`${this.#short}${gen}:dirty`, max),
      finish: async () => {
        if (lost) return 'lost';
        const outcome = (await run(this.#redis, FINISH, this.#full, token, gen)) as 'done' | 'dirty' | 'lost';
        if (outcome === 'dirty') return outcome;
        end();
        // Older generations (the one replaced, and any a dead rebuilder left) go; newer ones may be in use.
        if (outcome === 'done') await this.#dropGenerations((g) => g < generation);
        return outcome;
      },
      abandon: async () => {
        end();
        await run(this.#redis, ABANDON, this.#full, token, gen);
        await this.#dropGenerations((g) => g === generation);
      },
    };
  }

  /** Deletes every key of the generations `which` picks (SCAN: a rebuild's clean-up, not a hot path). */
  async #dropGenerations(which: (generation: number) => boolean): Promise<void> {
    const stream = this.#redis.scanStream({ match: `${this.#full}*`, count: 1000 });
    for await (const found of stream as AsyncIterable<string[]>) {
      const mine = found.filter((k) => {
        const g = /^(\d+):/.exec(k.slice(this.#full.length));
        return g !== null && which(Number(g[1]));
      });
      // SCAN answers whole names; ioredis would prefix them again.
      if (mine.length) await this.#redis.unlink(...mine.map((k) => k.slice(this.#clientPrefix.length)));
    }
  }

  close(): void {}
}
