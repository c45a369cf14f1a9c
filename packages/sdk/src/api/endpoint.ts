import type { ApiSchemaName } from '@im/protocol';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ApiTag =
  | 'auth'
  | 'users'
  | 'groups'
  | 'members'
  | 'roles'
  | 'panels'
  | 'invites'
  | 'converses'
  | 'messages'
  | 'presence'
  | 'files'
  | 'push'
  | 'moderation'
  | 'admin'
  | 'feeds'
  | 'public'
  | 'integrations'
  | 'calls';

/**
 * One public HTTP endpoint, declared once beside the action that serves it
 * (each service's `endpoints.ts`): the gateway mounts it and the API
 * document is generated from it. Path parameters carry the action's
 * parameter names and win over the same name in the body or query.
 */
export interface Endpoint {
  method: HttpMethod;
  /** find-my-way syntax: `/api/groups/:groupId`. */
  path: string;
  /** The action that serves it: `service.action`. */
  action: string;
  /** The action's parameter schema (the same object the action validates with). */
  params: Record<string, unknown>;
  /**
   * Where the parameters that are not in the path come from. `signed`: the
   * body as text (`body`) and the Authorization header (`authorization`),
   * unparsed, for a sender that signs the exact bytes (LiveKit's webhooks).
   */
  input: 'body' | 'query' | 'none' | 'signed';
  /** false: no token needed. */
  auth: boolean;
  status: 200 | 201 | 202 | 204;
  summary: string;
  tag: ApiTag;
  /** The answer, by its name in the protocol's ApiSchemas; `[]` suffix: an array of it. */
  response?: ApiSchemaName | `${ApiSchemaName}[]`;
  /**
   * Served by the gateway's own handler instead of one action call: streaming
   * (upload, download), or from what it keeps rendered in memory (cached).
   */
  raw?: 'upload' | 'download' | 'cached';
  /** For `raw: 'upload'`: text fields the multipart form carries beside `file` (then only multipart is taken). */
  uploadFields?: Record<string, { pattern: string; description: string }>;
  /**
   * A second answer: 202 with `response` when `when(result)` holds (a send
   * that was a slash command is accepted, not stored).
   */
  accepted?: { response: ApiSchemaName; when(result: unknown): boolean; description: string };
  /** The document's operationId when the action serves more than one endpoint. */
  operationId?: string;
  /**
   * What a client can do next with the answer (OpenAPI links): operationId ->
   * its parameters from the answer, e.g. `{ fileId: '$response.body#/id' }`.
   */
  links?: Record<string, Record<string, string>>;
}

type EndpointDeclaration = Omit<Endpoint, 'auth' | 'status'> & Partial<Pick<Endpoint, 'auth' | 'status'>>;

/** An endpoint with the usual defaults: a token is needed, 200 on success. */
export const endpoint = (declaration: EndpointDeclaration): Endpoint => ({ auth: true, status: 200, ...declaration });
