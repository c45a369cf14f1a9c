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
