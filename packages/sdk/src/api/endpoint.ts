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
  /**
   * For `raw: 'cached'`: the media type of an answer that is not JSON (a
   * page, a feed); its body is that text. A page's 404 is a page too.
   */
  produces?: 'text/html' | 'application/atom+xml' | 'application/rss+xml';
  /** For `raw: 'upload'`: text fields the multipart form carries beside `file` (then only multipart is taken). */
  uploadFields?: Record<string, { pattern: string; description: string }>;
  /** For `raw: 'upload'`: the media types the `file` part may be (its bytes are sniffed); absent: any. */
  uploadTypes?: readonly string[];
  /**
   * Query parameters that exclude each other: a request uses those of at
   * most one of the sets in `oneOf` (history: `before` and `after`, or
   * `around`). The document declares them as one object parameter, `name`,
   * with a `oneOf` (form style, exploded: on the wire they stay separate).
   */
  exclusiveQuery?: { name: string; oneOf: readonly (readonly string[])[] };
  /** A body that names none of its fields is refused (400, "nothing to change"): `minProperties: 1`. */
  nonEmptyBody?: true;
  /**
   * When a request the schema allows is still 400 IM_ERR_VALIDATION, for a
   * rule no schema can say (a time relative to now, the resource's current
   * state, a URL's destination checked when it is registered): the document
   * declares the 400 with this reason.
   */
  invalidWhen?: string;
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
