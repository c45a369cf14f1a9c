export type { Operation } from './operation.ts';
export { OPERATIONS, type OperationTypes } from './operations.generated.ts';
export {
  apiPath,
  createApiClient,
  type ApiClient,
  type CallableId,
  type OperationId,
  type ParamsOf,
  type PathParamsOf,
  type ResponseOf,
  type Transport,
} from './client.ts';
export { ApiCallError, fetchTransport, type FetchTransportOptions } from './fetch-transport.ts';
