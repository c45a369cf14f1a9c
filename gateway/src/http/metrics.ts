import { Counter, Histogram, type Registry } from 'prom-client';

export interface HttpMetrics {
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
}

export function createHttpMetrics(registry: Registry): HttpMetrics {
  return {
    requests: new Counter({
      name: 'im_http_requests_total',
      help: 'HTTP requests served by the gateway',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'im_http_request_duration_seconds',
      help: 'HTTP request time in the gateway',
      labelNames: ['method', 'route'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}

/** One route's series, with their label objects made once instead of per request. */
export class RouteMetrics {
  readonly #metrics: HttpMetrics;
  readonly #labels: { method: string; route: string };
  readonly #byStatus = new Map<number, { method: string; route: string; status: number }>();

  constructor(metrics: HttpMetrics, method: string, route: string) {
    this.#metrics = metrics;
    this.#labels = { method, route };
  }

  record(status: number, seconds: number): void {
    let labels = this.#byStatus.get(status);
    if (!labels) {
      labels = { ...this.#labels, status };
      this.#byStatus.set(status, labels);
    }
    this.#metrics.requests.inc(labels);
    this.#metrics.duration.observe(this.#labels, seconds);
  }
}
