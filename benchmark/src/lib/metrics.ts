/** One gateway's Prometheus text, parsed to `name{labels}` -> value. */
export type Scrape = Map<string, number>;

export async function scrape(base: string): Promise<Scrape> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out: Scrape = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    out.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return out;
}

/** Sum of every series of `name` whose labels contain `labelPart` (e.g. `event="message:new"`). */
export function metric(s: Scrape, name: string, labelPart = ''): number {
  let total = 0;
  for (const [key, value] of s) {
    const brace = key.indexOf('{');
    const base = brace === -1 ? key : key.slice(0, brace);
    if (base === name && key.includes(labelPart)) total += value;
  }
  return total;
}

/** Server CPU seconds (user + system) of one gateway process. */
export const cpuSeconds = (s: Scrape): number => metric(s, 'im_process_cpu_seconds_total');
export const rssBytes = (s: Scrape): number => metric(s, 'im_process_resident_memory_bytes');
export const heapUsedBytes = (s: Scrape): number => metric(s, 'im_nodejs_heap_size_used_bytes');
