// A group's export on the single instance as a user runs it (the embedded
// store, a fresh DATA_DIR): a generated group archive of N messages is
// imported first with `npm run import -- im` (not timed), then its owner asks for
// the group's export over the API and the run follows the job until done:
// messages per second written into the archive, the archive's size, and the
// server's resident memory sampled every 200 ms while it writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportAccepted, ExportJob, Group } from '@im/protocol';
import { api } from '../lib/api.ts';
import { benchArgs, intOption } from '../lib/args.ts';
import { spawnImport, startEmbeddedWithOwner } from '../lib/import-run.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { writeResult } from '../lib/report.ts';
import { mib, RssSampler } from '../lib/rss-sampler.ts';
import { generateImArchive } from './export-generate.ts';

/** How often the job is asked about: fine enough next to exports of seconds to minutes. */
const POLL_MS = 250;

export async function run(argv: string[]): Promise<void> {
  const args = benchArgs(argv, {
    messages: { type: 'string' },
    channels: { type: 'string' },
    users: { type: 'string' },
    keep: { type: 'boolean', default: false },
  });
  const messages = intOption('messages', args.messages, 200_000);
  const channels = intOption('channels', args.channels, 20);
  const users = intOption('users', args.users, 200);
  const load = new LoadCpu();
  const work = mkdtempSync(join(tmpdir(), 'im-bench-export-'));
  try {
    process.stdout.write(`importing a group of ${messages} messages in ${channels} panels (not timed)\n`);
    const generated = await generateImArchive(join(work, 'archive'), messages, channels, users);
    const { server, env, owner } = await startEmbeddedWithOwner(join(work, 'data'), 'exportowner');
    try {
      const child = spawnImport(env, 'im', generated.dir, owner.username, ['ignore', 'ignore', 'inherit']);
      const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
      if (code !== 0) throw new Error(`the import exited with ${code}`);
      const groups = await api<Group[]>(server.base, 'GET', '/api/groups', owner.token);
      const group = groups.find((g) => g.panels.length === channels);
      if (!group) throw new Error('the imported group is not there');

      const sampler = new RssSampler(() => server.rssBytes());
      await sampler.start();
      const started = performance.now();
      const { id } = await api<ExportAccepted>(server.base, 'POST', `/api/groups/${group.id}/export`, owner.token);
      let job = await api<ExportJob>(server.base, 'GET', `/api/exports/${id}`, owner.token);
      while (job.status === 'running') {
        await new Promise((r) => setTimeout(r, POLL_MS));
        job = await api<ExportJob>(server.base, 'GET', `/api/exports/${id}`, owner.token);
      }
      const seconds = (performance.now() - started) / 1000;
      const rss = await sampler.stop();
      if (job.status !== 'done') throw new Error(`the export ${job.status}: ${JSON.stringify(job.error)}`);
      const result = {
        benchmark: 'export',
        store: 'embedded (H2 file)',
        group: { messages, channels, users, replies: generated.replies },
        seconds: Math.round(seconds * 10) / 10,
        messagesPerSecond: Math.round(messages / seconds),
        archiveMiB: mib(job.size ?? 0),
        serverRssMiB: { start: mib(rss.startBytes), peak: mib(rss.peakBytes), end: mib(rss.endBytes) },
      };
      process.stdout.write(
        `${messages} messages exported in ${result.seconds} s: ${result.messagesPerSecond} messages/s; archive ${result.archiveMiB} MiB; server RSS ${result.serverRssMiB.start} -> peak ${result.serverRssMiB.peak} MiB\n`,
      );
      writeResult(result, {
        out: args.out,
        load,
        chart: {
          title: `group export: server RSS (${messages} messages)`,
          xLabel: 'seconds',
          yLabel: 'MiB',
          series: [{ name: 'server RSS', points: rss.samples.map(([ms, b]) => [ms / 1000, mib(b)]) }],
        },
      });
    } finally {
      await server.stop();
    }
  } finally {
    if (!args.keep) rmSync(work, { recursive: true, force: true });
  }
}
