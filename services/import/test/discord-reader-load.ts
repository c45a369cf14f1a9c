// Measures the Discord reader alone on a generated export: messages/s of the
// scan at opening and of one `messages()` pass, and the process's peak RSS.
// `bash scripts/node.sh services/import/test/discord-reader-load.ts [--messages 1000000] [--out FILE]`
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDiscordExport } from '../src/sources/discord/index.ts';
import { writeDiscordExport } from '@im/testkit';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '1000000' }, out: { type: 'string' } },
});
const total = Number(values.messages);
const dir = await mkdtemp(join(tmpdir(), 'discord-load-'));
const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);
const du = async (folder: string): Promise<number> => {
  let bytes = 0;
  for (const name of await readdir(folder)) bytes += (await stat(join(folder, name))).size;
  return bytes;
};
try {
  await writeDiscordExport(dir, { messages: total });
  const exportBytes = await du(dir);
  const rssBefore = process.memoryUsage().rss;
  // The generator's peak is not the reader's: RSS is sampled while reading.
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  let t = performance.now();
  const source = await openDiscordExport(dir);
  const scanSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  let yielded = 0;
  for await (const message of source.messages()) if (message.key) yielded++;
  const passSeconds = (performance.now() - t) / 1000;
  await source.close();
  clearInterval(sampler);
  const result = {
    machine: {
      cores: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
      note: 'a busy machine: other test and benchmark runs shared its 2 cores',
    },
    date: new Date().toISOString(),
    messages: total,
    exportMiB: mib(exportBytes),
    yielded,
    skipped: source.skipped.toJSON(),
    scan: { seconds: Math.round(scanSeconds * 10) / 10, messagesPerSecond: Math.round(total / scanSeconds) },
    messagesPass: { seconds: Math.round(passSeconds * 10) / 10, messagesPerSecond: Math.round(yielded / passSeconds) },
    rssMiB: { beforeOpening: mib(rssBefore), peakWhileReading: mib(rssPeak) },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (values.out) await writeFile(values.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
