// Which server process a delivery benchmark watches the memory of: the single
// instance through its gateway's /metrics, or in the cluster the service node
// doing the deliveries, from /proc (service nodes serve no /metrics).
import { rssBytes, scrape, type Scrape } from './metrics.ts';
import { findNodePid } from './node-pid.ts';
import { mib, procRss, type RssTrace } from './rss-sampler.ts';
import { round } from './stats.ts';
import type { Target } from './target.ts';

export interface ServerRss {
  /** Where the readings come from, for the result. */
  source: string;
  read: () => Promise<number>;
}

/** A cluster node by its NODE_ID, and the services it runs (for the result's wording). */
export interface ClusterNode {
  id: string;
  services: string;
}

/** `onScrape` sees every /metrics reading of the single instance (e.g. to follow a queue's depth). */
export function serverRss(target: Target, node: ClusterNode, onScrape?: (s: Scrape) => void): ServerRss {
  if (target.mode === 'cluster') {
    const pid = findNodePid(`NODE_ID=${node.id}`);
    if (pid === undefined) throw new Error(`cannot find the cluster's ${node.id} node to sample its RSS`);
    return { source: `/proc of the cluster's ${node.id} node (${node.services})`, read: procRss(pid) };
  }
  const base = target.gateways[0]!;
  return {
    source: 'gateway /metrics (the single instance)',
    read: async () => {
      const s = await scrape(base);
      onScrape?.(s);
      return rssBytes(s);
    },
  };
}

/** A trace's figures as results report them, in MiB. */
export const rssFigures = (rss: RssTrace) => ({
  rssBeforeMiB: mib(rss.startBytes),
  rssPeakMiB: mib(rss.peakBytes),
  rssAfterMiB: mib(rss.endBytes),
  rssGrowthMiB: mib(rss.peakBytes - rss.startBytes),
  rssSamples: rss.samples.length,
  rssSampleFailures: rss.failures,
});

/** Chart points [s, MiB], the clock moved so that 0 is `leadSeconds` after the sampler started. */
export const rssPoints = (rss: RssTrace, leadSeconds: number): Array<[number, number]> =>
  rss.samples.map(([ms, bytes]) => [round(ms / 1000 - leadSeconds, 2), mib(bytes)]);
