import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { SendHooks } from './delivery/sender.ts';

/** The push service's metrics, and the delivery hooks that record them. */
export function pushMetrics(registry: Registry, queueDepth: () => Promise<number>) {
  const sent = new Counter({
    name: 'im_push_sent_total',
    help: 'Notifications delivered',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  const failed = new Counter({
    name: 'im_push_failed_total',
    help: 'Notifications dropped',
    labelNames: ['channel', 'reason'] as const,
    registers: [registry],
  });
  const retried = new Counter({
    name: 'im_push_retried_total',
    help: 'Delivery attempts to retry',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'im_push_latency_seconds',
    help: 'Push endpoint answer time',
    labelNames: ['channel'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'im_push_queue_depth',
    help: 'Notifications waiting (including retries)',
    registers: [registry],
    async collect() {
      this.set(await queueDepth());
    },
  });
  // Each delivery records two series: their labelled children are looked up once per channel.
  const perChannel = new Map<string, { sent: Counter.Internal; latency: Histogram.Internal<'channel'> }>();
  const series = (channel: string) => {
    let s = perChannel.get(channel);
    if (!s) perChannel.set(channel, (s = { sent: sent.labels(channel), latency: latency.labels(channel) }));
    return s;
  };
  const hooks: Omit<SendHooks, 'gone' | 'failing' | 'recovered'> = {
    sent: (channel, ms) => {
      const s = series(channel);
      s.sent.inc();
      s.latency.observe(ms / 1000);
    },
    failed: (channel, reason) => failed.inc({ channel, reason }),
    retried: (channel) => retried.inc({ channel }),
  };
  return hooks;
}
