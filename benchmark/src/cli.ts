// `npm run bench -- <name> [options]`: runs one benchmark of BENCHMARKS.md.
// Each benchmark registers itself in BENCHMARKS as it is added.

type Benchmark = { description: string; run(args: string[]): Promise<void> };

const BENCHMARKS: Record<string, Benchmark> = {
  'chat-writes': {
    description: 'message writes/s and latency over HTTP, group commit on and off',
    run: async (args) => (await import('./chat-writes.ts')).run(args),
  },
};

const [name, ...args] = process.argv.slice(2);
const bench = name ? BENCHMARKS[name] : undefined;
if (!bench) {
  const known = Object.entries(BENCHMARKS).map(([n, b]) => `  ${n.padEnd(12)} ${b.description}`);
  console.error(
    `usage: npm run bench -- <name> [options]\n\n${known.length > 0 ? known.join('\n') : '  (no benchmarks yet)'}`,
  );
  process.exit(name ? 2 : 1);
}
await bench.run(args);
