// The set-up most API test files share: one single instance for the describe
// block (started before its tests, stopped after them with any sockets the
// tests opened) and the expect-a-status helpers over it.
import { apiWithSockets, expectations, type ApiHarness } from '../api/harness.ts';

export type ApiUser = Awaited<ReturnType<ApiHarness['user']>>;

/** Call inside a describe block; `api` stands for the started harness from `before` on. */
export function apiSuite(
  fileUrl: string,
  extra?: Parameters<typeof apiWithSockets>[1],
  brokerOverrides?: Parameters<typeof apiWithSockets>[2],
) {
  const { api, sockets } = apiWithSockets(fileUrl, extra, brokerOverrides);
  return { api, sockets, ...expectations(() => api) };
}
