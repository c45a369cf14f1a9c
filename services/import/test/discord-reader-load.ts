// Measures the Discord reader alone on a generated export: messages/s of the
// scan at opening and of one `messages()` pass, and the process's peak RSS.
// `bash scripts/node.sh services/import/test/discord-reader-load.ts [--messages 1000000] [--out FILE]`
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDiscordExport } from '../src/sources/discord/index.ts';
import { writeDiscordExport } from './discord-export-generator.ts';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '1000000' }, out: { type: 'string' } },
});
const total = Number(values.messages);
const dir = await mkdtemp(join(tmpdir(), 'discord-load-'));
const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);
try {
  await writeDiscordExport(dir, { messages: total });
  const rssBefore = process.memoryUsage().rss;
  let t = performance.now();
  const source = await openDiscordExport(dir);
  const scanSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  let yielded = 0;
  for await (const message of source.messages()) if (message.key) yielded++;
  const passSeconds = (performance.now() - t) / 1000;
  await source.close();
  const result = {
    machine: {
      cores: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGiB: mib(totalmem()) / 1024,
      node: process.version,
    },
    date: new Date().toISOString(),
    messages: total,
    yielded,
    skipped: source.skipped.toJSON(),
    scan: { seconds: Math.round(scanSeconds * 10) / 10, messagesPerSecond: Math.round(total / scanSeconds) },
    messagesPass: { seconds: Math.round(passSeconds * 10) / 10, messagesPerSecond: Math.round(yielded / passSeconds) },
    rssMiB: { beforeOpening: mib(rssBefore), peak: Math.round(process.resourceUsage().maxRSS / 1024) },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (values.out) await writeFile(values.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
