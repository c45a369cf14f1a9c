// `npm run import` of a generated Slack (or, with `--format discord`, Discord)
// export into the single instance as a user runs it (the embedded store, a
// fresh DATA_DIR), with the platform running: messages per second, and the importer's resident memory sampled
// every 200 ms. The export is written first (not timed); the importer is its
// own process, as an operator starts it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Group, ImportSummary, Message } from '@im/protocol';
import { api } from '../lib/api.ts';
import { benchArgs, intOption } from '../lib/args.ts';
import { spawnImport, startEmbeddedWithOwner } from '../lib/import-run.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { writeResult } from '../lib/report.ts';
import { mib, procRss, RssSampler } from '../lib/rss-sampler.ts';
import { writeDiscordExport } from '@im/testkit';
import { generateSlackExport, type GeneratedExport } from './import-generate.ts';

export async function run(argv: string[]): Promise<void> {
  const args = benchArgs(argv, {
    messages: { type: 'string' },
    channels: { type: 'string' },
    users: { type: 'string' },
    keep: { type: 'boolean', default: false },
    format: { type: 'string', default: 'slack' },
  });
  const format = args.format;
  if (format !== 'slack' && format !== 'discord') throw new Error('--format is slack or discord');
  const messages = intOption('messages', args.messages, 1_000_000);
  const channels = intOption('channels', args.channels, 50);
  const users = intOption('users', args.users, 500);
  const load = new LoadCpu();
  const work = mkdtempSync(join(tmpdir(), 'im-bench-import-'));
  try {
    process.stdout.write(
      `writing a ${format} export of ${messages} messages in ${channels} channels by ${users} people\n`,
    );
    const dir = join(work, 'export');
    const generated: GeneratedExport =
      format === 'slack'
        ? generateSlackExport(dir, messages, channels, users)
        : { dir, ...(await writeDiscordExport(dir, { messages, channels, people: users })) };
    process.stdout.write(`  ${mib(generated.bytes)} MiB of JSON, ${generated.replies} thread replies\n`);
    const { server, env, owner } = await startEmbeddedWithOwner(join(work, 'data'), 'importowner');
    try {
      const child = spawnImport(env, format, generated.dir, owner.username, ['ignore', 'pipe', 'pipe']);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
      const sampler = new RssSampler(procRss(child.pid!));
      const started = performance.now();
      await sampler.start();
      const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
      const seconds = (performance.now() - started) / 1000;
      const rss = await sampler.stop();
      if (code !== 0) throw new Error(`the import exited with ${code}`);
      const summary = JSON.parse(out.trim().split('\n').at(-1)!) as ImportSummary;
      // What the running platform shows: the group, and a panel's newest page.
      const groups = await api<Group[]>(server.base, 'GET', '/api/groups', owner.token);
      const group = groups.find((g) => g.panels.length === channels);
      let newest: Message[] = [];
      let readError: string | undefined;
      try {
        newest = group
          ? await api<Message[]>(
              server.base,
              'GET',
              `/api/converses/${group.panels[0]!.converseId}/messages?limit=5`,
              owner.token,
            )
          : [];
      } catch (err) {
        readError = (err as Error).message;
        process.stderr.write(`${readError}\n${server.process.output().slice(-4000)}\n`);
      }
      const result = {
        benchmark: 'import',
        store: 'embedded (H2 file), platform running',
        export: { format, ...generated, dir: undefined, mib: mib(generated.bytes) },
        summary,
        seconds: Math.round(seconds * 10) / 10,
        messagesPerSecond: Math.round(summary.messages / seconds),
        importerRssMiB: { start: mib(rss.startBytes), peak: mib(rss.peakBytes), end: mib(rss.endBytes) },
        platformSeesGroup: Boolean(group),
        newestSeq: newest.at(-1)?.seq ?? 0,
        ...(readError ? { readError } : {}),
      };
      process.stdout.write(
        `${summary.messages} messages in ${result.seconds} s: ${result.messagesPerSecond} messages/s; importer RSS peak ${result.importerRssMiB.peak} MiB\n`,
      );
      writeResult(result, {
        out: args.out,
        load,
        chart: {
          title: `npm run import: importer RSS (${messages} messages)`,
          xLabel: 'seconds',
          yLabel: 'MiB',
          series: [{ name: 'importer RSS', points: rss.samples.map(([ms, b]) => [ms / 1000, mib(b)]) }],
          reference: { y: 300, label: 'target: 300 MiB' },
        },
      });
    } finally {
      await server.stop();
    }
  } finally {
    if (!args.keep) rmSync(work, { recursive: true, force: true });
  }
}
