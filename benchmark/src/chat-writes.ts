// Message write throughput through the public API, with the group-commit
// batcher on (the default) and off (CHAT_WRITE_MAX_BATCH=1), same run, same
// machine. The server is its own process; this process is the load.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startMongo, withDatabase } from '@im/testkit';
import { machineFacts, percentile } from './machine.ts';
import { startServer } from './server-process.ts';

/** The benchmark's throwaway accounts share one password, new every run. */
const BENCH_PASSWORD = randomBytes(12).toString('hex');

interface ModeResult {
  mode: string;
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p100Ms: number;
  errors: number;
}

async function json<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

async function measure(
  base: string,
  users: number,
  messages: number,
  concurrency: number,
  label: string,
): Promise<ModeResult> {
  const tokens: string[] = [];
  for (let i = 0; i < users; i += 1) {
    const r = await json<{ token: string }>(base, 'POST', '/api/auth/register', undefined, {
      username: `bench_${i}`,
      password: BENCH_PASSWORD,
    });
    tokens.push(r.token);
  }
  const group = await json<{ id: string; panels: Array<{ converseId: string }> }>(
    base,
    'POST',
    '/api/groups',
    tokens[0],
    { name: 'bench' },
  );
  const { code } = await json<{ code: string }>(base, 'POST', `/api/groups/${group.id}/invites`, tokens[0], {});
  for (const t of tokens.slice(1)) await json(base, 'POST', `/api/invites/${code}/accept`, t);
  // Ten converses, so batches span several counters as they would in real use.
  const converses = [group.panels[0]!.converseId];
  for (let i = 1; i < 10; i += 1) {
    converses.push(
      (
        await json<{ converseId: string }>(base, 'POST', `/api/groups/${group.id}/panels`, tokens[0], {
          name: `p${i}`,
          type: 'text',
        })
      ).converseId,
    );
  }

  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const sendOne = async (i: number) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/converses/${converses[i % converses.length]}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `message ${i} of the write benchmark` }),
    });
    await res.arrayBuffer();
    if (res.status !== 201) errors += 1;
    latencies.push(performance.now() - started);
  };
  const worker = async (total: number) => {
    while (next < total) await sendOne(next++);
  };
  // Warm up, then measure.
  await Promise.all(Array.from({ length: concurrency }, () => worker(500)));
  latencies.length = 0;
  next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => worker(messages)));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    mode: label,
    messages,
    seconds: round(seconds),
    messagesPerSecond: Math.round(messages / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    p100Ms: round(percentile(latencies, 100)),
    errors,
  };
}

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      messages: { type: 'string', default: '5000' },
      concurrency: { type: 'string', default: '100' },
      users: { type: 'string', default: '20' },
      out: { type: 'string' },
    },
  });
  const messages = Number(values.messages);
  const concurrency = Number(values.concurrency);
  const users = Number(values.users);
  const mongo = await startMongo({ url: process.env.MONGO_URL, preferInMemory: !process.env.MONGO_URL });
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const results: ModeResult[] = [];
  try {
    for (const [label, env] of [
      ['batched (default)', {}],
      ['unbatched (CHAT_WRITE_MAX_BATCH=1)', { CHAT_WRITE_MAX_BATCH: '1', CHAT_WRITE_WINDOW_MS: '0' }],
    ] as const) {
      const server = await startServer({ MONGO_URL: withDatabase(mongo.url, `bench_${Date.now()}`), ...env });
      try {
        process.stdout.write(`${label}: sending ${messages} messages, ${concurrency} in flight...\n`);
        results.push(await measure(server.base, users, messages, concurrency, label));
      } finally {
        await server.stop();
      }
    }
  } finally {
    await mongo.stop();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const loadCpuShare = (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore);
  const result = {
    benchmark: 'chat-writes',
    machine: machineFacts(),
    mongo: mongo.kind,
    concurrency,
    users,
    loadGeneratorCpuShare: Math.round(loadCpuShare * 100) / 100,
    results,
  };
  console.table(results);
  console.log(`load generator CPU: ${Math.round(loadCpuShare * 100)}% of one core`);
  const out = values.out ?? new URL(`../results/chat-writes.json`, import.meta.url).pathname;
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written ${out}`);
}
