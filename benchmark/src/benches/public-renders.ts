// What a web-public page costs the gateway when it is not kept in memory (a
// render: read, Markdown, compression) against when it is (a hit). A public
// panel is seeded with varied chat text (`--panels` of them); then `--pages`
// distinct `?before=` pages of each are asked for one after the other (each
// a render), then the same pages again (each a hit: a converse keeps 64
// variants, so at most 60 pages a panel), as a browser asks (brotli
// accepted). The figure
// is the gateway process's CPU per request from its own metrics, which in
// the single instance includes the services reading the messages (the
// database is a process of its own). Rate limits are off, as in every run.
import { get } from 'node:http';
import type { Group } from '@im/protocol';
import { mulberry32 } from '../capacity/seed-prng.ts';
import { AccountPool, api } from '../lib/api.ts';
import { benchArgs, intOption } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, metric, scrape } from '../lib/metrics.ts';
import { table, writeResult } from '../lib/report.ts';
import { round } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';

const WORDS = (
  'the a to and of is in it you that for on we this with be are have can just not do at so what about ' +
  'meeting release build deploy review ticket tomorrow today lunch coffee thanks sure agreed later maybe ' +
  'looks good ship it fixed broken test again docs link call please done next week friday update plan ' +
  'server client cache latency memory rollback staging production incident alert dashboard metric queue'
).split(' ');

/** Chat text with some Markdown, different in every message (as a real panel's are). */
function messageText(next: () => number, i: number): string {
  const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const words = Array.from({ length: 20 + Math.floor(next() * 40) }, word);
  words[3] = `**${words[3]}**`;
  if (i % 3 === 0) words.push(`[notes](https://example.org/${i}/${Math.floor(next() * 1e9).toString(36)})`);
  if (i % 5 === 0) words.push(`\`${word()}_${word()}()\``);
  if (i % 7 === 0) words.push(`||${word()} ${word()}||`);
  return words.join(' ');
}

async function seed(base: string, messages: number): Promise<string> {
  const [author] = await new AccountPool(base).ensure(1);
  const { token } = author!;
  const group = await api<Group>(base, 'POST', '/api/groups', token, { name: 'Render costs' });
  await api(base, 'PATCH', `/api/groups/${group.id}`, token, { visibility: 'public' });
  const panel = group.panels[0]!;
  await api(base, 'PATCH', `/api/groups/${group.id}/panels/${panel.id}`, token, { webPublic: true });
  const next = mulberry32(1);
  for (let i = 1; i <= messages; i += 1)
    await api(base, 'POST', `/api/converses/${panel.converseId}/messages`, token, { content: messageText(next, i) });
  return panel.id;
}

/** The body's size as sent (compressed), after checking the answer is a 200. */
const sentBytes = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${url}: ${res.statusCode}`)),
      );
    }).on('error', reject);
  });

/** GETs each path once, in order; the gateway's CPU per request (ms) and bytes per answer. */
async function pass(base: string, paths: string[]): Promise<{ cpuMsPerRequest: number; bytesPerAnswer: number }> {
  const before = cpuSeconds(await scrape(base));
  let bytes = 0;
  for (const path of paths) bytes += await sentBytes(base + path);
  const after = cpuSeconds(await scrape(base));
  return { cpuMsPerRequest: ((after - before) * 1000) / paths.length, bytesPerAnswer: bytes / paths.length };
}

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    pages: { type: 'string' },
    panels: { type: 'string' },
    messages: { type: 'string' },
  });
  const pages = Math.min(60, intOption('pages', values.pages, 60));
  const panels = intOption('panels', values.panels, 4);
  const messages = intOption('messages', values.messages, pages + 50);
  const loadCpu = new LoadCpu();
  let target: Target | undefined;
  try {
    target = await startTarget({ cluster: false });
    const base = target.gateways[0]!;
    const paths: string[] = [];
    for (let p = 0; p < panels; p += 1) {
      const panelId = await seed(base, messages);
      // Each a page of 50 messages, none kept yet.
      paths.push(...Array.from({ length: pages }, (_, i) => `/p/${panelId}?before=${messages - i}`));
      // One render first, so that the panel's lookups are not counted in the first miss.
      await sentBytes(`${base}/p/${panelId}`);
    }
    const rendersBefore = metric(await scrape(base), 'im_public_renders_total');
    const misses = await pass(base, paths);
    const rendersAfterMisses = metric(await scrape(base), 'im_public_renders_total');
    const hits = await pass(base, paths);
    const rendersAfterHits = metric(await scrape(base), 'im_public_renders_total');
    const result = {
      benchmark: 'public-renders',
      panels,
      pages,
      messages,
      renders: { misses: rendersAfterMisses - rendersBefore, hits: rendersAfterHits - rendersAfterMisses },
      miss: { cpuMsPerRequest: round(misses.cpuMsPerRequest, 2), bytesPerAnswer: Math.round(misses.bytesPerAnswer) },
      hit: { cpuMsPerRequest: round(hits.cpuMsPerRequest, 3), bytesPerAnswer: Math.round(hits.bytesPerAnswer) },
    };
    process.stdout.write(
      table([
        {
          request: 'miss (render)',
          'server CPU ms/request': result.miss.cpuMsPerRequest,
          'bytes (br)': result.miss.bytesPerAnswer,
        },
        {
          request: 'hit (kept)',
          'server CPU ms/request': result.hit.cpuMsPerRequest,
          'bytes (br)': result.hit.bytesPerAnswer,
        },
      ]),
    );
    writeResult(result, { out: values.out, load: loadCpu });
  } finally {
    await target?.stop();
  }
}
