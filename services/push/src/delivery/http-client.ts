import { Agent } from 'undici';

/**
 * The one HTTP client of the process for push endpoints: keep-alive
 * connections pooled per origin, so thousands of notifications reuse a
 * handful of sockets instead of opening one each.
 */
export const pushAgent = new Agent({
  connections: 16,
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 120_000,
  headersTimeout: 10_000,
  bodyTimeout: 10_000,
});
