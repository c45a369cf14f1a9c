// `npm run bench -- <name> [options]`: runs one benchmark of BENCHMARKS.md.
// Common options: --cluster (measure the local cluster), --out FILE.

type Benchmark = { description: string; usage: string; load(): Promise<{ run(args: string[]): Promise<void> }> };

const BENCHMARKS: Record<string, Benchmark> = {
  broadcast: {
    description: 'one group, N members online, time until every member has a message',
    usage:
      '[--members 1000,2000,5000,10000,15000] [--rounds 10] [--processes P] [--arms gateway,bare,bare-msgpack] [--server-root DIR]',
    load: () => import('./benches/broadcast.ts'),
  },
  'join-storm': {
    description: 'N members of one group connect at once: time until all are in their rooms and synced',
    usage: '[--members 1000,5000,10000] [--concurrency 500] [--processes P] [--source-addresses K] [--server-root DIR]',
    load: () => import('./benches/join-storm.ts'),
  },
  connections: {
    description: 'idle authenticated sockets: memory per socket and gateway CPU at rest',
    usage:
      '[--sockets 18000] [--group-size 100] [--rest-seconds 60] [--concurrency 25] [--processes P] [--keep-snapshots DIR] [--server-root DIR]',
    load: () => import('./benches/connections.ts'),
  },
  throughput: {
    description: 'senders into 10- and 100-member converses, ramped until p99 send-to-deliver passes 200 ms',
    usage: '[--mixes 10,100] [--users 1000] [--step-seconds 10] [--p99-limit 200] [--start-rate R] [--steps 15]',
    load: () => import('./benches/throughput.ts'),
  },
  'chat-writes': {
    description: 'message writes/s and latency over HTTP, group commit on and off (and thread replies)',
    usage: '[--messages 5000] [--concurrency 100] [--users 20] [--threads]',
    load: () => import('./benches/chat-writes.ts'),
  },
  push: {
    description:
      "offline members' notifications (Web Push, or the push proxy's JSON POSTs) to a local endpoint: notifications/s, connections, server RSS",
    usage:
      '[--channel webpush|proxy] [--notifications 20000 (proxy: 100000)] [--warmup N/10] [--members 50 (--kind all: 500)] [--subscriptions 2 | --devices 2] [--kind mention|all|dm (proxy: all)] [--queue memory|redis] [--send-concurrency 4] [--push-concurrency N] [--encrypt-workers N] [--server-root DIR]',
    load: () => import('./benches/push.ts'),
  },
  webhooks: {
    description:
      'outgoing webhook deliveries to a local receiver checking signatures: deliveries/s, retries, server RSS',
    usage:
      '[--deliveries 20000] [--hooks 10] [--send-concurrency 4] [--queue memory|redis] [--webhook-concurrency N] [--fail-every K]',
    load: () => import('./benches/webhooks.ts'),
  },
  storage: {
    description: 'write and read files through /api/files on local disk and MinIO, against fs directly',
    usage: '[--sizes 100k,1m,10m,100m,1g] [--backends local,minio] [--reps N|list] [--body multipart|raw]',
    load: () => import('./benches/storage.ts'),
  },
  import: {
    description:
      'npm run import of a generated Slack export into the running single instance: messages/s, importer RSS',
    usage: '[--messages 1000000] [--channels 50] [--users 500] [--format slack|discord] [--keep]',
    load: () => import('./benches/import.ts'),
  },
  export: {
    description:
      "a group's export (POST /api/groups/:id/export) of an imported group on the single instance: messages/s, archive size, server RSS",
    usage: '[--messages 200000] [--channels 20] [--users 200] [--keep]',
    load: () => import('./benches/export.ts'),
  },
  seed: {
    description: 'fill a database with a capacity dataset (users, groups, DMs, messages) through bulk writes',
    usage: '[--users 10000] [--groups 200] [--messages 1000000] [--seed 1] [--mongo-url URL]',
    load: () => import('./capacity/seed.ts'),
  },
  capacity: {
    description: 'simulated users over the API and socket.io: supported users (unbounded) or fixed load (bounded)',
    usage:
      '[--mode bounded|unbounded] [--users N] [--duration S] [--step-users N] [--step-seconds S] [--window-seconds S] [--dataset-users N] [--dataset-groups G] [--dataset-messages M] [--seed S] [--config FILE] [--processes P] [--server-root DIR]',
    load: () => import('./capacity/run.ts'),
  },
  soak: {
    description:
      "a steady load for an hour on the single instance: the server's memory over time, its change after warm-up, and what grew between heap snapshots",
    usage:
      '[--users 150] [--minutes 60] [--warmup-minutes 10] [--sample-seconds 5] [--dataset-users 3000] [--dataset-groups 100] [--dataset-messages 20000] [--seed 1] [--processes P] [--snapshots on|off] [--keep-snapshots DIR] [--server-env NAME=VALUE,...] [--server-root DIR] | --rejudge FILE',
    load: () => import('./capacity/soak.ts'),
  },
  compare: {
    description: 'the capacity tests on two git refs (separate worktrees, same dataset): a comparison report',
    usage:
      '<ref-a> <ref-b> [--repeat N] [--modes bounded,unbounded] [--users N] [--duration S] [--unbounded-users N] [--unbounded-duration S] [--step-users N] [--step-seconds S] [--window-seconds S] [--dataset-*] [--seed S] [--config FILE] [--keep-worktrees] [--out DIR]',
    load: () => import('./capacity/compare.ts'),
  },
  'fanout-routing': {
    description:
      'gateways added with the same load each: room events each receives against those its sockets need, routed by room and broadcast to all, and what NATS carried',
    usage:
      '[--gateways 4,8,12,16] [--modes rooms,broadcast] [--groups-per-gateway 6] [--members 12] [--messages 10] [--split 0.5] [--processes 2] [--send-concurrency 8]',
    load: () => import('./benches/fanout-routing.ts'),
  },
  http: {
    description:
      "keep-alive GET of one path (default /health; with --seed-public, a web-public panel's page or feed): the gateway against bare node:http sending the same bytes",
    usage:
      "[--seconds 10] [--connections 50] [--pipelining 1] [--rounds 2] [--path /health | --seed-public --path '/p/{panel}/feed.atom' [--messages 50]] [--accept-encoding br] [--conditional]",
    load: () => import('./benches/http.ts'),
  },
  'public-renders': {
    description:
      "a web-public panel's older pages asked for one by one: gateway CPU per page rendered (not kept) against per page kept",
    usage: '[--panels 4] [--pages 60] [--messages pages+50]',
    load: () => import('./benches/public-renders.ts'),
  },
  calls: {
    description:
      "one call of N people publishing 360p video and a microphone (everyone receiving everyone, or one viewer receiving all): livekit-server's CPU, RSS and what it forwarded",
    usage: '[--publishers 2,4,8] [--shapes mesh,viewer] [--seconds 60] [--warmup-seconds 10]',
    load: () => import('./benches/calls.ts'),
  },
};

const [name, ...args] = process.argv.slice(2);
const bench = name ? BENCHMARKS[name] : undefined;
if (!bench || args.includes('--help')) {
  const known = Object.entries(BENCHMARKS).map(
    ([n, b]) => `  ${n.padEnd(12)} ${b.description}\n  ${''.padEnd(12)} ${b.usage} [--cluster] [--out FILE]`,
  );
  console.error(`usage: npm run bench -- <name> [options]\n\n${known.join('\n')}`);
  process.exit(bench ? 0 : name ? 2 : 1);
}
try {
  await (await bench.load()).run(args);
} catch (err) {
  console.error(`bench ${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
}
