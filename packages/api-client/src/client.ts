import type { Operation } from './operation.ts';
import { OPERATIONS, type OperationTypes } from './operations.generated.ts';
import { fillPath, operationPath, queryString } from './path.ts';

/** Every endpoint's operationId: the action that serves it, unless the table names it otherwise. */
export type OperationId = keyof OperationTypes;

/** The operations the runtime calls as JSON: all but the raw ones (uploads, downloads, cached pages) and signed webhooks. */
export type CallableId = {
  [K in OperationId]: (typeof OPERATIONS)[K] extends { raw: string } | { input: 'signed' } ? never : K;
}[OperationId];

export type ParamsOf<K extends OperationId> = OperationTypes[K]['params'];
export type PathParamsOf<K extends OperationId> = OperationTypes[K]['path'];
export type ResponseOf<K extends OperationId> = OperationTypes[K]['response'];

/** The params argument: optional when every parameter is. */
type ArgsOf<K extends OperationId> =
  Partial<ParamsOf<K>> extends ParamsOf<K> ? [params?: ParamsOf<K>] : [params: ParamsOf<K>];

/**
 * Carries one JSON call: answers the parsed body (undefined for a 204) or
 * throws. The web app's HttpClient is one (its session, abort and 401
 * handling); `fetchTransport` is one for node.
 */
export interface Transport {
  request(method: Operation['method'], path: string, body?: unknown): Promise<unknown>;
}

export interface ApiClient {
  /** Calls an endpoint: path parameters into its path, the rest into its query or JSON body; the typed answer. */
  call<K extends CallableId>(operation: K, ...args: ArgsOf<K>): Promise<ResponseOf<K>>;
}

const operationOf = (id: OperationId): Operation => OPERATIONS[id];

export function createApiClient(transport: Transport): ApiClient {
  return {
    async call(id, ...args) {
      const operation = operationOf(id);
      const { path, rest } = fillPath(operation.path, (args[0] ?? {}) as Record<string, unknown>);
      const answer =
        operation.input === 'query'
          ? transport.request(operation.method, path + queryString(rest))
          : operation.input === 'body'
            ? transport.request(operation.method, path, rest)
            : transport.request(operation.method, path);
      return answer as Promise<ResponseOf<typeof id>>;
    },
  };
}

/** The path parameters, and any of the others (a query endpoint's go into the query). */
type PathArgsOf<K extends OperationId> =
  Partial<PathParamsOf<K>> extends PathParamsOf<K>
    ? [params?: Partial<ParamsOf<K>>]
    : [params: PathParamsOf<K> & Partial<ParamsOf<K>>];

/** The URL path of an operation with its parameters (for raw endpoints, links, and tests that answer by path). */
export function apiPath<K extends OperationId>(id: K, ...args: PathArgsOf<K>): string {
  return operationPath(operationOf(id), (args[0] ?? {}) as Record<string, unknown>);
}
